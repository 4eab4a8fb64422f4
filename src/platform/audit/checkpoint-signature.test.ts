import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  checkpointSignatureValid,
  ed25519PublicKey,
  keyIdOf,
  publicKeysFromPem,
  signCheckpoint,
  signingKeyFrom,
  type CheckpointClaims,
} from './checkpoint-signature.js';

const claims: CheckpointClaims = {
  enterprise_id: '6f1c1f5e-0000-4000-8000-000000000001',
  chain_seq: 12,
  last_entry_id: '6f1c1f5e-0000-4000-8000-000000000002',
  last_hash: 'a'.repeat(64),
  entry_count: 12,
  signed_at: '2026-11-23T10:00:00.000Z',
};

describe('signed audit checkpoints (D7.5)', () => {
  const key = signingKeyFrom(generateKeyPairSync('ed25519').privateKey);

  it('a signature verifies with the public key over the same claims', () => {
    expect(checkpointSignatureValid(key.publicKey, claims, signCheckpoint(key, claims))).toBe(true);
  });

  it('any change of a claim breaks the signature (a recomputed chain cannot reuse it)', () => {
    const signature = signCheckpoint(key, claims);
    expect(checkpointSignatureValid(key.publicKey, { ...claims, last_hash: 'b'.repeat(64) }, signature)).toBe(false);
    expect(checkpointSignatureValid(key.publicKey, { ...claims, chain_seq: 13 }, signature)).toBe(false);
  });

  it('a signature of another key does not verify, and garbage is refused without throwing', () => {
    const other = signingKeyFrom(generateKeyPairSync('ed25519').privateKey);
    expect(checkpointSignatureValid(key.publicKey, claims, signCheckpoint(other, claims))).toBe(false);
    expect(checkpointSignatureValid(key.publicKey, claims, 'not base64 at all')).toBe(false);
  });

  it('the key id names the public key, and a non-Ed25519 key is refused', () => {
    expect(key.keyId).toMatch(/^[0-9a-f]{16}$/);
    expect(signingKeyFrom(key.privateKey).keyId).toBe(key.keyId);
    expect(() => signingKeyFrom(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey)).toThrow(/Ed25519/);
  });

  it('reads a trust file of concatenated PEM public keys, comments between them, and refuses any other block', () => {
    const other = signingKeyFrom(generateKeyPairSync('ed25519').privateKey);
    const file = `# key_id ${key.keyId}\n${key.publicKeyPem}\n# key_id ${other.keyId}\n${other.publicKeyPem}`;
    expect(publicKeysFromPem(file).map(keyIdOf)).toEqual([key.keyId, other.keyId]);
    expect(publicKeysFromPem('')).toEqual([]);
    const privatePem = key.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(() => publicKeysFromPem(`${key.publicKeyPem}${privatePem}`)).toThrow(/other than PUBLIC KEY/);
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect(() => publicKeysFromPem(`${key.publicKeyPem}${ec}`)).toThrow(/block 2 is not an Ed25519 public key/);
  });

  it('takes an Ed25519 public key from PEM, with or without its final newline, and nothing else', () => {
    expect(keyIdOf(ed25519PublicKey(key.publicKeyPem.trim())!)).toBe(key.keyId);
    expect(ed25519PublicKey('not a key')).toBeNull();
    expect(ed25519PublicKey(generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'pem' }).toString())).toBeNull();
  });
});
