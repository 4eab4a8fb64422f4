import type { Generated } from 'kysely';
import type { CreatedAt, UpdatedAt } from './enterprises.js';

export type RiskLevel = 'Low' | 'Medium' | 'High' | 'Very High';

export interface RiskAppetitesTable {
  id: Generated<string>;
  enterprise_id: string;
  legal_entity_id: string | null;
  business_unit_id: string | null;
  risk_level: RiskLevel;
  threshold_value: number;
  description: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  updated_by: string | null;
  /** One more at every change of the row (a trigger; for a BRA also of its scenarios, ratings and control links): the ETag's version. */
  row_version: Generated<number>;
}

export interface RiskAppetiteHistoryTable {
  id: Generated<string>;
  enterprise_id: string;
  risk_appetite_id: string;
  legal_entity_id: string | null;
  business_unit_id: string | null;
  previous_level: RiskLevel | null;
  new_level: RiskLevel | null;
  previous_threshold: number | null;
  new_threshold: number | null;
  changed_by: string | null;
  changed_at: CreatedAt;
  reason: string | null;
}

export interface GovernanceTables {
  risk_appetites: RiskAppetitesTable;
  risk_appetite_history: RiskAppetiteHistoryTable;
}
