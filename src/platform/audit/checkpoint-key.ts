import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../../config.js';
import { keyIdOf, publicKeysFromPem, signingKeyFrom, type SigningKey } from './checkpoint-signature.js';

export const SIGNING_KEY_FILE = 'audit-signing-key.pem';
/** Public keys of earlier file keys, appended by `npm run keys -- rotate-audit`; trusted at every start. */
export const TRUSTED_KEYS_FILE = 'audit-trusted-keys.pem';

export interface CheckpointKeys {
  /** Signs new checkpoints. */
  signing: SigningKey;
  /** key_id → public key: the signing key and every earlier key whose checkpoints verify still checks. */
  trusted: ReadonlyMap<string, KeyObject>;
}

/**
 * The checkpoint keys, which the database never holds (D7.5). The signing key is AUDIT_SIGNING_KEY when
 * set; otherwise a file under DATA_DIR, generated at first need (mode 0600); a throw-away key in memory for
 * a database that is itself thrown away (memory://). Trusted besides it: AUDIT_TRUSTED_PUBLIC_KEYS and
 * DATA_DIR/audit-trusted-keys.pem. Loaded at first use, so that a service that never signs nor verifies
 * never creates the file; a rotation takes effect at the next start.
 */
export function checkpointKeySource(config: Config): () => CheckpointKeys {
  let keys: CheckpointKeys | undefined;
  return () => {
    keys ??= loadKeys(config);
    return keys;
  };
}

function loadKeys(config: Config): CheckpointKeys {
  const signing = loadSigningKey(config);
  const earlier = config.audit.trustedPublicKeysPem.map((pem) => createPublicKey(pem));
  if (!isThrowAway(config)) earlier.push(...readTrustedFile(config.dataDir));
  const trusted = new Map<string, KeyObject>(earlier.map((key) => [keyIdOf(key), key]));
  trusted.set(signing.keyId, signing.publicKey);
  return { signing, trusted };
}

function readTrustedFile(dataDir: string): KeyObject[] {
  const path = join(dataDir, TRUSTED_KEYS_FILE);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  try {
    return publicKeysFromPem(text);
  } catch (error) {
    throw new Error(`${path} ${(error as Error).message}`);
  }
}

/**
 * Whether signing now would use a key that exists already (AUDIT_SIGNING_KEY, the DATA_DIR file, or a
 * throw-away database's), rather than create the DATA_DIR file. Signing after an approval asks this: the
 * key file is created by the periodic signing or on demand, never as a side effect of an approval.
 */
export function hasCheckpointKey(config: Config): boolean {
  return config.audit.signingKeyPem !== null || isThrowAway(config) || existsSync(join(config.dataDir, SIGNING_KEY_FILE));
}

function loadSigningKey(config: Config): SigningKey {
  if (config.audit.signingKeyPem !== null) return signingKeyFrom(createPrivateKey(config.audit.signingKeyPem));
  if (isThrowAway(config)) return signingKeyFrom(generateKeyPairSync('ed25519').privateKey);
  const path = join(config.dataDir, SIGNING_KEY_FILE);
  const existing = readSigningKeyFile(path);
  if (existing !== null) return existing;
  mkdirSync(config.dataDir, { recursive: true });
  try {
    // 'wx': a second instance starting at the same moment keeps the first one's key.
    writeFileSync(path, newPrivateKeyPem(), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return readSigningKeyFile(path)!;
}

function readSigningKeyFile(path: string): SigningKey | null {
  try {
    return signingKeyFrom(createPrivateKey(readFileSync(path, 'utf8')));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * Start-up (startup-checks.ts): the key files DATA_DIR already holds must be readable keys, so that a damaged
 * file stops the start with its path rather than failing the first signature or verification.
 */
export function checkKeyFiles(config: Config): void {
  if (isThrowAway(config)) return;
  readTrustedFile(config.dataDir);
  if (config.audit.signingKeyPem !== null) return;
  const path = join(config.dataDir, SIGNING_KEY_FILE);
  try {
    readSigningKeyFile(path);
  } catch (error) {
    throw new Error(`${path} is not an Ed25519 private key in PEM (${(error as Error).message})`);
  }
}

const newPrivateKeyPem = () => generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

export function isThrowAway(config: Config): boolean {
  return (config.database.kind as string).endsWith('memory');
}

/**
 * Replaces DATA_DIR's signing key with a new one and appends the old public key to the trusted file first,
 * so that a crash between the two steps leaves the old key both signing and trusted, never lost. The new
 * key is written beside the old one (mode 0600) and renamed over it, so no reader sees half a key. Null
 * when there is no key file yet (the service creates one at first need).
 */
export function rotateSigningKeyFile(dataDir: string): { retired: SigningKey; current: SigningKey } | null {
  const path = join(dataDir, SIGNING_KEY_FILE);
  const retired = readSigningKeyFile(path);
  if (retired === null) return null;
  const trustedPath = join(dataDir, TRUSTED_KEYS_FILE);
  if (!readTrustedFile(dataDir).some((key) => keyIdOf(key) === retired.keyId)) {
    appendFileSync(trustedPath, `# key_id ${retired.keyId}, retired ${new Date().toISOString()}\n${retired.publicKeyPem}`);
  }
  const next = `${path}.next`;
  rmSync(next, { force: true }); // left by an interrupted rotation; 'wx' then creates it with mode 0600
  writeFileSync(next, newPrivateKeyPem(), { mode: 0o600, flag: 'wx' });
  renameSync(next, path);
  return { retired, current: readSigningKeyFile(path)! };
}
