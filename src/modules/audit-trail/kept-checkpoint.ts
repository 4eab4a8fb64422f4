import type { KeyObject } from 'node:crypto';
import type { ChainAnchor } from '../../platform/audit/chain-verifier.js';
import { checkpointClaimsOf, checkpointSignatureValid, ed25519PublicKey } from '../../platform/audit/checkpoint-signature.js';
import { AppError, notFound } from '../../platform/errors/app-error.js';
import type { VerifyCheckpointBody } from './audit-trail.schemas.js';

const refused = (field: string, message: string) =>
  new AppError('VALIDATION_ERROR', `Checkpoint not verified: ${field} ${message}`, { fields: [{ field, message }] });

/**
 * The checkpoint an auditor kept, as an anchor the chain walk can trust. The key that vouches for it is the
 * one the auditor pinned, else the service's trusted key of its key_id; never the public_key it carries,
 * which anyone able to forge a checkpoint could set. Another enterprise's checkpoint (or the platform
 * trail's) is 404 before any key is looked at (D10.1: nothing is said about another enterprise's trail).
 */
export function keptAnchor(trusted: ReadonlyMap<string, KeyObject>, enterpriseId: string, body: VerifyCheckpointBody): ChainAnchor {
  const { checkpoint } = body;
  if (checkpoint.enterprise_id !== enterpriseId) throw notFound('Checkpoint');
  if (!checkpointSignatureValid(vouchingKey(trusted, body), checkpointClaimsOf(checkpoint), checkpoint.signature)) {
    const which = body.public_key !== undefined ? 'the public_key given' : `the trusted key ${checkpoint.key_id}`;
    throw refused('checkpoint.signature', `does not verify with ${which}: the checkpoint was altered or signed by another key`);
  }
  return { chain_seq: checkpoint.chain_seq, last_entry_id: checkpoint.last_entry_id, last_hash: checkpoint.last_hash, trusted: true };
}

function vouchingKey(trusted: ReadonlyMap<string, KeyObject>, body: VerifyCheckpointBody): KeyObject {
  if (body.public_key !== undefined) {
    const pinned = ed25519PublicKey(body.public_key);
    if (pinned === null) throw refused('public_key', 'must be an Ed25519 public key in SPKI PEM');
    return pinned;
  }
  const known = trusted.get(body.checkpoint.key_id);
  if (known === undefined) {
    throw refused('checkpoint.key_id', 'names a key this service does not trust; give the public key you trust as public_key');
  }
  return known;
}

/**
 * The stored anchors with the kept one among them, in chain order. A stored anchor that states the same
 * head and verified is the same checkpoint: it counts once.
 */
export function withAnchor(
  anchorsBetween: (from: number, to: number) => Promise<ChainAnchor[]>,
  kept: ChainAnchor,
): (from: number, to: number) => Promise<ChainAnchor[]> {
  const same = (anchor: ChainAnchor) =>
    anchor.trusted && anchor.chain_seq === kept.chain_seq && anchor.last_entry_id === kept.last_entry_id && anchor.last_hash === kept.last_hash;
  return async (from, to) => {
    const stored = (await anchorsBetween(from, to)).filter((anchor) => !same(anchor));
    if (kept.chain_seq < from || kept.chain_seq > to) return stored;
    const at = stored.findIndex((anchor) => anchor.chain_seq > kept.chain_seq);
    return at === -1 ? [...stored, kept] : [...stored.slice(0, at), kept, ...stored.slice(at)];
  };
}
