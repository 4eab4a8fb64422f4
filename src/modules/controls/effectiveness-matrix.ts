import type { TestOfDesign, TestOfEffectiveness, TotalEffectiveness } from '../../platform/db/tables/controls.js';

/** Test of Design levels, best first: A (Excellent) to E (Inadequate) (2.3). */
export const TOD_LEVELS = ['A', 'B', 'C', 'D', 'E'] as const satisfies readonly TestOfDesign[];

/** Test of Effectiveness levels, best first: 1 (Highly Effective) to 5 (Ineffective) (2.3). */
export const TOE_LEVELS = ['1', '2', '3', '4', '5'] as const satisfies readonly TestOfEffectiveness[];

/** The effectiveness labels, best first (2.3). */
export const EFFECTIVENESS_LABELS = [
  'Highly Effective',
  'Effective',
  'Moderately Effective',
  'Less Effective',
  'Not Effective',
] as const satisfies readonly TotalEffectiveness[];

const HE = 'Highly Effective';
const EF = 'Effective';
const ME = 'Moderately Effective';
const LE = 'Less Effective';
const NE = 'Not Effective';

/**
 * The total effectiveness matrix of interface 3.5, as data: one row per ToD, one column per ToE. This is
 * the only place it is written; the service, the heat map and the tests read it from here.
 */
export const EFFECTIVENESS_MATRIX: Readonly<Record<TestOfDesign, Readonly<Record<TestOfEffectiveness, TotalEffectiveness>>>> = {
  A: { '1': HE, '2': HE, '3': EF, '4': ME, '5': LE },
  B: { '1': HE, '2': EF, '3': EF, '4': ME, '5': LE },
  C: { '1': EF, '2': EF, '3': ME, '4': LE, '5': NE },
  D: { '1': ME, '2': ME, '3': LE, '4': NE, '5': NE },
  E: { '1': LE, '2': LE, '3': NE, '4': NE, '5': NE },
};

/** The total effectiveness of a sub-control: null while ToD or ToE is unset (D7.1). */
export function totalEffectiveness(
  tod: TestOfDesign | null | undefined,
  toe: TestOfEffectiveness | null | undefined,
): TotalEffectiveness | null {
  if (tod == null || toe == null) return null;
  return EFFECTIVENESS_MATRIX[tod][toe];
}
