import type { ControlledTransaction, Kysely, Transaction } from 'kysely';
import type { DB, Executor } from './schema.js';

type CommitHook = () => void | Promise<void>;

/**
 * A unit of work: the open transaction plus hooks that run only once it has committed
 * (raising an alert, dropping a cache entry: side effects that must not happen on rollback).
 */
export interface UnitOfWork {
  trx: Transaction<DB>;
  onCommit(hook: CommitHook): void;
}

/** Reports an on-commit hook that failed: the change has committed, so it is logged and alerted, never rethrown. */
export type CommitHookFailure = (error: unknown) => void;

// The open units of work by transaction, so that a service handed a caller's transaction joins it (its
// hooks then wait for the caller's commit) instead of opening a second one.
const openUnits = new WeakMap<Transaction<DB>, UnitOfWork>();
// The database each open unit of work belongs to (afterCommit hands it to its hook).
const unitRoots = new WeakMap<Transaction<DB>, Kysely<DB>>();
// Who hears of failing hooks, per database (set once by the app: log and `system` alert).
const failureReporters = new WeakMap<Kysely<DB>, CommitHookFailure>();

export function reportCommitHookFailures(db: Kysely<DB>, report: CommitHookFailure): void {
  failureReporters.set(db, report);
}

/**
 * The one way domain code writes: the change and its audit entry share `work.trx`, so they commit
 * together or not at all. Given the database, it opens a transaction and runs the hooks after commit.
 * Given a transaction (a service bound to its caller's work), it joins it: one request's work across
 * modules commits or rolls back as one, and the hooks run after the outermost commit.
 */
export async function inTransaction<T>(db: Executor, fn: (work: UnitOfWork) => Promise<T>): Promise<T> {
  if (db.isTransaction) {
    const trx = db as Transaction<DB>;
    const outer = openUnits.get(trx);
    if (outer === undefined) throw new Error('inTransaction was given a transaction it did not open');
    return fn(outer);
  }
  const root = db as Kysely<DB>;
  const hooks: CommitHook[] = [];
  const result = await root.transaction().execute((trx) => {
    const work: UnitOfWork = { trx, onCommit: (hook) => hooks.push(hook) };
    openUnits.set(trx, work);
    unitRoots.set(trx, root);
    return fn(work);
  });
  await runCommitHooks(root, hooks);
  return result;
}

async function runCommitHooks(root: Kysely<DB>, hooks: readonly CommitHook[]): Promise<void> {
  for (const hook of hooks) {
    try {
      await hook();
    } catch (error) {
      const report = failureReporters.get(root);
      if (report !== undefined) report(error);
      else process.stderr.write(`on-commit hook failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    }
  }
}

/**
 * A unit of work that outlives one function: the platform opens it before a handler and ends it once the
 * answer is known (an Idempotency-Key request stores its answer in the change's transaction). Services join
 * it through `joinWork`; its commit hooks run after `commit`.
 */
export interface RequestWork {
  work: UnitOfWork;
  commit(): Promise<void>;
  rollback(): Promise<void>;
}

export async function openRequestWork(root: Kysely<DB>): Promise<RequestWork> {
  const trx: ControlledTransaction<DB> = await root.startTransaction().execute();
  const hooks: CommitHook[] = [];
  const work: UnitOfWork = { trx, onCommit: (hook) => hooks.push(hook) };
  openUnits.set(trx, work);
  unitRoots.set(trx, root);
  return {
    work,
    async commit() {
      await trx.commit().execute();
      await runCommitHooks(root, hooks);
    },
    async rollback() {
      await trx.rollback().execute();
    },
  };
}

/**
 * The executor a service's change runs on: the unit of work it was handed (a request's, held open by an
 * Idempotency-Key, so the change and its stored answer commit together); else the service's own.
 */
export function joinWork(db: Executor, work: UnitOfWork | null | undefined): Executor {
  if (db.isTransaction || work === undefined || work === null) return db;
  return work.trx;
}

/**
 * Runs `hook` with the database once what `db` wrote has committed: after the commit of its unit of work
 * (a transaction opened here), at once for the database itself (its statements commit as they run). A
 * transaction opened elsewhere has no hooks: the hook is not run, and periodic work picks the change up.
 */
export function afterCommit(db: Executor, hook: (root: Kysely<DB>) => void): void {
  if (!db.isTransaction) {
    hook(db as Kysely<DB>);
    return;
  }
  const trx = db as Transaction<DB>;
  const work = openUnits.get(trx);
  const root = unitRoots.get(trx);
  if (work !== undefined && root !== undefined) work.onCommit(() => hook(root));
}
