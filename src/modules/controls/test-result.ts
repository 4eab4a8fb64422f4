/**
 * The columns of a sub-control's test result, in the order the library file shows them: the sub-control's
 * current result and each recorded test's (TestResultColumns in the controls table file). One list for the
 * API's sub-control columns, the library file's columns and the changes a result may make.
 */
export const TEST_RESULT_COLUMNS = [
  'tod',
  'toe',
  'total_effectiveness',
  'testing_date',
  'tested_by',
  'evidence_notes',
  'tod_justification',
  'toe_justification',
] as const;
export type TestResultColumn = (typeof TEST_RESULT_COLUMNS)[number];
