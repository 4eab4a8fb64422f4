import { describe, expect, it } from 'vitest';
import { DEMO_ENTERPRISE } from '../../src/demo/demo-data.js';
import { runDemo } from '../../src/demo/run-demo.js';
import { createTestContext } from '../support/app.js';
import { freshDatabase } from '../support/database.js';
import { dispatcherFor } from './support.js';

describe('npm run demo: a webhook endpoint for the client admin', async () => {
  const database = await freshDatabase();
  const ctx = await createTestContext({ database });
  const result = await runDemo(database, ctx.config);

  it('registers a paused endpoint, audited, and says how to point it at a receiver', async () => {
    const enterprise = await ctx.db.selectFrom('enterprises').select('id').where('name', '=', DEMO_ENTERPRISE.name).executeTakeFirstOrThrow();
    const endpoints = await ctx.db.selectFrom('webhook_endpoints').selectAll().where('enterprise_id', '=', enterprise.id).execute();
    expect(endpoints).toEqual([
      expect.objectContaining({ enabled: false, event_types: ['bra.approved', 'risk.above_appetite', 'mitigation_action.overdue'] }),
    ]);
    const entries = await ctx.db.selectFrom('audit_log').select('action_type').where('entity_type', '=', 'webhook').where('entity_id', '=', endpoints[0]!.id).execute();
    expect(entries.map((e) => e.action_type)).toEqual(['create', 'update']);
    expect(result.notes.join('\n')).toContain(`Webhooks: the client admin has a paused endpoint (${endpoints[0]!.id})`);
  });

  it('the demo’s own events wait in the outbox and reach no endpoint (it was registered after them, and is paused)', async () => {
    const outbox = await ctx.db.selectFrom('event_outbox').select('type').execute();
    expect(outbox.map((e) => e.type)).toContain('bra.approved');
    const round = await dispatcherFor(ctx).round();
    expect(round).toMatchObject({ attempts: 0 });
    expect(await ctx.db.selectFrom('webhook_deliveries').select('id').execute()).toEqual([]);
  });
});
