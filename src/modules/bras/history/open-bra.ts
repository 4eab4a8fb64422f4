import type { Transaction } from 'kysely';
import type { Caller } from '../../../platform/auth/principal.js';
import type { DB } from '../../../platform/db/schema.js';
import { emitEvent } from '../../../platform/events/outbox.js';
import { invalidReference } from '../../../platform/errors/app-error.js';
import { findBusinessUnit, findLegalEntity } from '../../legal-entities/legal-entities.repository.js';
import { recordBraChange } from '../changes.js';
import { takeSnapshot } from './snapshots.service.js';
import { OPENING_STATUS } from '../bras.lifecycle.js';
import { requireBraAuthor, requireBraAuthorIn } from '../bras.policy.js';
import { insertBra, type NewBra } from '../bras.repository.js';
import type { BraDetailView } from '../bras.schemas.js';

/** A new BRA: its place, its fields and, when it is a roll-forward, the approved BRA it continues. */
export type Opening = Omit<NewBra, 'created_by' | 'rolled_from_bra_id'> & { rolledFrom?: { braId: string; snapshotId: string | null } };

/** What a roll-forward puts in the new BRA before its first snapshot: `changes`, each audited as an update of the BRA (D10.3). */
export interface Filling<T> {
  changes: Record<string, unknown>[];
  filled: T;
}

/**
 * The place a new BRA takes: its legal entity, and its business unit when it has one, both of the enterprise
 * and not archived (400 INVALID_REFERENCE naming the field). Archived entities and units stay on the BRAs that
 * have them, but a new BRA, created or rolled forward, cannot take them (docs/decisions.md).
 */
async function requireOpenPlace(trx: Transaction<DB>, enterpriseId: string, opening: Opening): Promise<void> {
  const entity = await findLegalEntity(trx, enterpriseId, opening.legal_entity_id);
  if (entity === undefined || entity.archived_at !== null) throw invalidReference('legal_entity_id', 'an active legal entity');
  if (opening.business_unit_id === null) return;
  const unit = await findBusinessUnit(trx, enterpriseId, opening.business_unit_id);
  if (unit === undefined || unit.legal_entity_id !== opening.legal_entity_id || unit.archived_at !== null) {
    throw invalidReference('business_unit_id', 'an active business unit of that legal entity');
  }
}

/**
 * Opens a BRA, the one way POST /bras and a roll-forward both take, in the caller's transaction: whether the
 * caller authors BRAs (403), the place (400), whether they may author one there (403), the row, what `fill` copies into it, its `created`
 * snapshot, the audit entries (the BRA's `create`, then one `update` per filled change) and `bra.created`.
 */
export async function openBra<T = undefined>(
  trx: Transaction<DB>,
  caller: Caller,
  opening: Opening,
  fill?: (braId: string) => Promise<Filling<T>>,
): Promise<{ id: string; content: BraDetailView; filled: T | undefined }> {
  requireBraAuthor(caller);
  const enterpriseId = caller.enterpriseId;
  const { rolledFrom, ...fields } = opening;
  await requireOpenPlace(trx, enterpriseId, opening);
  requireBraAuthorIn(caller, opening);
  const { id } = await insertBra(trx, enterpriseId, {
    ...fields,
    created_by: caller.userId,
    ...(rolledFrom === undefined ? {} : { rolled_from_bra_id: rolledFrom.braId }),
  });
  const filling = fill === undefined ? undefined : await fill(id);
  const snapshot = await takeSnapshot(trx, { enterpriseId, braId: id, takenBy: caller.userId }, 'created');
  const bra = { id, enterprise_id: enterpriseId, name: opening.name };
  const rolled = rolledFrom === undefined ? {} : { rolled_from_bra_id: rolledFrom.braId };
  await recordBraChange(
    trx,
    caller,
    bra,
    {
      legal_entity_id: opening.legal_entity_id,
      business_unit_id: opening.business_unit_id,
      period: opening.period,
      assessor: opening.assessor,
      snapshot_id: snapshot.id,
      ...(rolledFrom === undefined ? {} : { ...rolled, rolled_from_snapshot_id: rolledFrom.snapshotId }),
    },
    'create',
  );
  for (const change of filling?.changes ?? []) await recordBraChange(trx, caller, bra, change);
  await emitEvent(trx, {
    enterpriseId,
    type: 'bra.created',
    data: { bra_id: id, name: opening.name, legal_entity_id: opening.legal_entity_id, business_unit_id: opening.business_unit_id, status: OPENING_STATUS, ...rolled },
  });
  return { id, content: snapshot.content, filled: filling?.filled };
}
