import type { RegisterRow } from './api';

/**
 * What a register row asks a risk manager to look at, beyond the appetite the service judges: a scenario not
 * yet rated (no residual rating: it cannot be "within" anything), and a residual rating above the inherent
 * one (controls that make a risk worse are a rating error or a finding). Display only: no rule of the service.
 */
export interface RowFlags {
  unrated: boolean;
  residualAboveInherent: boolean;
}

export function rowFlags(row: Pick<RegisterRow, 'inherent_rating' | 'residual_rating'>): RowFlags {
  const inherent = row.inherent_rating?.risk_score;
  const residual = row.residual_rating?.risk_score;
  return {
    unrated: residual === undefined,
    residualAboveInherent: inherent !== undefined && residual !== undefined && residual > inherent,
  };
}
