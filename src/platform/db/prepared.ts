import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import { directPoolOf } from './engine.js';
import type { DB, Executor } from './schema.js';

/**
 * A fixed-shape query built and compiled by Kysely once, then run with each call's values: for the
 * reads on every request's path (/me, the enterprise list), where building and compiling the query
 * cost as much CPU as the round trip (bench/experiments/gate-ratio.mjs). The SQL is Kysely's own, byte for byte.
 *
 * `build` receives stand-ins for the arguments; each must reach the SQL as a plain bound value
 * (`where('id', '=', id)`, `limit(n)`), never shape it (no `if (filter)`: give each shape its own
 * statement). The first call checks that every argument was bound exactly once.
 *
 * On the database itself (not in a transaction) the statement goes to the pg pool directly, as a bare
 * pg handler sends it: Kysely's connection provider, driver and result handling wrap each query in half
 * a dozen promises. No Kysely plugin is configured, so the rows are the same; a transaction's queries
 * stay on its connection, through Kysely. Behind PgBouncer in transaction mode (DATABASE_POOLER=pgbouncer)
 * every statement takes Kysely's path: both send unnamed statements only (Parse, Bind, Execute and Sync in
 * one exchange), which a pooler in transaction mode passes through; no named, server-side prepared
 * statement is ever created, since PgBouncer before 1.21 cannot keep one across transactions.
 */
export function preparedQuery<A extends readonly unknown[], R>(
  build: (db: Kysely<DB>, ...args: A) => Compilable<R>,
): (executor: Executor, ...args: A) => Promise<R[]> {
  let compiled: { query: CompiledQuery<R>; slots: Array<{ arg: number } | { value: unknown }> } | undefined;
  return async (executor, ...args) => {
    if (compiled === undefined) compiled = compile(build, executor as Kysely<DB>, args.length);
    const parameters = compiled.slots.map((slot) => ('arg' in slot ? args[slot.arg] : slot.value));
    const pool = directPoolOf(executor);
    if (pool !== undefined) return (await pool.query(compiled.query.sql, parameters)).rows as R[];
    const result = await executor.executeQuery<R>({ ...compiled.query, parameters });
    return result.rows;
  };
}

function compile<A extends readonly unknown[], R>(build: (db: Kysely<DB>, ...args: A) => Compilable<R>, db: Kysely<DB>, arity: number) {
  const standIns = Array.from({ length: arity }, (_, i) => `\u0000prepared-argument-${i}\u0000`);
  const query = build(db, ...(standIns as unknown as A)).compile();
  const slots = query.parameters.map((value) => {
    const arg = standIns.indexOf(value as string);
    return arg === -1 ? { value } : { arg };
  });
  for (let i = 0; i < arity; i += 1) {
    if (slots.filter((slot) => 'arg' in slot && slot.arg === i).length !== 1) {
      throw new Error(`preparedQuery: argument ${i} must be bound exactly once in the SQL`);
    }
  }
  return { query, slots };
}
