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
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return {
    privateKey,
    publicKey,
    keyId: createHash('sha256').update(der).digest('hex').slice(0, 16),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
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
