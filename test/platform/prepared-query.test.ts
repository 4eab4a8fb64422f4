import { describe, expect, it, vi } from 'vitest';
import { poolOf } from '../../src/platform/db/engine.js';
import { preparedQuery } from '../../src/platform/db/prepared.js';
import { inTransaction } from '../../src/platform/db/transaction.js';
import { createTestContext } from '../support/app.js';
import { createEnterprise } from '../support/factories.js';

/** src/platform/db/prepared.ts: Kysely's SQL compiled once, each call's values bound in their places. */
describe('preparedQuery (hot reads compiled once)', async () => {
  const ctx = await createTestContext();
  const [first, second] = [await createEnterprise(ctx, { name: 'Prepared One' }), await createEnterprise(ctx, { name: 'Prepared Two', status: 'inactive' })];

  const byIdAndStatus = preparedQuery((db, id: string, status: 'active' | 'inactive') =>
    db.selectFrom('enterprises').select(['id', 'name']).where('id', '=', id).where('status', '=', status).where('country', '=', 'GB'),
  );

  it('binds each call its own values, constants stay as built, and answers as the built query would', async () => {
    expect(await byIdAndStatus(ctx.db, first.id, 'active')).toEqual([{ id: first.id, name: 'Prepared One' }]);
    expect(await byIdAndStatus(ctx.db, second.id, 'inactive')).toEqual([{ id: second.id, name: 'Prepared Two' }]);
    expect(await byIdAndStatus(ctx.db, second.id, 'active')).toEqual([]);
    const built = await ctx.db.selectFrom('enterprises').select(['id', 'name']).where('id', '=', first.id).where('status', '=', 'active').where('country', '=', 'GB').execute();
    expect(await byIdAndStatus(ctx.db, first.id, 'active')).toEqual(built);
  });

  it('runs on the executor it is given: inside a transaction it sees that transaction’s rows', async () => {
    let freshId = '';
    await expect(
      inTransaction(ctx.db, async ({ trx }) => {
        freshId = (await trx.insertInto('enterprises').values({ name: 'Prepared Uncommitted', country: 'GB' }).returning('id').executeTakeFirstOrThrow()).id;
        expect(await byIdAndStatus(trx, freshId, 'active')).toEqual([{ id: freshId, name: 'Prepared Uncommitted' }]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await byIdAndStatus(ctx.db, freshId, 'active')).toEqual([]);
  });

  it('goes to the pg pool directly on the database itself, through Kysely in a transaction', async () => {
    const pool = poolOf(ctx.db)!;
    const query = vi.spyOn(pool, 'query');
    try {
      expect(await byIdAndStatus(ctx.db, first.id, 'active')).toEqual([{ id: first.id, name: 'Prepared One' }]);
      expect(query).toHaveBeenCalledTimes(1);
      await inTransaction(ctx.db, async ({ trx }) => {
        expect(poolOf(trx)).toBeUndefined();
        expect(await byIdAndStatus(trx, second.id, 'inactive')).toEqual([{ id: second.id, name: 'Prepared Two' }]);
      });
      expect(query).toHaveBeenCalledTimes(1);
    } finally {
      query.mockRestore();
    }
  });

  it('refuses an argument that shapes the query instead of being bound once', async () => {
    const shaped = preparedQuery((db, name: string) =>
      db.selectFrom('enterprises').select('id').where('name', '=', name).where('registration_number', '=', name),
    );
    await expect(shaped(ctx.db, 'x')).rejects.toThrow('argument 0 must be bound exactly once');
    const unused = preparedQuery((db, _name: string) => db.selectFrom('enterprises').select('id'));
    await expect(unused(ctx.db, 'x')).rejects.toThrow('argument 0 must be bound exactly once');
  });
});
