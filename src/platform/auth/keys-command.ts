import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { DB } from '../db/schema.js';
import { ANON_KEY_NAME, SERVICE_ROLE_KEY_NAME } from './secrets.js';
import { rotateSigningKey } from './signing-keys.js';

/**
 * `npm run keys`: prints the embedded provider's keys to the operator who runs it (a terminal, not the
 * service's log stream). `npm run keys -- rotate`: a new signing key signs from now on; the previous
 * one stays in the JWKS and verifies until the last token it signed has expired.
 */
export async function runKeysCommand(db: Kysely<DB>, config: Config, args: readonly string[], out: (line: string) => void): Promise<number> {
  if (config.auth.mode !== 'embedded') {
    out('AUTH_MODE=external: the service has no keys of its own (tokens come from AUTH_JWKS_URL or AUTH_JWT_SECRET).');
    return 2;
  }
  const [command] = args;
  if (command === 'rotate') {
    if (config.auth.signingKey !== null) {
      out(`The signing key comes from ${config.auth.signingKey.variable}: put the new key there and restart.`);
      out('At that start it signs, and the previous key keeps verifying until its tokens have expired.');
      return 2;
    }
    const { kid, retired } = await rotateSigningKey(db);
    out(`New signing key ${kid} signs from now on (every instance within a minute).`);
    if (retired !== null) out(`The previous key ${retired} stays in the JWKS and verifies until its last token has expired.`);
    return 0;
  }
  if (command !== undefined) {
    out(`Unknown command "${command}". Usage: npm run keys [-- rotate]`);
    return 2;
  }
  const stored = new Map(
    (await db.selectFrom('platform_secrets').select(['name', 'value']).where('name', 'in', [ANON_KEY_NAME, SERVICE_ROLE_KEY_NAME]).execute()).map(
      (row) => [row.name, row.value as string],
    ),
  );
  const show = (variable: string, configured: string | null, name: string) =>
    out(`${variable}: ${configured !== null ? '(set in the environment)' : (stored.get(name) ?? '(not generated yet: start the service once)')}`);
  show('AUTH_ANON_KEY', config.auth.anonKey, ANON_KEY_NAME);
  show('AUTH_SERVICE_ROLE_KEY', config.auth.serviceRoleKey, SERVICE_ROLE_KEY_NAME);
  const keys = await db
    .selectFrom('auth_signing_keys')
    .select(['kid', 'source', 'created_at', 'retired_at', 'verify_until'])
    .orderBy('created_at', 'desc')
    .execute();
  out('Token signing keys (ES256; public keys at /auth/v1/.well-known/jwks.json):');
  const now = Date.now();
  for (const key of keys) {
    const state =
      key.retired_at === null
        ? 'signs'
        : key.verify_until !== null && key.verify_until.getTime() > now
          ? `retired, verifies until ${key.verify_until.toISOString()}`
          : 'expired';
    out(`  ${key.kid}  ${state}  (${key.source}, created ${key.created_at.toISOString()})`);
  }
  if (keys.length === 0) out('  (none yet: start the service once)');
  return 0;
}
