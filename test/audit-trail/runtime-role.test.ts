import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { writeAudit } from '../../src/platform/audit/audit-writer.js';
import { openDatabase, type Database } from '../../src/platform/db/engine.js';
import { canRewriteAuditTrail } from '../../src/platform/db/runtime-role.js';
import { setUpSchema } from '../../src/platform/db/schema-setup.js';
import { inTransaction } from '../../src/platform/db/transaction.js';
import { createTestContext } from '../support/app.js';
import { freshDatabase } from '../support/database.js';
import { createEnterprise } from '../support/factories.js';
import { appendAuditEntries } from '../support/governance-factories.js';

const asRole = (url: string, role: string) => Object.assign(new URL(url), { username: role }).toString();

/**
 * D7.5: entries cannot be changed even by SQL through the service's own role. Migrations run as the owner
 * (MIGRATION_DATABASE_URL); the service's role (DATABASE_URL) may only insert and read the audit trail.
 */
describe('the runtime database role', async () => {
  const database = await freshDatabase();
  const ctx = await createTestContext({ database });
  const role = `risk_runtime_${randomBytes(4).toString('hex')}`;
  await sql`create role ${sql.id(role)} login`.execute(ctx.db);
  const runtime: Database = await openDatabase({ kind: 'postgres', url: asRole(database.url, role) }, { poolSize: 2 });
  const config = loadConfig({ DATABASE_URL: asRole(database.url, role), MIGRATION_DATABASE_URL: database.url, LOG_LEVEL: 'silent' });
  const report = await setUpSchema(config, runtime);
  const enterprise = await createEnterprise(ctx);
  const [entryId] = await appendAuditEntries(ctx, enterprise.id, [{ createdAt: new Date('2026-08-01T00:00:00Z') }]);
  afterAll(async () => {
    await runtime.close();
    await sql`drop owned by ${sql.id(role)}`.execute(ctx.db);
    await sql`drop role ${sql.id(role)}`.execute(ctx.db);
  });

  const refusal = (statement: ReturnType<typeof sql>) =>
    statement.execute(runtime.db).then(
      () => 'allowed',
      (error: { code?: string; message: string }) => `${error.code}: ${error.message}`,
    );

  it('the owner migrates and grants; the service then runs as a role that cannot rewrite the trail (no warning)', async () => {
    expect(report.ownerRuns).toBe(false);
    expect(await canRewriteAuditTrail(runtime.db)).toBe(false);
    expect(await canRewriteAuditTrail(ctx.db)).toBe(true);
  });

  it('started as the owner (no MIGRATION_DATABASE_URL), the service is told it could rewrite the trail', async () => {
    const single = loadConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'silent' });
    expect((await setUpSchema(single, database)).ownerRuns).toBe(true);
  });

  it('the runtime role appends and reads audit entries through the writer', async () => {
    const id = await inTransaction(runtime.db, ({ trx }) =>
      writeAudit(trx, { enterpriseId: enterprise.id, actor: { userId: null, email: null, fullName: null }, action: 'update', entityType: 'user', entityId: null, details: {}, ip: null, userAgent: null }),
    );
    const rows = await runtime.db.selectFrom('audit_log').select('id').where('enterprise_id', '=', enterprise.id).execute();
    expect(rows.map((r) => r.id)).toEqual(expect.arrayContaining([entryId, id]));
  });

  it('is refused UPDATE, DELETE and TRUNCATE of audit_log by privilege, not only by the trigger', async () => {
    expect(await refusal(sql`update audit_log set user_agent = 'x' where id = ${entryId}`)).toBe('42501: permission denied for table audit_log');
    expect(await refusal(sql`delete from audit_log where id = ${entryId}`)).toBe('42501: permission denied for table audit_log');
    expect(await refusal(sql`truncate audit_log`)).toBe('42501: permission denied for table audit_log');
  });

  it('is refused DISABLE TRIGGER and session_replication_role, the two ways around the trigger', async () => {
    expect(await refusal(sql`alter table audit_log disable trigger audit_log_immutable`)).toBe('42501: must be owner of table audit_log');
    expect(await refusal(sql`set session_replication_role = replica`)).toMatch(/^42501: permission denied to set parameter "session_replication_role"/);
  });

  it('the signed checkpoints are append-only for it too; other tables stay writable', async () => {
    expect(await refusal(sql`update audit_checkpoints set entry_count = 0`)).toBe('42501: permission denied for table audit_checkpoints');
    expect(await refusal(sql`delete from audit_checkpoints`)).toBe('42501: permission denied for table audit_checkpoints');
    expect(await refusal(sql`update enterprises set updated_at = now() where id = ${enterprise.id}`)).toBe('allowed');
    expect(await refusal(sql`update audit_chain_heads set last_seq = last_seq where chain_key = ${enterprise.id}`)).toBe('allowed');
  });
});
