import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { canonicalJson } from './hash-chain.js';

/**
 * What a checkpoint signs (D7.5): one chain's head. The message is a fixed prefix and the canonical JSON
 * of these fields, so an auditor can check a kept checkpoint with any Ed25519 tool and the public key.
 */
export interface CheckpointClaims {
  /** null: the platform trail. */
  enterprise_id: string | null;
  chain_seq: number;
  last_entry_id: string;
  last_hash: string;
  entry_count: number;
  signed_at: string;
}

/** The signed claims of a stored row (its time a Date, bigints possibly strings) or of a kept checkpoint. */
export const checkpointClaimsOf = (row: Omit<CheckpointClaims, 'signed_at'> & { signed_at: Date | string }): CheckpointClaims => ({
  enterprise_id: row.enterprise_id,
  chain_seq: Number(row.chain_seq),
  last_entry_id: row.last_entry_id,
  last_hash: row.last_hash,
  entry_count: Number(row.entry_count),
  signed_at: row.signed_at instanceof Date ? row.signed_at.toISOString() : row.signed_at,
});

const MESSAGE_PREFIX = 'risk-assurance audit checkpoint v1\n';

export function checkpointMessage(claims: CheckpointClaims): Buffer {
  const { enterprise_id, chain_seq, last_entry_id, last_hash, entry_count, signed_at } = claims;
  return Buffer.from(
    MESSAGE_PREFIX + canonicalJson({ enterprise_id, chain_seq, last_entry_id, last_hash, entry_count, signed_at }),
    'utf8',
  );
}

export interface SigningKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** The first 16 hex digits of SHA-256 over the public key (SPKI DER). */
  keyId: string;
  publicKeyPem: string;
}

export function signingKeyFrom(privateKey: KeyObject): SigningKey {
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error('the audit signing key must be an Ed25519 private key');
  const publicKey = createPublicKey(privateKey);
  return { privateKey, publicKey, keyId: keyIdOf(publicKey), publicKeyPem: publicKeyPemOf(publicKey) };
}

export function keyIdOf(publicKey: KeyObject): string {
  return createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('hex').slice(0, 16);
}

export const publicKeyPemOf = (publicKey: KeyObject): string => publicKey.export({ type: 'spki', format: 'pem' }).toString();

/** One Ed25519 public key from SPKI PEM; null for anything else (an auditor's input, a file's block). */
export function ed25519PublicKey(pem: string): KeyObject | null {
  try {
    const key = createPublicKey(pem);
    return key.asymmetricKeyType === 'ed25519' ? key : null;
  } catch {
    return null;
  }
}

const PEM_BLOCK = /-----BEGIN PUBLIC KEY-----[^-]*-----END PUBLIC KEY-----/g;

/**
 * The Ed25519 public keys of a file of concatenated PEM blocks (text around the blocks, such as comments,
 * is ignored). Throws when a block is not an Ed25519 public key: a trust list must not fail silently.
 */
export function publicKeysFromPem(text: string): KeyObject[] {
  const blocks = text.match(/-----BEGIN /g)?.length ?? 0;
  if ([...text.matchAll(PEM_BLOCK)].length !== blocks) throw new Error('holds a PEM block other than PUBLIC KEY');
  return [...text.matchAll(PEM_BLOCK)].map(([block], index) => {
    const key = ed25519PublicKey(block);
    if (key === null) throw new Error(`block ${index + 1} is not an Ed25519 public key`);
    return key;
  });
}

/** Base64 Ed25519 signature of the claims. */
export function signCheckpoint(key: SigningKey, claims: CheckpointClaims): string {
  return sign(null, checkpointMessage(claims), key.privateKey).toString('base64');
}

export function checkpointSignatureValid(publicKey: KeyObject, claims: CheckpointClaims, signature: string): boolean {
  try {
    return verify(null, checkpointMessage(claims), publicKey, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}
