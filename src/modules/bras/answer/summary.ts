/**
 * D6.8 and D10.6, the maths of a BRA's summary. The counts come from one SQL statement
 * (detail.repository.ts, with the applicable appetite's threshold); this turns them into the summary.
 */
export interface SummaryCounts {
  /** Included scenario links. */
  included: number;
  /** Included links with a current inherent and a current residual rating. */
  assessed: number;
  /** Included links whose current residual risk_score exceeds the threshold (none without a residual rating). */
  above_appetite: number;
}

export interface BraSummary {
  total_scenarios: number;
  assessed_scenarios: number;
  risks_above_appetite: number;
  completion_percentage: number;
}

export function completionPercentage(assessed: number, total: number): number {
  if (total <= 0) return 0;
  return Math.round((100 * assessed) / total);
}

export function summarise(counts: SummaryCounts): BraSummary {
  return {
    total_scenarios: counts.included,
    assessed_scenarios: counts.assessed,
    risks_above_appetite: counts.above_appetite,
    completion_percentage: completionPercentage(counts.assessed, counts.included),
  };
}
