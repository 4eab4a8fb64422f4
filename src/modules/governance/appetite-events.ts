import type { Transaction } from 'kysely';
import type { DB } from '../../platform/db/schema.js';
import { emitEvent } from '../../platform/events/outbox.js';
import { scenariosAboveAppetite } from './appetite-crossings.repository.js';
import type { AppetiteScope } from './risk-appetite.repository.js';

interface AppetiteLevel {
  risk_level: string;
  threshold_value: number;
}

/**
 * The events of an appetite change, in its transaction: `risk_appetite.changed`, and `risk.above_appetite`
 * for each included scenario of a live BRA that the change took above its applicable appetite (above
 * after, not before: once per scenario and crossing). `aboveBefore` is read before the change.
 */
export async function announceAppetiteChange(
  trx: Transaction<DB>,
  enterpriseId: string,
  change: { id: string; scope: AppetiteScope; previous: AppetiteLevel | null; next: AppetiteLevel | null },
  aboveBefore: ReadonlySet<string>,
): Promise<void> {
  await emitEvent(trx, {
    enterpriseId,
    type: 'risk_appetite.changed',
    data: {
      risk_appetite_id: change.id,
      legal_entity_id: change.scope.legalEntityId,
      business_unit_id: change.scope.businessUnitId,
      previous: change.previous,
      new: change.next,
    },
  });
  for (const row of await scenariosAboveAppetite(trx, enterpriseId, change.scope)) {
    if (aboveBefore.has(row.bra_risk_scenario_id)) continue;
    await emitEvent(trx, { enterpriseId, type: 'risk.above_appetite', data: { ...row, cause: 'risk_appetite_change' } });
  }
}

/** The scenarios above appetite under a scope now: what `announceAppetiteChange` compares with. */
export async function aboveAppetiteNow(trx: Transaction<DB>, enterpriseId: string, scope: AppetiteScope): Promise<Set<string>> {
  return new Set((await scenariosAboveAppetite(trx, enterpriseId, scope)).map((row) => row.bra_risk_scenario_id));
}
