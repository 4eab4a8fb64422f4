import type { Generated } from 'kysely';
import type { CreatedAt, UpdatedAt } from './enterprises.js';

export interface RiskScenariosTable {
  id: Generated<string>;
  enterprise_id: string;
  name: string;
  category: string;
  description: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  archived_at: Date | null;
  archived_by: string | null;
  /** One more at every change of the row (a trigger): the ETag's version. */
  row_version: Generated<number>;
}

export interface RiskScenariosTables {
  risk_scenarios: RiskScenariosTable;
}
