import type { Generated } from 'kysely';
import type { CreatedAt, UpdatedAt } from './enterprises.js';

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
}

/** A catalogue scenario added to a BRA (D6.4). */
export interface BraRiskScenariosTable {
  id: Generated<string>;
  enterprise_id: string;
  bra_id: string;
  risk_scenario_id: string;
  included: Generated<boolean>;
  created_by: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface BrasTables {
  bras: BrasTable;
  bra_risk_scenarios: BraRiskScenariosTable;
}
