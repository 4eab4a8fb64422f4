import { afterAll, describe, expect, it, vi } from 'vitest';
import { directPoolOf, openDatabase, poolOf } from '../../src/platform/db/engine.js';
import { preparedQuery } from '../../src/platform/db/prepared.js';
import { createTestContext } from '../support/app.js';
import { createEnterprise } from '../support/factories.js';

/**
 * DATABASE_POOLER=pgbouncer (docs/operations.md, PgBouncer): every statement takes Kysely's path, the hot
 * reads of prepared.ts included, which otherwise go to the pg pool directly. The service behind a real
 * PgBouncer in transaction mode: test/cluster (npm run test:cluster).
 */
describe('DATABASE_POOLER=pgbouncer', async () => {
  const ctx = await createTestContext();
  const enterprise = await createEnterprise(ctx, { name: 'Pooled' });
  const behind = await openDatabase({ kind: 'postgres', url: ctx.database.url }, { poolSize: 2, pooler: 'pgbouncer' });
  const direct = await openDatabase({ kind: 'postgres', url: ctx.database.url }, { poolSize: 2 });
  afterAll(async () => {
    await behind.close();
    await direct.close();
  });
  const named = preparedQuery((db, id: string) => db.selectFrom('enterprises').select('name').where('id', '=', id));

  it('keeps prepared.ts off the pool behind PgBouncer, and on it otherwise; both answer the same', async () => {
    expect(directPoolOf(behind.db)).toBeUndefined();
    expect(directPoolOf(direct.db)).toBe(poolOf(direct.db));
    const query = vi.spyOn(poolOf(behind.db)!, 'query');
    try {
      expect(await named(behind.db, enterprise.id)).toEqual([{ name: 'Pooled' }]);
      expect(query).not.toHaveBeenCalled();
    } finally {
      query.mockRestore();
    }
    expect(await named(direct.db, enterprise.id)).toEqual([{ name: 'Pooled' }]);
  });
});
