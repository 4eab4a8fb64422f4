import type { RiskLevel } from '../../platform/db/tables/governance.js';

/**
 * D6.1: impact and likelihood are integers 1 to 5, the score is their product (1 to 25) and the level is
 * its band. The bands are data so that snapshots can pin the methodology they were computed under; the
 * bra_ratings_level_check constraint states the same bands in the database.
 */
export const RISK_BANDS: ReadonlyArray<{ level: RiskLevel; min: number; max: number }> = [
  { level: 'Low', min: 1, max: 4 },
  { level: 'Medium', min: 5, max: 9 },
  { level: 'High', min: 10, max: 15 },
  { level: 'Very High', min: 16, max: 25 },
];

export const SCORE_MIN = 1;
export const SCORE_MAX = 5;

export interface RiskRating {
  impact_score: number;
  likelihood_score: number;
  risk_score: number;
  risk_level: RiskLevel;
}

export function riskLevelOf(riskScore: number): RiskLevel {
  const band = RISK_BANDS.find((b) => riskScore >= b.min && riskScore <= b.max);
  if (band === undefined) throw new RangeError(`risk score ${riskScore} is outside 1 to 25`);
  return band.level;
}

export function rateRisk(impactScore: number, likelihoodScore: number): RiskRating {
  for (const [name, value] of [
    ['impact_score', impactScore],
    ['likelihood_score', likelihoodScore],
  ] as const) {
    if (!Number.isInteger(value) || value < SCORE_MIN || value > SCORE_MAX) {
      throw new RangeError(`${name} must be an integer from ${SCORE_MIN} to ${SCORE_MAX}`);
    }
  }
  const riskScore = impactScore * likelihoodScore;
  return { impact_score: impactScore, likelihood_score: likelihoodScore, risk_score: riskScore, risk_level: riskLevelOf(riskScore) };
}
