import { SignJWT } from 'jose';
import type { AuthSecrets } from '../../../platform/auth/secrets.js';
import { ACCESS_TOKEN_TTL_SECONDS } from '../../../platform/auth/token-lifetimes.js';

export interface AccessTokenSubject {
  userId: string;
  email: string;
  sessionId: string;
}

export interface IssuedAccessToken {
  token: string;
  expiresAt: number;
}

/** D3: ES256 access tokens with sub, aud, iss, iat, exp (iat + 1 h), email, role and session_id. */
export async function signAccessToken(
  subject: AccessTokenSubject,
  secrets: AuthSecrets,
  claims: { issuer: string; audience: string },
  now = Math.floor(Date.now() / 1000),
): Promise<IssuedAccessToken> {
  const expiresAt = now + ACCESS_TOKEN_TTL_SECONDS;
  const key = await secrets.signingKeys.signing();
  const token = await new SignJWT({ email: subject.email, role: 'authenticated', session_id: subject.sessionId })
    .setProtectedHeader({ alg: 'ES256', kid: key.kid, typ: 'JWT' })
    .setSubject(subject.userId)
    .setIssuer(claims.issuer)
    .setAudience(claims.audience)
    .setIssuedAt(now)
    .setExpirationTime(expiresAt)
    .sign(key.privateKey);
  return { token, expiresAt };
}
