import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { sessionHeaders } from '../support/api.js';
import { expectAccessDenied } from '../support/audit.js';
import { rewriteEntry, tamper } from '../support/audit-tamper.js';
import { createEnterprise, createUser } from '../support/factories.js';
import { appendAuditEntries, signingKeyEnv } from '../support/governance-factories.js';

const days = (n: number) => Array.from({ length: n }, (_, i) => ({ createdAt: new Date(Date.UTC(2026, 5, 1, 0, 0, i)) }));

/** GET /api/v1/audit/verify (D7.5). */
describe('audit chain verification', async () => {
  const ctx = await createTestContext({ env: signingKeyEnv() });
  const headers = sessionHeaders(ctx);

  async function setup(entries = 12) {
    const enterprise = await createEnterprise(ctx);
    const admin = await createUser(ctx, { role: 'admin', enterpriseId: enterprise.id });
    const ids = await appendAuditEntries(ctx, enterprise.id, days(entries));
    const verify = async (user = admin) => ctx.app.inject({ method: 'GET', url: '/api/v1/audit/verify', headers: await headers(user) });
    const checkpoint = async () =>
      ctx.app.inject({ method: 'POST', url: '/api/v1/audit/checkpoints', headers: await headers(admin) });
    return { enterprise, admin, ids, verify, checkpoint };
  }

  it('reports an intact chain as valid with the number of entries checked', async () => {
    const { verify } = await setup(12);
    const response = await verify();
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toEqual({ valid: true, entries_checked: 12, first_invalid_id: null, checkpoints_checked: 0, failure: null });
  });

  it('walks a chain longer than one batch (1,200 entries)', async () => {
    const { verify } = await setup(1_200);
    expect((await verify()).json().data).toMatchObject({ valid: true, entries_checked: 1_200 });
  });

  it('names the entry changed in the table with the trigger disabled', async () => {
    const { ids, verify } = await setup(12);
    await tamper(ctx, async (trx) => {
      await sql`update audit_log set user_agent = 'edited' where id = ${ids[6]}`.execute(trx);
    });
    expect((await verify()).json().data).toEqual({
      valid: false, entries_checked: 7, first_invalid_id: ids[6], checkpoints_checked: 0, failure: 'hash_mismatch',
    });
  });

  it('names the entry after a deleted one (a gap in the chain)', async () => {
    const { ids, verify } = await setup(12);
    await tamper(ctx, async (trx) => {
      await sql`delete from audit_log where id = ${ids[3]}`.execute(trx);
    });
    expect((await verify()).json().data).toMatchObject({ valid: false, first_invalid_id: ids[4], failure: 'sequence_gap' });
  });

  it('still detects a rewrite whose hashes were recomputed, through a signed checkpoint taken before it', async () => {
    const { enterprise, ids, verify, checkpoint } = await setup(12);
    expect((await checkpoint()).statusCode).toBe(201);
    // The rewrite: change entry 5 and recompute the hash of it and of every later entry (the checkpoint's
    // own audit entry included), and the chain head, exactly as someone who can write the table would.
    await tamper(ctx, (trx) => rewriteEntry(trx, enterprise.id, ids[4]!));
    const result = (await verify()).json().data;
    expect(result).toMatchObject({ valid: false, failure: 'checkpoint_mismatch' });
    // The entry the checkpoint vouched for (its last) no longer carries the signed hash.
    const last = await ctx.db.selectFrom('audit_checkpoints').select('last_entry_id').where('enterprise_id', '=', enterprise.id).executeTakeFirstOrThrow();
    expect(result.first_invalid_id).toBe(last.last_entry_id);
  });

  it('a trail whose oldest entries were moved to cold storage at a signed checkpoint still verifies (docs/audit-retention.md)', async () => {
    const { enterprise, ids, verify, checkpoint } = await setup(6);
    const cut = (await checkpoint()).json().data;
    await appendAuditEntries(ctx, enterprise.id, [{ createdAt: new Date() }, { createdAt: new Date() }]);
    await tamper(ctx, async (trx) => {
      await sql`delete from audit_log where enterprise_id = ${enterprise.id} and chain_seq <= ${cut.chain_seq}`.execute(trx);
    });
    expect((await verify()).json().data).toMatchObject({ valid: true, checkpoints_checked: 1 });
    // Without the checkpoint at the cut, the first entry left cannot be vouched for.
    await tamper(ctx, async (trx) => {
      await sql`delete from audit_checkpoints where id = ${cut.id}`.execute(trx);
    });
    expect((await verify()).json().data).toMatchObject({ valid: false, failure: 'sequence_gap' });
    expect(ids).toHaveLength(6);
  });

  it('refuses an assessor and a super admin (D5); a reviewer may verify', async () => {
    const { enterprise } = await setup(2);
    const reviewer = await createUser(ctx, { role: 'reviewer', enterpriseId: enterprise.id });
    const assessor = await createUser(ctx, { role: 'assessor', enterpriseId: enterprise.id });
    const superAdmin = await createUser(ctx, { role: 'super_admin' });
    const verify = async (user: typeof reviewer) => ctx.app.inject({ method: 'GET', url: '/api/v1/audit/verify', headers: await headers(user) });
    expect((await verify(reviewer)).json().data).toMatchObject({ valid: true, entries_checked: 2 });
    await expectAccessDenied(ctx, assessor, await verify(assessor), 'audit.verify');
    await expectAccessDenied(ctx, superAdmin, await verify(superAdmin), 'audit.verify');
  });
});
