import type { Transaction } from 'kysely';
import { recordChange } from '../../../platform/audit/record-change.js';
import type { Caller } from '../../../platform/auth/principal.js';
import type { DB } from '../../../platform/db/schema.js';
import type { BraRow } from '../bras.repository.js';
import { outgrowsAcceptance } from './acceptance-rules.js';
import { activeAcceptanceOf, endAcceptance } from './acceptances.repository.js';

/**
 * A new residual rating above the one accepted ends the scenario's active acceptance (issue 48), in the
 * rating's transaction, audited as the rater's change: the risk accepted is no longer the risk run.
 */
export async function endOutgrownAcceptance(
  trx: Transaction<DB>,
  caller: Caller,
  bra: BraRow,
  rating: { bra_risk_scenario_id: string; rating_type: string; risk_score: number },
): Promise<void> {
  if (rating.rating_type !== 'residual') return;
  const active = await activeAcceptanceOf(trx, bra.enterprise_id, rating.bra_risk_scenario_id);
  if (active === undefined || !outgrowsAcceptance(rating.risk_score, active.accepted_residual_score)) return;
  const reason = `A residual rating of ${rating.risk_score} is above the accepted ${active.accepted_residual_score}`;
  await endAcceptance(trx, bra.enterprise_id, active.id, { status: 'ended', ended_by: null, end_reason: reason });
  await recordChange(trx, caller, {
    enterpriseId: bra.enterprise_id,
    action: 'update',
    entityType: 'risk_acceptance',
    entityId: active.id,
    details: { bra_id: bra.id, bra_name: bra.name, status: { from: 'active', to: 'ended' }, reason },
  });
}
