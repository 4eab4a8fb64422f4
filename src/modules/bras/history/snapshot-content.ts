import type { BraDetailView, ControlView, DetailScenarioView, ScenarioView } from '../bras.schemas.js';
import { withAppetite } from '../answer/appetite-flags.js';

/**
 * Snapshots never change, but the get-BRA answer they copy has grown since the first ones were taken:
 * control links gained their scenario, scenarios their controls and control effectiveness, ratings their
 * justification. This reads any stored content as today's shape, filling what an older snapshot could not
 * have held with what it meant then (a BRA-wide link, no scenario controls, no justification). Pure.
 */
type StoredRating = Omit<NonNullable<ScenarioView['inherent_rating']>, 'justification'> & { justification?: string | null };
type StoredControl = Omit<ControlView, 'bra_risk_scenario_id'> & { bra_risk_scenario_id?: string | null };
type StoredScenario = Omit<
  DetailScenarioView,
  'controls' | 'control_effectiveness' | 'inherent_rating' | 'residual_rating' | 'previous_residual_rating' | 'applicable_threshold' | 'above_appetite'
> & {
  previous_residual_rating?: DetailScenarioView['previous_residual_rating'];
  controls?: StoredControl[];
  control_effectiveness?: DetailScenarioView['control_effectiveness'];
  inherent_rating: StoredRating | null;
  residual_rating: StoredRating | null;
  applicable_threshold?: number | null;
  above_appetite?: boolean | null;
};
type StoredSummary = Omit<BraDetailView['summary'], 'scenarios_above_appetite'> & { scenarios_above_appetite?: unknown };
export type StoredContent = Omit<BraDetailView, 'scenarios' | 'controls' | 'summary' | 'rolled_from_bra_id'> & {
  scenarios: StoredScenario[];
  controls: StoredControl[];
  summary: StoredSummary;
  rolled_from_bra_id?: string | null;
};

const control = (stored: StoredControl): ControlView => ({ ...stored, bra_risk_scenario_id: stored.bra_risk_scenario_id ?? null });
const rating = (stored: StoredRating | null) => (stored === null ? null : { ...stored, justification: stored.justification ?? null });

/**
 * The scenario flags and the summary's list of breaches are computed again under the threshold the snapshot
 * pinned (its methodology's appetite): the same values a newer snapshot stores, and the ones an older
 * snapshot, taken before they existed, would have stored. Without the methodology, the threshold a newer
 * snapshot's scenarios carry.
 */
export function currentSnapshotContent(stored: StoredContent, methodology?: { appetite: { threshold_value: number } | null }): BraDetailView {
  const pinned = methodology === undefined ? storedThreshold(stored) : (methodology.appetite?.threshold_value ?? null);
  return withAppetite(normalised(stored), pinned);
}

function storedThreshold(stored: StoredContent): number | null {
  return stored.scenarios.find((scenario) => typeof scenario.applicable_threshold === 'number')?.applicable_threshold ?? null;
}

function normalised(stored: StoredContent) {
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
