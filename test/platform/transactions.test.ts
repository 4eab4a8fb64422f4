import { NO_TERMS } from '../../src/platform/versions/change-terms.js';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createEntityRolesService } from '../../src/modules/admin/entity-roles/entity-roles.service.js';
import { createLegalEntitiesService } from '../../src/modules/legal-entities/legal-entities.service.js';
import { createRiskScenariosService } from '../../src/modules/risk-scenarios/risk-scenarios.service.js';
import type { Caller } from '../../src/platform/auth/principal.js';
import { inTransaction } from '../../src/platform/db/transaction.js';
import { createMemoryRateLimitStore } from '../../src/platform/http/rate-limit/memory-store.js';
import { createMonitor } from '../../src/platform/monitoring/alert-monitor.js';
import { createTestContext } from '../support/app.js';
import { auditEntries } from '../support/audit.js';
import { createUser, type TestUser } from '../support/factories.js';

const callerOf = (user: TestUser): Caller => ({
  userId: user.id,
  email: user.email,
  fullName: user.fullName,
  role: user.role,
  enterpriseId: user.enterpriseId,
  sessionId: null,
  entityAssignments: [],
  ip: '127.0.0.1',
  userAgent: 'transactions suite',
  operation: null,
});

/**
 * STYLE "Data and transactions": a service bound to its caller's transaction joins it, so one request's
 * work across modules commits or rolls back as one, and side effects wait for the outermost commit.
 */
const ctx = await createTestContext();

