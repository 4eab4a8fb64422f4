import type { Generated } from 'kysely';
import type { CreatedAt } from './enterprises.js';

export interface RiskScenariosTable {
  id: Generated<string>;
  enterprise_id: string;
  name: string;
  category: string;
  description: string | null;
  created_at: CreatedAt;
}

export interface RiskScenariosTables {
  risk_scenarios: RiskScenariosTable;
}
