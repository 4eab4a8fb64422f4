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
}

export interface RiskScenariosTables {
  risk_scenarios: RiskScenariosTable;
}
