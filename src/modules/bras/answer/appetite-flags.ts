import { exceedsAppetite } from '../../governance/appetite-rules.js';

/**
 * Which scenarios of a BRA are above its appetite, by name (issue 35): each scenario's applicable threshold
 * and flag, and the summary's list of the included ones above it, highest residual score first. Pure: the
 * get-BRA, a snapshot's content and the breaches under today's appetite all come from here, so they agree
 * with `risks_above_appetite` (included scenarios whose residual score is strictly above the threshold).
 */

export interface AppetiteBreach {
  /** The scenario link. */
  id: string;
  risk_scenario_id: string;
  name: string;
  residual_score: number;
  threshold: number;
}

interface RatedScenario {
  id: string;
  risk_scenario_id: string;
  name: string;
  included: boolean;
  residual_rating: { risk_score: number } | null;
}

/**
 * The flag of one scenario: null while it has no residual rating or is excluded (it is not assessed
 * against the appetite), else whether its residual score exceeds the threshold. No threshold (an old
 * snapshot without an appetite) exceeds nothing, as the summary's count has always done.
 */
export function aboveAppetite(scenario: RatedScenario, threshold: number | null): boolean | null {
  if (!scenario.included || scenario.residual_rating === null) return null;
  return threshold !== null && exceedsAppetite(scenario.residual_rating.risk_score, threshold);
}

/** The breaches under a threshold: included scenarios above it, highest residual score first, then by name and id. */
export function appetiteBreaches(scenarios: readonly RatedScenario[], threshold: number | null): AppetiteBreach[] {
  if (threshold === null) return [];
  return scenarios
    .filter((scenario) => aboveAppetite(scenario, threshold) === true)
    .map((scenario) => ({
      id: scenario.id,
      risk_scenario_id: scenario.risk_scenario_id,
      name: scenario.name,
      residual_score: scenario.residual_rating!.risk_score,
      threshold,
    }))
    .sort((a, b) => b.residual_score - a.residual_score || a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}

type Flagged<D extends { scenarios: RatedScenario[]; summary: object }> = Omit<D, 'scenarios' | 'summary'> & {
  scenarios: (D['scenarios'][number] & { applicable_threshold: number | null; above_appetite: boolean | null })[];
  summary: D['summary'] & { scenarios_above_appetite: AppetiteBreach[] };
};

/** A BRA's data with each scenario flagged and the summary's list of breaches, under one threshold. */
export function withAppetite<D extends { scenarios: RatedScenario[]; summary: object }>(detail: D, threshold: number | null): Flagged<D> {
  return {
    ...detail,
    scenarios: detail.scenarios.map((scenario) => ({
      ...scenario,
      applicable_threshold: threshold,
      above_appetite: aboveAppetite(scenario, threshold),
    })),
    summary: { ...detail.summary, scenarios_above_appetite: appetiteBreaches(detail.scenarios, threshold) },
  };
}
