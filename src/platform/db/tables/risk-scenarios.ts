import type { Generated } from 'kysely';
import type { ArchivedByColumns } from './enterprises.js';

export interface RiskScenariosTable extends ArchivedByColumns {
  id: Generated<string>;
  enterprise_id: string;
  name: string;
  category: string;
  description: string | null;
}

export interface RiskScenariosTables {
  risk_scenarios: RiskScenariosTable;
}
