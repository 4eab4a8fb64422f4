import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, UpdatedAt } from './enterprises.js';
import type { RiskLevel } from './governance.js';

export type BraStatus = 'draft' | 'in_progress' | 'under_review' | 'approved' | 'cancelled';

export interface BrasTable {
  id: Generated<string>;
  enterprise_id: string;
  name: string;
  description: string | null;
  legal_entity_id: string;
  business_unit_id: string | null;
  status: Generated<BraStatus>;
  period: string;
  assessor: string;
  start_date: string | null;
  completion_date: string | null;
  created_by: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  approved_by: string | null;
  approved_at: Date | null;
  final_comment: string | null;
  snapshot_id: string | null;
  cancelled_by: string | null;
  cancelled_at: Date | null;
  cancellation_reason: string | null;
  /** One more at every change of the row (a trigger; for a BRA also of its scenarios, ratings and control links): the ETag's version. */
  row_version: Generated<number>;
  /** The approved BRA this one was rolled forward from (the next period); null otherwise. */
  rolled_from_bra_id: Generated<string | null>;
}

/** A catalogue scenario added to a BRA (D6.4). */
export interface BraRiskScenariosTable {
  id: Generated<string>;
  enterprise_id: string;
  bra_id: string;
  risk_scenario_id: string;
  included: Generated<boolean>;
  /** After a roll-forward: the scenario's residual rating in the BRA it was rolled from (a reference); all four or none. */
  previous_residual_impact: Generated<number | null>;
  previous_residual_likelihood: Generated<number | null>;
  previous_residual_score: Generated<number | null>;
  previous_residual_level: Generated<RiskLevel | null>;
  created_by: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export type RatingType = 'inherent' | 'residual';

/** A rating of a scenario link (D6.5); superseded ones are kept with `superseded_at` set. */
export interface BraRatingsTable {
  id: Generated<string>;
  enterprise_id: string;
  bra_id: string;
  bra_risk_scenario_id: string;
  rating_type: RatingType;
  impact_score: number;
  likelihood_score: number;
  risk_score: number;
  risk_level: RiskLevel;
  justification: string | null;
  created_by: string | null;
  created_at: CreatedAt;
  superseded_at: Date | null;
}

export type SnapshotKind = 'created' | 'approved';

/** Immutable (triggers refuse UPDATE, DELETE, TRUNCATE). JSON columns are written as JSON text. */
export interface BraSnapshotsTable {
  id: Generated<string>;
  enterprise_id: string;
  bra_id: string;
  kind: SnapshotKind;
  content: ColumnType<unknown, string, never>;
  methodology: ColumnType<unknown, string, never>;
  /** The BRA's mitigation actions when it was taken; null in snapshots older than this column. */
  actions: ColumnType<unknown, string | null | undefined, never>;
  created_by: string | null;
  created_at: CreatedAt;
}

/**
 * A sub-control linked to a BRA (D6.6), BRA-wide or to one of its scenario links; read by the control
 * library's scoped counts (D7.1).
 */
export interface BraControlsTable {
  id: Generated<string>;
  enterprise_id: string;
  bra_id: string;
  sub_control_id: string;
  /** The scenario link it mitigates; null for a BRA-wide link. */
  bra_risk_scenario_id: string | null;
  created_by: string | null;
  created_at: CreatedAt;
}

export interface BrasTables {
  bras: BrasTable;
  bra_risk_scenarios: BraRiskScenariosTable;
  bra_ratings: BraRatingsTable;
  bra_snapshots: BraSnapshotsTable;
  bra_controls: BraControlsTable;
  bra_comments: BraCommentsTable;
  risk_acceptances: RiskAcceptancesTable;
  bra_residual_figures: BraResidualFiguresTable;
  register_entries: RegisterEntriesTable;
}

/**
 * The residual figures of an approved BRA (its current residual ratings of included scenarios), kept by the
 * database's triggers (migration 20261205100000); read by the dashboard's trend, never written by the service.
 */
export interface BraResidualFiguresTable {
  enterprise_id: string;
  bra_id: string;
  scenarios: number;
  score_sum: string;
  score_max: number | null;
}

/**
 * A register entry: an included scenario link of a BRA (any status) with its scenario's name and category and
 * its current inherent and residual ratings (null when unrated), kept by the database's triggers (migration
 * 20261206100000); read by the register and the dashboard, never written by the service.
 */
export interface RegisterEntriesTable {
  enterprise_id: string;
  scenario_link_id: string;
  bra_id: string;
  risk_scenario_id: string;
  scenario_name: string;
  category: string;
  inherent_impact: number | null;
  inherent_likelihood: number | null;
  inherent_score: number | null;
  inherent_level: RiskLevel | null;
  residual_impact: number | null;
  residual_likelihood: number | null;
  residual_score: number | null;
  residual_level: RiskLevel | null;
}

export type BraCommentVerdict = 'recommend_approval' | 'changes_requested';

/** A review comment on a BRA, optionally on one of its scenario links, with an optional verdict. Append-only (triggers). */
export interface BraCommentsTable {
  id: Generated<string>;
  enterprise_id: string;
  bra_id: string;
  bra_risk_scenario_id: string | null;
  author_id: string;
  body: string;
  verdict: BraCommentVerdict | null;
  created_at: CreatedAt;
}

/** How an acceptance stands: in force (`active`, while expires_on is not past), or how it ended. */
export type RiskAcceptanceStatus = 'active' | 'renewed' | 'revoked' | 'expired' | 'ended';

/** A formal acceptance of a scenario link above appetite (issue 48). Its terms never change; only its end is written. */
export interface RiskAcceptancesTable {
  id: Generated<string>;
  enterprise_id: string;
  bra_id: string;
  bra_risk_scenario_id: string;
  rationale: string;
  conditions: string | null;
  mitigation_action_id: string | null;
  /** date: 'YYYY-MM-DD' (pg's date parser is set to keep dates as text). */
  expires_on: ColumnType<string, string, never>;
  accepted_residual_score: number;
  accepted_threshold: number;
  accepted_by: string;
  accepted_at: CreatedAt;
  renews_id: string | null;
  status: Generated<RiskAcceptanceStatus>;
  ended_at: Date | null;
  ended_by: string | null;
  end_reason: string | null;
  row_version: Generated<number>;
}