describe('one transaction across modules (services bound to a caller transaction)', async () => {
  const admin = await createUser(ctx, { role: 'admin' });
  const assessor = await createUser(ctx, { role: 'assessor', enterpriseId: admin.enterpriseId! });
  const caller = callerOf(admin);

  /** The work of three modules in the caller's transaction; the entity-roles service drops a cache on commit. */
  async function crossModuleWork(trx: Parameters<Parameters<typeof inTransaction>[1]>[0]['trx'], invalidated: string[], tag: string) {
    const entity = await createLegalEntitiesService({ db: trx }).create(caller, { name: `Entity ${tag}` }, NO_TERMS);
    await createEntityRolesService({ db: trx, principals: { invalidateUser: (id) => void invalidated.push(id) } }).create(
      caller,
      assessor.id,
      { legal_entity_id: entity.id }, NO_TERMS,
    );
    const scenario = await createRiskScenariosService({ db: trx }).add(caller, { name: `Scenario ${tag}`, category: 'External Fraud' }, NO_TERMS);
    return { entity, scenario };
  }

  it('an outer transaction that fails after every module wrote leaves no row, no audit entry, and runs no hook', async () => {
    const tag = randomUUID();
    const invalidated: string[] = [];
    let written: { entity: { id: string }; scenario: { id: string } } | undefined;
    await expect(
      inTransaction(ctx.db, async ({ trx }) => {
        written = await crossModuleWork(trx, invalidated, tag);
        // Both rows are there inside the transaction...
        expect(await trx.selectFrom('legal_entities').select('id').where('id', '=', written.entity.id).execute()).toHaveLength(1);
        throw new Error('a later step of the request failed');
      }),
    ).rejects.toThrow('a later step of the request failed');
    expect(written).toBeDefined();
    // ...and none of them after the rollback.
    expect(await ctx.db.selectFrom('legal_entities').select('id').where('id', '=', written!.entity.id).execute()).toEqual([]);
    expect(await ctx.db.selectFrom('risk_scenarios').select('id').where('id', '=', written!.scenario.id).execute()).toEqual([]);
    expect(await ctx.db.selectFrom('entity_roles').select('id').where('user_id', '=', assessor.id).execute()).toEqual([]);
    expect(await auditEntries(ctx, { entityId: written!.entity.id })).toEqual([]);
    expect(await auditEntries(ctx, { entityId: written!.scenario.id })).toEqual([]);
    expect(await auditEntries(ctx, { entityId: assessor.id })).toEqual([]);
    expect(invalidated).toEqual([]);
  });

  it('the same work committing: every row and audit entry is there, and the inner hooks ran once, after the outer commit', async () => {
    const tag = randomUUID();
    const invalidated: string[] = [];
    const written = await inTransaction(ctx.db, async ({ trx }) => {
      const result = await crossModuleWork(trx, invalidated, tag);
      // The inner service's transaction "ended", but the outer one has not committed: no hook yet.
      expect(invalidated).toEqual([]);
      return result;
    });
    expect(invalidated).toEqual([assessor.id]);
    expect(await ctx.db.selectFrom('legal_entities').select('name').where('id', '=', written.entity.id).execute()).toEqual([
      { name: `Entity ${tag}` },
    ]);
    expect(await ctx.db.selectFrom('risk_scenarios').select('name').where('id', '=', written.scenario.id).execute()).toEqual([
      { name: `Scenario ${tag}` },
    ]);
    expect(await auditEntries(ctx, { entityId: written.entity.id, action: 'create' })).toHaveLength(1);
    expect(await auditEntries(ctx, { entityId: written.scenario.id, action: 'create' })).toHaveLength(1);
    expect(await auditEntries(ctx, { entityId: assessor.id, action: 'update' })).toHaveLength(1);
  });

  it('an inner service refusing (a 409 on a duplicate name) rolls back what the other module wrote before it', async () => {
    const tag = randomUUID();
    await createRiskScenariosService({ db: ctx.db }).add(caller, { name: `Taken ${tag}`, category: 'External Fraud' }, NO_TERMS);
    let entityId: string | undefined;
    await expect(
      inTransaction(ctx.db, async ({ trx }) => {
        entityId = (await createLegalEntitiesService({ db: trx }).create(caller, { name: `Entity ${tag}` }, NO_TERMS)).id;
        await createRiskScenariosService({ db: trx }).add(caller, { name: `Taken ${tag}`, category: 'External Fraud' }, NO_TERMS);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await ctx.db.selectFrom('legal_entities').select('id').where('id', '=', entityId!).execute()).toEqual([]);
    expect(await auditEntries(ctx, { entityId: entityId! })).toEqual([]);
  });

  it('a transaction the platform did not open is refused, not silently joined without its hooks', async () => {
    await expect(ctx.db.transaction().execute((trx) => inTransaction(trx, async () => 'joined'))).rejects.toThrow(
      'inTransaction was given a transaction it did not open',
    );
  });
});

describe('a failing on-commit hook is logged and raises a system alert; the change stays committed', async () => {
  const logged: Array<{ object: unknown; message: string | undefined }> = [];
  const log = {
    error: (object: unknown, message?: string) => void logged.push({ object, message }),
    warn: () => undefined,
    info: () => undefined,
  };
  // The app wires the database's on-commit failures to its monitor: this one logs to the suite.
  const monitor = createMonitor(ctx.db, log, { intervalMs: 3_600_000 });
  const rateLimitStore = createMemoryRateLimitStore();
  const app = await buildApp({ config: ctx.config, database: ctx.database, secrets: ctx.secrets, monitor, rateLimitStore, logger: false });
  afterAll(async () => {
    await app.close();
    await monitor.close();
    await rateLimitStore.close();
  });
  const admin = await createUser(ctx, { role: 'admin' });

  it('the change commits, the next hooks still run, and the failure is logged and alerted (system, on_commit)', async () => {
    const ran: string[] = [];
    const failure = new TypeError('the cache is gone');
    const entity = await inTransaction(ctx.database.db, async ({ trx, onCommit }) => {
      const created = await createLegalEntitiesService({ db: trx }).create(callerOf(admin), { name: `Hooked ${randomUUID()}` }, NO_TERMS);
      onCommit(() => {
        ran.push('first');
        throw failure;
      });
      onCommit(() => void ran.push('second'));
      return created;
    });
    expect(ran).toEqual(['first', 'second']);
    expect(await ctx.db.selectFrom('legal_entities').select('id').where('id', '=', entity.id).execute()).toHaveLength(1);
    expect(logged).toEqual([{ object: { err: failure }, message: expect.stringContaining('on-commit hook failed') }]);
    await monitor.flush();
    const alerts = await ctx.db.selectFrom('system_alerts').selectAll().where('type', '=', 'system').execute();
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ severity: 'error', status: 'open', enterprise_id: null, cause: 'on_commit:TypeError' });
  });
});
