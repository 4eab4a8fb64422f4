import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { auditTrailModule } from '../../src/modules/audit-trail/audit-trail.module.js';
import { MODULES } from '../../src/modules/index.js';
import { createMemoryRateLimitStore } from '../../src/platform/http/rate-limit/memory-store.js';
import { defineModule, type Platform } from '../../src/platform/module.js';
import { insertAction, utcDate } from '../support/actions-factories.js';
import { createTestContext } from '../support/app.js';
import { createEnterprise } from '../support/factories.js';

/**
 * Background work is declared by modules (AppModule.jobs) and started by the app only when asked
 * (AppDeps.jobs): building the app and mounting routes start nothing, so the demo, the suites and a
 * worker process each decide. The app stops what it started when it closes.
 */
describe('module jobs: declared by modules, started and stopped by the app', async () => {
  const ctx = await createTestContext();

  /** A module whose one job records its starts and stops. */
  function probeModule() {
    const events: string[] = [];
    const module = defineModule({
      name: 'probe',
      services: () => ({}),
      routes: () => undefined,
      jobs: () => [
        {
          name: 'probe.work',
          start() {
            events.push('started');
            return async () => {
              events.push('stopped');
            };
          },
        },
      ],
    });
    return { module, events };
  }

  async function appWith(modules: Parameters<typeof buildApp>[0]['modules'], jobs?: boolean) {
    const rateLimitStore = createMemoryRateLimitStore();
    const app = await buildApp({
      config: ctx.config,
      database: ctx.database,
      secrets: ctx.secrets,
      monitor: ctx.monitor,
      rateLimitStore,
      logger: false,
      modules,
      ...(jobs === undefined ? {} : { jobs }),
    });
    return { app, close: async () => (await app.close(), await rateLimitStore.close()) };
  }

  it('an app built without asking runs no job: mounting routes starts nothing', async () => {
    const probe = probeModule();
    const { close } = await appWith([probe.module]);
    expect(probe.events).toEqual([]);
    await close();
    expect(probe.events).toEqual([]);
  });

  it('an app asked to run jobs starts each once, and stops it when it closes', async () => {
    const probe = probeModule();
    const { close } = await appWith([probe.module], true);
    expect(probe.events).toEqual(['started']);
    await close();
    expect(probe.events).toEqual(['started', 'stopped']);
  });

  it('the enterprise_health check is not on the monitor of an app that runs no jobs (D9.5 needs the job)', async () => {
    const enterprise = await createEnterprise(ctx);
    for (let i = 0; i < 5; i += 1) await insertAction(ctx, { enterpriseId: enterprise.id, priority: 'critical', status: 'created', dueDate: utcDate(-3) });
    await ctx.monitor.flush();
    const raised = await ctx.db.selectFrom('system_alerts').select('id').where('enterprise_id', '=', enterprise.id).execute();
    expect(raised).toEqual([]);

    // The same monitor with the actions module's job running raises it; closing the app removes the check.
    const actions = MODULES.find((module) => module.name === 'actions')!;
    const { close } = await appWith([actions], true);
    await ctx.monitor.flush();
    const alerts = await ctx.db.selectFrom('system_alerts').select(['type', 'status']).where('enterprise_id', '=', enterprise.id).execute();
    expect(alerts).toEqual([{ type: 'enterprise_health', status: 'open' }]);
    await close();
    await ctx.db.updateTable('system_alerts').set({ status: 'resolved' }).where('enterprise_id', '=', enterprise.id).execute();
    await ctx.monitor.flush();
    const after = await ctx.db.selectFrom('system_alerts').select('status').where('enterprise_id', '=', enterprise.id).execute();
    expect(after).toEqual([{ status: 'resolved' }]);
  });

  it('the audit trail declares its checkpoint schedule only when AUDIT_CHECKPOINT_INTERVAL_MINUTES is above 0', () => {
    const platformWith = (minutes: string) =>
      ({ ...ctx, config: loadConfig({ AUDIT_CHECKPOINT_INTERVAL_MINUTES: minutes }), log: ctx.app.log }) as unknown as Platform;
    expect(auditTrailModule.jobs!(platformWith('0'))).toEqual([]);
    expect(auditTrailModule.jobs!(platformWith('60')).map((job) => job.name)).toEqual(['audit-trail.checkpoints']);
  });
});
