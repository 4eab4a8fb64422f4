import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createTestContext } from '../support/app.js';
import { sessionHeaders } from '../support/api.js';
import { tamper } from '../support/audit-tamper.js';
import { createEnterprise, createUser } from '../support/factories.js';
import { appendAuditEntries, signingKeyEnv } from '../support/governance-factories.js';
import { addScenarioLink, createBra, rateBoth } from '../support/bras-factories.js';
import { createLegalEntity } from '../support/factories.js';

/**
 * Finding 8: the hash covered created_at only to the millisecond, while PostgreSQL stores microseconds, so
 * the stored time of an entry could be moved within its millisecond unnoticed; and the heads were signed
 * hourly, leaving a long window after the newest checkpoint.
 */
describe('audit chain: what the hash covers and how often heads are signed (finding 8)', async () => {
  const ctx = await createTestContext();
  const headers = sessionHeaders(ctx);

  it('a created_at moved by one microsecond breaks the chain at that entry', async () => {
    const enterprise = await createEnterprise(ctx);
    const admin = await createUser(ctx, { role: 'admin', enterpriseId: enterprise.id });
    const ids = await appendAuditEntries(ctx, enterprise.id, Array.from({ length: 5 }, (_, i) => ({ createdAt: new Date(Date.UTC(2026, 5, 1, 0, 0, i)) })));
    const verify = async () => (await ctx.app.inject({ method: 'GET', url: '/api/v1/audit/verify', headers: await headers(admin) })).json().data;
    expect(await verify()).toMatchObject({ valid: true, entries_checked: 5 });
    await tamper(ctx, async (trx) => {
      await sql`update audit_log set created_at = created_at + interval '1 microsecond' where id = ${ids[2]!}`.execute(trx);
    });
    expect(await verify()).toMatchObject({ valid: false, first_invalid_id: ids[2], failure: 'hash_mismatch' });
  });

  it('every chain head that moved is signed every minute by default', () => {
    expect(loadConfig({}).audit.checkpointIntervalMinutes).toBe(1);
  });
});

describe('an approval is covered by a signed checkpoint as soon as it commits (finding 8)', async () => {
  const ctx = await createTestContext({ env: signingKeyEnv() });
  const headers = sessionHeaders(ctx);

  it('the checkpoint signed after the approval names the approval entry as the head of the chain', async () => {
    const enterprise = await createEnterprise(ctx);
    const admin = await createUser(ctx, { role: 'admin', enterpriseId: enterprise.id });
    const entity = await createLegalEntity(ctx, enterprise.id);
    const bra = await createBra(ctx, { enterpriseId: enterprise.id, legalEntityId: entity.id, status: 'under_review' });
    await rateBoth(ctx, await addScenarioLink(ctx, bra), [3, 3], [2, 2]);
    const approved = await ctx.app.inject({ method: 'POST', url: `/api/v1/bras/${bra.id}/approve`, headers: await headers(admin), payload: {} });
    expect(approved.statusCode, approved.body).toBe(200);
    const entry = await ctx.db.selectFrom('audit_log').select(['id', 'chain_seq']).where('entity_id', '=', bra.id).orderBy('chain_seq', 'desc').executeTakeFirstOrThrow();
    const checkpoints = await ctx.db.selectFrom('audit_checkpoints').select(['chain_seq', 'last_entry_id']).where('enterprise_id', '=', enterprise.id).execute();
    expect(checkpoints).toEqual([{ chain_seq: entry.chain_seq, last_entry_id: entry.id }]);
    const verified = await ctx.app.inject({ method: 'GET', url: '/api/v1/audit/verify', headers: await headers(admin) });
    expect(verified.json().data).toMatchObject({ valid: true, checkpoints_checked: 1 });
  });
});
