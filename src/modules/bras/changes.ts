import type { Transaction } from 'kysely';
import type { AuditAction } from '../../platform/audit/audit-events.js';
import { recordChange } from '../../platform/audit/record-change.js';
import type { Caller } from '../../platform/auth/principal.js';
import type { DB } from '../../platform/db/schema.js';
import type { BraStatus } from '../../platform/db/tables/bras.js';
import type { DomainEvent } from '../../platform/events/event-types.js';
import { emitEvents } from '../../platform/events/outbox.js';
import { updateBra, type BraRow } from './bras.repository.js';
import { BRA_MOVES, hasStatus } from './bras.lifecycle.js';

/**
 * A change of a BRA as the trail records it (D10.3): an entry on the `bra` entity named after it, in the
 * change's transaction. Scenario and control links are recorded this way too, as `update`s of their BRA;
 * the moves (approve, cancel) under their own action.
 */
export async function recordBraChange(
  trx: Transaction<DB>,
  caller: Caller,
  bra: Pick<BraRow, 'id' | 'enterprise_id' | 'name'>,
  details: Record<string, unknown>,
  action: Extract<AuditAction, 'create' | 'update' | 'approve' | 'cancel'> = 'update',
): Promise<void> {
  await recordChange(trx, caller, {
    enterpriseId: bra.enterprise_id,
    action,
    entityType: 'bra',
    entityId: bra.id,
    details: { name: bra.name, ...details },
  });
}

/** The trail's details of a scenario link added to a BRA, alone or among several at once. */
export const scenarioAdded = (link: { id: string; risk_scenario_id: string; included: boolean }) => ({
  change: 'scenario_added',
  bra_risk_scenario_id: link.id,
  risk_scenario_id: link.risk_scenario_id,
  included: link.included,
});

/**
 * Announces a move of a BRA (webhooks' `bra.status_changed`), in the move's transaction, with the move's own
 * event after it when it has one (`bra.approved`, `bra.cancelled`): one outbox INSERT either way.
 */
export async function announceBraMove(
  trx: Transaction<DB>,
  bra: Pick<BraRow, 'id' | 'enterprise_id' | 'name'>,
  from: BraStatus,
  to: BraStatus,
  outcome?: { type: 'bra.approved' | 'bra.cancelled'; data: Record<string, unknown> },
): Promise<void> {
  const ids = { bra_id: bra.id, name: bra.name };
  const events: DomainEvent[] = [{ enterpriseId: bra.enterprise_id, type: 'bra.status_changed', data: { ...ids, from, to } }];
  if (outcome !== undefined) events.push({ enterpriseId: bra.enterprise_id, type: outcome.type, data: { ...ids, ...outcome.data } });
  await emitEvents(trx, events);
}

/**
 * A content change (scenario, rating, control link) touches the BRA; a draft starts by itself (the
 * lifecycle's `start`, D6.7: to in_progress), audited as an update of the BRA in the same transaction.
 */
export async function touchBra(trx: Transaction<DB>, caller: Caller, bra: BraRow, cause: string): Promise<BraRow> {
  if (!hasStatus(bra, BRA_MOVES.start.from)) return updateBra(trx, bra.enterprise_id, bra.id, {});
  const moved = await updateBra(trx, bra.enterprise_id, bra.id, { status: BRA_MOVES.start.to });
  await recordBraChange(trx, caller, bra, { status: { from: bra.status, to: moved.status }, cause });
  await announceBraMove(trx, bra, bra.status, moved.status);
  return moved;
}
