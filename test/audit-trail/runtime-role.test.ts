import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { writeAudit } from '../../src/platform/audit/audit-writer.js';
import { EMBEDDED_RUNTIME_ROLE, openDatabase, type Database } from '../../src/platform/db/engine.js';
import { canRewriteAuditTrail } from '../../src/platform/db/runtime-role.js';
import { setUpSchema } from '../../src/platform/db/schema-setup.js';
import { inTransaction } from '../../src/platform/db/transaction.js';
import { createTestContext } from '../support/app.js';
import { engineUnderTest, freshDatabase } from '../support/database.js';
import { createEnterprise } from '../support/factories.js';
import { appendAuditEntries } from '../support/governance-factories.js';

const asRole = (url: string, role: string) => Object.assign(new URL(url), { username: role }).toString();

/** What a statement run as `db`'s role gives: 'allowed', or the error's code and message. */
const outcome = (db: Database['db'], statement: ReturnType<typeof sql>) =>
  statement.execute(db).then(
    () => 'allowed',
    (error: { code?: string; message: string }) => `${error.code}: ${error.message}`,
  );

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

  const refusal = (statement: ReturnType<typeof sql>) => outcome(runtime.db, statement);

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

  it('the signed checkpoints and review comments are append-only for it too; other tables stay writable', async () => {
    expect(await refusal(sql`update audit_checkpoints set entry_count = 0`)).toBe('42501: permission denied for table audit_checkpoints');
    expect(await refusal(sql`delete from audit_checkpoints`)).toBe('42501: permission denied for table audit_checkpoints');
    expect(await refusal(sql`update bra_comments set body = 'x'`)).toBe('42501: permission denied for table bra_comments');
    expect(await refusal(sql`delete from bra_comments`)).toBe('42501: permission denied for table bra_comments');
    expect(await refusal(sql`select count(*) from bra_comments`)).toBe('allowed');
    expect(await refusal(sql`update enterprises set updated_at = now() where id = ${enterprise.id}`)).toBe('allowed');
    expect(await refusal(sql`update audit_chain_heads set last_seq = last_seq where chain_key = ${enterprise.id}`)).toBe('allowed');
  });
});

/**
 * The embedded engine sets the two roles up itself: its server's superuser owns the schema and migrates, the
 * service connects as EMBEDDED_RUNTIME_ROLE. Its own server (memory://), on the embedded leg only.
 */
describe.runIf(engineUnderTest() === 'embedded')('the embedded engine runs the service as its runtime role', () => {
  // Opened in beforeAll, not in the describe's body: vitest collects a skipped suite's body too (the server
  // leg), where a server started there would never be closed.
  let database: Database;
  let report: Awaited<ReturnType<typeof setUpSchema>>;
  beforeAll(async () => {
    database = await openDatabase({ kind: 'embedded-memory' }, { poolSize: 2 });
    report = await setUpSchema(loadConfig({ DATABASE_URL: 'memory://', LOG_LEVEL: 'silent' }), database);
  });
  afterAll(() => database?.close());
  const refusal = (statement: ReturnType<typeof sql>) => outcome(database.db, statement);

  it('connects as a role that owns nothing and is no superuser, after the superuser migrated', async () => {
    const { rows } = await sql<{ role: string; superuser: boolean }>`
      select current_user as role, (select rolsuper from pg_roles where rolname = current_user) as superuser`.execute(database.db);
    expect(rows).toEqual([{ role: EMBEDDED_RUNTIME_ROLE, superuser: false }]);
    expect(report.applied.length).toBeGreaterThan(0);
    expect(report.ownerRuns).toBe(false);
    expect(await canRewriteAuditTrail(database.db)).toBe(false);
  });

  it('appends to and reads the trail, and is refused UPDATE, DELETE, TRUNCATE, DISABLE TRIGGER and session_replication_role', async () => {
    await inTransaction(database.db, ({ trx }) =>
      writeAudit(trx, { enterpriseId: null, actor: { userId: null, email: null, fullName: null }, action: 'update', entityType: 'user', entityId: null, details: {}, ip: null, userAgent: null }),
    );
    expect(await refusal(sql`select count(*) from audit_log`)).toBe('allowed');
    expect(await refusal(sql`update audit_log set user_agent = 'x'`)).toBe('42501: permission denied for table audit_log');
    expect(await refusal(sql`delete from audit_log`)).toBe('42501: permission denied for table audit_log');
    expect(await refusal(sql`truncate audit_log`)).toBe('42501: permission denied for table audit_log');
    expect(await refusal(sql`alter table audit_log disable trigger audit_log_immutable`)).toBe('42501: must be owner of table audit_log');
    expect(await refusal(sql`set session_replication_role = replica`)).toMatch(/^42501: permission denied to set parameter "session_replication_role"/);
    expect(await refusal(sql`delete from bra_snapshots`)).toBe('42501: permission denied for table bra_snapshots');
    expect(await refusal(sql`update audit_checkpoints set entry_count = 0`)).toBe('42501: permission denied for table audit_checkpoints');
  });

  it('cannot create tables or change the migrations record', async () => {
    expect(await refusal(sql`create table intruder (id int)`)).toBe('42501: permission denied for schema public');
    expect(await refusal(sql`delete from kysely_migration`)).toBe('42501: permission denied for table kysely_migration');
  });
});
