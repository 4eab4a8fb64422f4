import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ChainAnchor } from '../../platform/audit/chain-verifier.js';
import { signCheckpoint, signingKeyFrom, type CheckpointClaims } from '../../platform/audit/checkpoint-signature.js';
import { AppError } from '../../platform/errors/app-error.js';
import { keptAnchor, withAnchor } from './kept-checkpoint.js';

const enterpriseId = '6f1c1f5e-0000-4000-8000-000000000001';
const service = signingKeyFrom(generateKeyPairSync('ed25519').privateKey);
const trusted = new Map([[service.keyId, service.publicKey]]);
const claims: CheckpointClaims = {
  enterprise_id: enterpriseId,
  chain_seq: 12,
  last_entry_id: '6f1c1f5e-0000-4000-8000-000000000002',
  last_hash: 'a'.repeat(64),
  entry_count: 12,
  signed_at: '2026-11-23T10:00:00.000Z',
};
const keptBy = (key = service, changes: Partial<CheckpointClaims> = {}) => ({
  ...claims,
  ...changes,
  algorithm: 'Ed25519' as const,
  key_id: key.keyId,
  public_key: key.publicKeyPem,
  signature: signCheckpoint(key, claims),
});

function refusal(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('not refused');
}

describe('a checkpoint an auditor kept (POST /audit/verify)', () => {
  it('is an anchor at its head when a trusted key of its key_id verifies it', () => {
    expect(keptAnchor(trusted, enterpriseId, { checkpoint: keptBy() })).toEqual({
      chain_seq: 12, last_entry_id: claims.last_entry_id, last_hash: claims.last_hash, trusted: true,
    });
  });

  it('is vouched for by the key the auditor pinned, never by the public_key it carries', () => {
    const forger = signingKeyFrom(generateKeyPairSync('ed25519').privateKey);
    const forged = keptBy(forger);
    expect(refusal(() => keptAnchor(trusted, enterpriseId, { checkpoint: forged }))).toMatchObject({
      code: 'VALIDATION_ERROR', details: { fields: [{ field: 'checkpoint.key_id' }] },
    });
    // Claiming the service's key_id does not help: the trusted key checks the signature.
    expect(refusal(() => keptAnchor(trusted, enterpriseId, { checkpoint: { ...forged, key_id: service.keyId } }))).toMatchObject({
      code: 'VALIDATION_ERROR', details: { fields: [{ field: 'checkpoint.signature' }] },
    });
    // A key the auditor pinned counts, even one the service does not know; a pinned key that did not sign it does not.
    expect(keptAnchor(new Map(), enterpriseId, { checkpoint: forged, public_key: forger.publicKeyPem }).trusted).toBe(true);
    expect(refusal(() => keptAnchor(trusted, enterpriseId, { checkpoint: keptBy(), public_key: forger.publicKeyPem }))).toMatchObject({
      code: 'VALIDATION_ERROR', message: expect.stringContaining('the public_key given'),
    });
    expect(refusal(() => keptAnchor(trusted, enterpriseId, { checkpoint: keptBy(), public_key: 'not a key' }))).toMatchObject({
      details: { fields: [{ field: 'public_key' }] },
    });
  });

  it('any altered claim is refused; another enterprise or the platform trail is 404 (D10.1)', () => {
    const altered = { ...keptBy(), chain_seq: 11 };
    expect(refusal(() => keptAnchor(trusted, enterpriseId, { checkpoint: altered })).code).toBe('VALIDATION_ERROR');
    const other = '6f1c1f5e-0000-4000-8000-000000000009';
    expect(refusal(() => keptAnchor(trusted, enterpriseId, { checkpoint: { ...keptBy(), enterprise_id: other } })).code).toBe('NOT_FOUND');
    expect(refusal(() => keptAnchor(trusted, enterpriseId, { checkpoint: { ...keptBy(), enterprise_id: null } })).code).toBe('NOT_FOUND');
  });
});

describe('the kept anchor among the stored ones', () => {
  const anchor = (chain_seq: number, trusted = true): ChainAnchor => ({ chain_seq, last_entry_id: `e${chain_seq}`, last_hash: `h${chain_seq}`, trusted });
  const stored = [anchor(3), anchor(7), anchor(9)];
  const between = async (from: number, to: number) => stored.filter((a) => a.chain_seq >= from && a.chain_seq <= to);

  it('is placed in chain order, only within the range asked for', async () => {
    const anchors = withAnchor(between, anchor(8));
    expect((await anchors(1, 20)).map((a) => a.chain_seq)).toEqual([3, 7, 8, 9]);
    expect((await anchors(9, 20)).map((a) => a.chain_seq)).toEqual([9]);
    expect((await withAnchor(between, anchor(12))(1, 20)).map((a) => a.chain_seq)).toEqual([3, 7, 9, 12]);
  });

  it('counts once when the service holds the same verified checkpoint, but keeps an altered stored copy to be reported', async () => {
    expect((await withAnchor(between, anchor(7))(1, 20)).map((a) => a.chain_seq)).toEqual([3, 7, 9]);
    const altered = async () => [anchor(7, false)];
    expect(await withAnchor(altered, anchor(7))(1, 20)).toEqual([anchor(7, false), anchor(7)]);
  });
});
