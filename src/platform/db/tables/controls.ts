import type { Generated, GeneratedAlways } from 'kysely';
import type { CreatedAt, UpdatedAt } from './enterprises.js';

export type TestOfDesign = 'A' | 'B' | 'C' | 'D' | 'E';
export type TestOfEffectiveness = '1' | '2' | '3' | '4' | '5';
export type TotalEffectiveness = 'Highly Effective' | 'Effective' | 'Moderately Effective' | 'Less Effective' | 'Not Effective';

/** A sub-control's test result: the sub-control's current one, and each recorded test's. */
interface TestResultColumns {
  tod: TestOfDesign | null;
  toe: TestOfEffectiveness | null;
  total_effectiveness: TotalEffectiveness | null;
  testing_date: string | null;
  tested_by: string | null;
  evidence_notes: string | null;
  tod_justification: string | null;
  toe_justification: string | null;
}

/** What key controls and sub-controls both are: named, archivable, versioned items of an enterprise's library. */
interface LibraryItemColumns {
  id: Generated<string>;
  enterprise_id: string;
  name: string;
  description: string | null;
  archived: Generated<boolean>;
  archived_at: Date | null;
  created_by: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  /** One more at every change of the row (a trigger; for a BRA also of its scenarios, ratings and control links): the ETag's version. */
  row_version: Generated<number>;
}

export interface KeyControlsTable extends LibraryItemColumns {}

/** How often a sub-control is tested (issue 49); its next test is due that long after its last. */
export const TESTING_FREQUENCIES = ['monthly', 'quarterly', 'semi_annual', 'annual'] as const;
export type TestingFrequency = (typeof TESTING_FREQUENCIES)[number];

export interface SubControlsTable extends LibraryItemColumns, TestResultColumns {
  key_control_id: string;
  testing_frequency: TestingFrequency | null;
  /**
   * 'YYYY-MM-DD', computed by the database: the last testing date plus the frequency, the creation day (UTC)
   * for a sub-control never tested; null without a frequency.
   */
  next_test_due: GeneratedAlways<string | null>;
}

/**
 * How a result was entered: `test`, a complete test (POST .../tests); `update`, a PATCH that changed tod,
 * toe or testing_date; `create`, a sub-control created with a result; `import`, a library import;
 * `baseline`, a result entered before test records existed.
 */
export type TestRecordSource = 'baseline' | 'create' | 'import' | 'test' | 'update';

/** One recorded test of a sub-control: the state it left, appended and never changed. */
export interface SubControlTestsTable extends TestResultColumns {
  id: Generated<string>;
  enterprise_id: string;
  sub_control_id: string;
  source: TestRecordSource;
  recorded_by: string | null;
  recorded_at: Generated<Date>;
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
  sub_control_tests: SubControlTestsTable;
  key_control_risk_scenarios: KeyControlRiskScenariosTable;
  control_library_loads: ControlLibraryLoadsTable;
}
