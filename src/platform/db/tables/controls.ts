import type { Generated } from 'kysely';
import type { CreatedAt, UpdatedAt } from './enterprises.js';

export type TestOfDesign = 'A' | 'B' | 'C' | 'D' | 'E';
export type TestOfEffectiveness = '1' | '2' | '3' | '4' | '5';
export type TotalEffectiveness = 'Highly Effective' | 'Effective' | 'Moderately Effective' | 'Less Effective' | 'Not Effective';

export interface KeyControlsTable {
  id: Generated<string>;
  enterprise_id: string;
  name: string;
  description: string | null;
  archived: Generated<boolean>;
  archived_at: Date | null;
  created_by: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface SubControlsTable {
  id: Generated<string>;
  enterprise_id: string;
  key_control_id: string;
  name: string;
  description: string | null;
  tod: TestOfDesign | null;
  toe: TestOfEffectiveness | null;
  total_effectiveness: TotalEffectiveness | null;
  testing_date: string | null;
  tested_by: string | null;
  evidence_notes: string | null;
  tod_justification: string | null;
  toe_justification: string | null;
  archived: Generated<boolean>;
  archived_at: Date | null;
  created_by: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

/** A key control linked to a catalogue scenario it mitigates. */
export interface KeyControlRiskScenariosTable {
  enterprise_id: string;
  key_control_id: string;
  risk_scenario_id: string;
  created_at: CreatedAt;
}

/** A control library loaded into an enterprise (the starter library: at most once). */
export interface ControlLibraryLoadsTable {
  enterprise_id: string;
  library: string;
  key_control_count: number;
  loaded_by: string | null;
  loaded_at: CreatedAt;
}

export interface ControlsTables {
  key_controls: KeyControlsTable;
  sub_controls: SubControlsTable;
  key_control_risk_scenarios: KeyControlRiskScenariosTable;
  control_library_loads: ControlLibraryLoadsTable;
}
