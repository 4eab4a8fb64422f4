/**
 * `Authorization: Bearer <token>` parsing. The scheme is case-insensitive and separated from its token by
 * one or more spaces (RFC 7235 2.1, RFC 6750 2.1): `bearer`, `BEARER` and `Bearer` are one scheme.
 */
const BEARER = /^bearer +(\S+)$/i;
const JWT_SHAPE = /^[A-Za-z0-9\-_]+\.[A-Za-z0-9\-_]+\.[A-Za-z0-9\-_]*$/;

/** The token of a bearer header, or null (no header, another scheme, no token). */
export function bearerToken(header: string | undefined): string | null {
  if (header === undefined) return null;
  return BEARER.exec(header)?.[1] ?? null;
}

export const isJwtShaped = (token: string): boolean => JWT_SHAPE.test(token);

/** The token of a bearer header when it has the shape of a compact JWS, or null. */
export function bearerJwt(header: string | undefined): string | null {
  const token = bearerToken(header);
  return token !== null && isJwtShaped(token) ? token : null;
}
