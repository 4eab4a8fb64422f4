import type { Kysely, Transaction } from 'kysely';
import type { DB } from './schema.js';

/**
 * A unit of work: the open transaction plus hooks that run only once it has committed
 * (raising an alert, dropping a cache entry: side effects that must not happen on rollback).
 */
export interface UnitOfWork {
  trx: Transaction<DB>;
  onCommit(hook: () => void | Promise<void>): void;
}

/**
 * The one way domain code writes: the change and its audit entry share `work.trx`, so they commit
 * together or not at all. Hooks run after commit; a hook's failure is reported, never rethrown, because
 * the change itself has already been made.
 */
export async function inTransaction<T>(
  db: Kysely<DB>,
  fn: (work: UnitOfWork) => Promise<T>,
  onHookError: (error: unknown) => void = () => undefined,
): Promise<T> {
  const hooks: Array<() => void | Promise<void>> = [];
  const result = await db.transaction().execute((trx) => fn({ trx, onCommit: (hook) => hooks.push(hook) }));
  for (const hook of hooks) {
    try {
      await hook();
    } catch (error) {
      onHookError(error);
    }
  }
  return result;
}
