import type { Transaction } from 'kysely';
import type { DB } from '../../../platform/db/schema.js';
import { emitEvent } from '../../../platform/events/outbox.js';
import { listScenarioRows } from '../answer/detail.repository.js';
import { methodologyOf } from '../answer/detail.js';
import { exceedsAppetite } from '../../governance/appetite-rules.js';
import type { BraRow } from '../bras.repository.js';

/**
 * A crossing: the residual score goes above the threshold from at or below it (or from no residual
 * rating). A new rating that keeps a scenario above its appetite is no new crossing, so the event is
 * announced once per scenario and crossing. Pure.
 */
export function crossesAppetite(previousScore: number | null, score: number, threshold: number): boolean {
  return exceedsAppetite(score, threshold) && (previousScore === null || !exceedsAppetite(previousScore, threshold));
}

/**
 * Announces `risk.above_appetite` when a residual rating of an included scenario takes it above the BRA's
 * applicable appetite (D6.9), in the rating's transaction. Only editable (so live) BRAs take ratings.
 */
export async function announceResidualCrossing(
  trx: Transaction<DB>,
  bra: BraRow,
  rating: { bra_risk_scenario_id: string; rating_type: string; risk_score: number; risk_level: string },
  previousScore: number | null,
): Promise<void> {
  if (rating.rating_type !== 'residual') return;
  const { appetite } = await methodologyOf(trx, bra);
  if (!crossesAppetite(previousScore, rating.risk_score, appetite.threshold_value)) return;
  const [link] = await listScenarioRows(trx, bra.enterprise_id, bra.id, rating.bra_risk_scenario_id);
  if (link === undefined || !link.included) return;
  await emitEvent(trx, {
    enterpriseId: bra.enterprise_id,
    type: 'risk.above_appetite',
    data: {
      bra_id: bra.id,
      bra_name: bra.name,
      bra_risk_scenario_id: link.id,
      risk_scenario_id: link.risk_scenario_id,
      risk_scenario_name: link.name,
      risk_score: rating.risk_score,
      risk_level: rating.risk_level,
      risk_appetite_id: appetite.id,
      threshold_value: appetite.threshold_value,
      cause: 'residual_rating',
    },
  });
}
