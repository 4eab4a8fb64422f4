import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../../config.js';
import { signingKeyFrom, type SigningKey } from './checkpoint-signature.js';

export const SIGNING_KEY_FILE = 'audit-signing-key.pem';

/**
 * The checkpoint signing key, which the database never holds (D7.5): AUDIT_SIGNING_KEY when set;
 * otherwise a file under DATA_DIR, generated at first need (mode 0600); a throw-away key in memory for a
 * database that is itself thrown away (memory://). Loaded at first use, so that a service that never
 * signs never creates the file.
 */
export function checkpointKeySource(config: Config): () => SigningKey {
  let key: SigningKey | undefined;
  return () => {
    key ??= loadKey(config);
    return key;
  };
}

function loadKey(config: Config): SigningKey {
  if (config.audit.signingKeyPem !== null) return signingKeyFrom(createPrivateKey(config.audit.signingKeyPem));
  if (isThrowAway(config)) return signingKeyFrom(generateKeyPairSync('ed25519').privateKey);
  const path = join(config.dataDir, SIGNING_KEY_FILE);
  try {
    return signingKeyFrom(createPrivateKey(readFileSync(path, 'utf8')));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(config.dataDir, { recursive: true });
  const pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  try {
    // 'wx': a second instance starting at the same moment keeps the first one's key.
    writeFileSync(path, pem, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return signingKeyFrom(createPrivateKey(readFileSync(path, 'utf8')));
}

function isThrowAway(config: Config): boolean {
  return (config.database.kind as string).endsWith('memory');
}
