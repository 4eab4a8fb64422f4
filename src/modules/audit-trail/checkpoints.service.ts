import { randomUUID } from 'node:crypto';
import type { Caller } from '../../platform/auth/principal.js';
import { recordChange } from '../../platform/audit/record-change.js';
import type { ChainAnchor } from '../../platform/audit/chain-verifier.js';
import type { Executor } from '../../platform/db/schema.js';
import { inTransaction, joinWork } from '../../platform/db/transaction.js';
import type { ChangeTerms } from '../../platform/versions/change-terms.js';
import { paginationInfo, pageRequest } from '../../platform/http/pagination.js';
import { requireAuditor } from './audit-trail.policy.js';
import type { CheckpointKeys } from '../../platform/audit/checkpoint-key.js';
import { checkpointClaimsOf, checkpointSignatureValid, signCheckpoint, type CheckpointClaims } from '../../platform/audit/checkpoint-signature.js';
import {
  chainsAheadOfCheckpoints,
  checkpointsBetween,
  countCheckpoints,
  findChainHead,
  insertCheckpoint,
  listCheckpoints,
  type CheckpointRow,
} from './checkpoints.repository.js';
import type { CheckpointView, VerifyCheckpointBody } from './audit-trail.schemas.js';
import { keptAnchor, withAnchor } from './kept-checkpoint.js';

const present = (row: CheckpointRow): CheckpointView => ({
  ...row,
  enterprise_id: row.enterprise_id as string,
  chain_seq: Number(row.chain_seq),
  entry_count: Number(row.entry_count),
});

/**
 * Signed checkpoints (D7.5): the service signs a chain's head with a key the database does not hold, so
 * that someone able to write the tables cannot rewrite history and recompute the hashes unnoticed.
 */
export function createCheckpointsService({ db, keys }: { db: Executor; keys: () => CheckpointKeys }) {
  /** Signs the chain's head as `db` sees it; null for a chain with no entry yet. */
  async function signHead(executor: Executor, enterpriseId: string | null, id: string = randomUUID()) {
    const head = await findChainHead(executor, enterpriseId);
    if (head === null) return null;
    const key = keys().signing;
    const claims: CheckpointClaims = {
      enterprise_id: enterpriseId,
      chain_seq: head.last_seq,
      last_entry_id: head.last_entry_id,
      last_hash: head.last_hash,
      // Nothing is ever deleted from a chain numbered from 1: the count is the last position.
      entry_count: head.last_seq,
      signed_at: new Date().toISOString(),
    };
    return insertCheckpoint(executor, {
      id,
      ...claims,
      algorithm: 'Ed25519',
      key_id: key.keyId,
      public_key: key.publicKeyPem,
      signature: signCheckpoint(key, claims),
    });
  }

  /**
   * The verifier's anchors: the stored checkpoints signed by a key this service trusts (its own, or an
   * earlier one kept after a rotation), each checked with the trusted key of its key_id, never with the
   * public key its row carries (whoever can write the table can write that too). Checkpoints of any other
   * key are left out: this service cannot vouch for them.
   */
  function anchorsOf(enterpriseId: string | null) {
    return async (from: number, to: number): Promise<ChainAnchor[]> => {
      const rows = await checkpointsBetween(db, enterpriseId, from, to);
      if (rows.length === 0) return [];
      const { trusted } = keys();
      return rows.flatMap((row) => {
        const key = trusted.get(row.key_id);
        if (key === undefined) return [];
        const valid = row.enterprise_id === enterpriseId && checkpointSignatureValid(key, checkpointClaimsOf(row), row.signature);
        return [{ chain_seq: Number(row.chain_seq), last_entry_id: row.last_entry_id, last_hash: row.last_hash, trusted: valid }];
      });
    };
  }

  return {
    /** On demand: the request's audit entry first, then the head that includes it, in one transaction. */
    async create(caller: Caller, terms: ChangeTerms): Promise<CheckpointView> {
      requireAuditor(caller);
      const enterpriseId = caller.enterpriseId;
      return inTransaction(joinWork(db, terms.work), async ({ trx }) => {
        const id = randomUUID();
        await recordChange(trx, caller, { action: 'create', entityType: 'audit_checkpoint', entityId: id, details: {} });
        const row = await signHead(trx, enterpriseId, id);
        return present(row!);
      });
    },

    async list(caller: Caller, query: { page?: number | undefined; page_size?: number | undefined }) {
      requireAuditor(caller);
      const request = pageRequest(query);
      const total = await countCheckpoints(db, caller.enterpriseId);
      const rows = request.offset < total ? await listCheckpoints(db, caller.enterpriseId, request.pageSize, request.offset) : [];
      return { data: rows.map(present), pagination: paginationInfo(request, total) };
    },

    /** The periodic job: every chain (the platform's too) whose head moved since its last checkpoint. */
    async signChainsAhead(): Promise<number> {
      let signed = 0;
      for (const enterpriseId of await chainsAheadOfCheckpoints(db)) {
        if ((await signHead(db, enterpriseId)) !== null) signed += 1;
      }
      return signed;
    },

    /** One chain's head, signed now (after an approval): false for a chain with no entry. */
    async signChain(enterpriseId: string): Promise<boolean> {
      return (await signHead(db, enterpriseId)) !== null;
    },

    anchorsOf,

    /** The stored anchors plus the checkpoint an auditor kept (refused unless a trusted or pinned key vouches for it). */
    anchorsWithKept(enterpriseId: string, body: VerifyCheckpointBody) {
      return withAnchor(anchorsOf(enterpriseId), keptAnchor(keys().trusted, enterpriseId, body));
    },
  };
}

export type CheckpointsService = ReturnType<typeof createCheckpointsService>;
