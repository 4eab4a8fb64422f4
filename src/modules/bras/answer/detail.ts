import type { Static } from 'typebox';
import type { Executor } from '../../../platform/db/schema.js';
import type { Methodology as MethodologySchema } from '../bras.schemas.js';
import { createRiskAppetiteService } from '../../governance/risk-appetite.service.js';
import { summarise } from './summary.js';
import { findBraWithNames } from '../bras.repository.js';
import { listControlRows, listScenarioRows, summaryCounts } from './detail.repository.js';
import { toBraView, toControlView, toScenarioView } from './detail.presenter.js';
import type { BraDetailView } from '../bras.schemas.js';
import { RISK_BANDS } from '../risk-rating.js';
import { controlsByScenario, weakestEffectiveness } from './scenario-controls.js';
import { withAppetite } from './appetite-flags.js';
import type { TotalEffectiveness } from '../../../platform/db/tables/controls.js';
import { utcToday } from '../../actions/overdue.js';
import { acceptancesInForceOfBra } from '../acceptance/acceptances.repository.js';
import { toAcceptanceView } from '../acceptance/acceptance.presenter.js';

/** The bands and the appetite record that applied, as a snapshot pins them. */
export type Methodology = Static<typeof MethodologySchema> & { appetite: NonNullable<Static<typeof MethodologySchema>['appetite']> };

/**
 * The methodology a BRA's summary is computed under: the D6.1 bands and its applicable appetite (D6.9),
 * read through the governance service bound to the caller's executor (its transaction, when given one).
 */
export async function methodologyOf(
  db: Executor,
  bra: { enterprise_id: string; legal_entity_id: string; business_unit_id: string | null },
): Promise<Methodology> {
  const record = await createRiskAppetiteService({ db }).applicableAppetite(bra.enterprise_id, bra.legal_entity_id, bra.business_unit_id);
  return {
    risk_bands: RISK_BANDS.map((band) => ({ ...band })),
    appetite: {
      id: record.id,
      risk_level: record.risk_level,
      threshold_value: record.threshold_value,
      legal_entity_id: record.legal_entity_id,
      business_unit_id: record.business_unit_id,
    },
  };
}

/**
 * The get-BRA data (2.1), each scenario with the controls linked to it and their weakest effectiveness, and
 * its risk acceptance in force (issue 48): five statements (the BRA, its scenarios, its controls, the summary
 * counts, the acceptances)
 * whatever the number of scenarios and controls, each scenario flagged against the threshold and the
 * summary listing those above it (appetite-flags.ts). Also what a snapshot stores.
 */
export async function loadBraDetail(db: Executor, enterpriseId: string, braId: string, threshold: number, now = new Date()): Promise<BraDetailView> {
  const [bra, scenarios, controls, counts, acceptances] = await Promise.all([
    findBraWithNames(db, enterpriseId, braId),
    listScenarioRows(db, enterpriseId, braId),
    listControlRows(db, enterpriseId, braId),
    summaryCounts(db, enterpriseId, braId, threshold),
    acceptancesInForceOfBra(db, enterpriseId, braId, utcToday(now)),
  ]);
  const acceptanceOf = new Map(acceptances.map((row) => [row.scenario_id, toAcceptanceView(row)]));
  if (bra === undefined) throw new Error(`BRA ${braId} vanished while it was being read`);
  const controlViews = controls.map(toControlView);
  const byScenario = controlsByScenario(controlViews);
  const detail = {
    ...toBraView(bra),
    scenarios: scenarios.map((row) => {
      const linked = byScenario.get(row.id) ?? [];
      return {
        ...toScenarioView(row),
        controls: linked,
        control_effectiveness: weakestEffectiveness(linked.map((c) => c.total_effectiveness as TotalEffectiveness | null)),
        acceptance: acceptanceOf.get(row.id) ?? null,
      };
    }),
    controls: controlViews,
    summary: summarise(counts),
  };
  return withAppetite(detail, threshold);
}
