import type { UnitOfWork } from '../db/transaction.js';
import type { Expectation } from './resource-state.js';

/**
 * What a change takes besides its input: the state it expects (If-Match, where the client sent one) and the
 * unit of work to join (a request with an Idempotency-Key, whose stored answer commits with the change).
 * Both absent for callers outside HTTP (the demo) that expect nothing.
 */
export interface ChangeTerms {
  expected?: Expectation | null;
  work?: UnitOfWork | null;
}

export const NO_TERMS: ChangeTerms = {};
