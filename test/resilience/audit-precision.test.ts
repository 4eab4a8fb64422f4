import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createTestContext } from '../support/app.js';
import { sessionHeaders } from '../support/api.js';
import { tamper } from '../support/audit-tamper.js';
import { createEnterprise, createUser } from '../support/factories.js';
import { appendAuditEntries } from '../support/governance-factories.js';

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
