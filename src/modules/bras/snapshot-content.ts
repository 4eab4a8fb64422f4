import type { BraDetailView, ControlView, DetailScenarioView, ScenarioView } from './bras.schemas.js';

/**
 * Snapshots never change, but the get-BRA answer they copy has grown since the first ones were taken:
 * control links gained their scenario, scenarios their controls and control effectiveness, ratings their
 * justification. This reads any stored content as today's shape, filling what an older snapshot could not
 * have held with what it meant then (a BRA-wide link, no scenario controls, no justification). Pure.
 */
type StoredRating = Omit<NonNullable<ScenarioView['inherent_rating']>, 'justification'> & { justification?: string | null };
type StoredControl = Omit<ControlView, 'bra_risk_scenario_id'> & { bra_risk_scenario_id?: string | null };
type StoredScenario = Omit<DetailScenarioView, 'controls' | 'control_effectiveness' | 'inherent_rating' | 'residual_rating' | 'previous_residual_rating'> & {
  previous_residual_rating?: DetailScenarioView['previous_residual_rating'];
  controls?: StoredControl[];
  control_effectiveness?: DetailScenarioView['control_effectiveness'];
  inherent_rating: StoredRating | null;
  residual_rating: StoredRating | null;
};
export type StoredContent = Omit<BraDetailView, 'scenarios' | 'controls' | 'rolled_from_bra_id'> & {
  scenarios: StoredScenario[];
  controls: StoredControl[];
  rolled_from_bra_id?: string | null;
};

const control = (stored: StoredControl): ControlView => ({ ...stored, bra_risk_scenario_id: stored.bra_risk_scenario_id ?? null });
const rating = (stored: StoredRating | null) => (stored === null ? null : { ...stored, justification: stored.justification ?? null });

export function currentSnapshotContent(stored: StoredContent): BraDetailView {
  return {
    ...stored,
    rolled_from_bra_id: stored.rolled_from_bra_id ?? null,
    scenarios: stored.scenarios.map((scenario) => ({
      ...scenario,
      inherent_rating: rating(scenario.inherent_rating),
      residual_rating: rating(scenario.residual_rating),
      previous_residual_rating: scenario.previous_residual_rating ?? null,
      controls: (scenario.controls ?? []).map(control),
      control_effectiveness: scenario.control_effectiveness ?? null,
    })),
    controls: stored.controls.map(control),
  };
}
