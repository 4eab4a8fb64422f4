import { createPrivateKey } from 'node:crypto';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { Config } from './config.js';
import { SIGNING_KEY_FILE, TRUSTED_KEYS_FILE, isThrowAway, rotateSigningKeyFile } from './platform/audit/checkpoint-key.js';
import { signingKeyFrom } from './platform/audit/checkpoint-signature.js';
import type { DB } from './platform/db/schema.js';
import { ANON_KEY_NAME, SERVICE_ROLE_KEY_NAME } from './platform/auth/secrets.js';
import { rotateSigningKey } from './platform/auth/signing-keys.js';

/**
 * `npm run keys`: prints the embedded provider's keys to the operator who runs it (a terminal, not the
 * service's log stream). `npm run keys -- rotate`: a new signing key signs from now on; the previous
 * one stays in the JWKS and verifies until the last token it signed has expired. `npm run keys --
 * rotate-audit`: a new audit checkpoint key, the previous one kept trusted.
 */
export async function runKeysCommand(db: Kysely<DB>, config: Config, args: readonly string[], out: (line: string) => void): Promise<number> {
  const [command] = args;
  if (command === 'rotate-audit') return rotateAuditKey(config, out);
  if (config.auth.mode !== 'embedded') {
    out('AUTH_MODE=external: the service has no keys of its own (tokens come from AUTH_JWKS_URL or AUTH_JWT_SECRET).');
    return 2;
  }
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
    out(`Unknown command "${command}". Usage: npm run keys [-- rotate | rotate-audit]`);
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

/**
 * The audit checkpoint key (D7.5). Checkpoints of the previous key must stay verifiable, so its public key
 * stays trusted: DATA_DIR's key is rotated here, with the old public key appended to the trusted file the
 * service reads at start; a key from the environment is the operator's to replace, and this says how.
 */
function rotateAuditKey(config: Config, out: (line: string) => void): number {
  if (isThrowAway(config)) {
    out('DATABASE_URL=memory://: the audit signing key lives as long as the process; there is nothing to rotate.');
    return 2;
  }
  if (config.audit.signingKeyPem !== null) {
    const current = signingKeyFrom(createPrivateKey(config.audit.signingKeyPem));
    const der = current.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    out('The audit signing key comes from AUDIT_SIGNING_KEY: put a new Ed25519 key there (openssl genpkey -algorithm ed25519)');
    out(`and restart every instance. So that checkpoints of the current key ${current.keyId} stay trusted, add its public key`);
    out(`to AUDIT_TRUSTED_PUBLIC_KEYS (comma-separated) at the same time: ${der}`);
    return 2;
  }
  const rotated = rotateSigningKeyFile(config.dataDir);
  if (rotated === null) {
    out(`No audit signing key in ${join(config.dataDir, SIGNING_KEY_FILE)} yet: the service creates one when it first signs.`);
    return 0;
  }
  out(`New audit signing key ${rotated.current.keyId} in ${join(config.dataDir, SIGNING_KEY_FILE)}: it signs from the service's next start.`);
  out(`The previous key ${rotated.retired.keyId} stays trusted: its public key is in ${join(config.dataDir, TRUSTED_KEYS_FILE)}.`);
  return 0;
}
