import { describe, expect, it } from 'vitest';
import { DEMO_ENTERPRISE, DEMO_EXTRA_SCENARIOS, DEMO_MEMBERS } from '../src/demo/demo-data.js';
import { formatDemoReport } from '../src/demo/demo-report.js';
import { DemoRefusal, runDemo, type DemoResult } from '../src/demo/run-demo.js';
import { createTestContext } from './support/app.js';
import { bearer, createUser } from './support/factories.js';
import { freshDatabase } from './support/database.js';

describe('npm run demo', async () => {
  const database = await freshDatabase();
  const ctx = await createTestContext({ database });
  const progress: string[] = [];
  const result = await runDemo(database, ctx.config, { log: (line) => progress.push(line) });
  const report = formatDemoReport(result, { baseUrl: ctx.config.publicUrl, inMemory: false });

  const signIn = (email: string, password: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=password',
      headers: { apikey: ctx.secrets.anonKey, 'content-type': 'application/json' },
      payload: { email, password },
    });

  it('creates the enterprise and people of every role, and prints their credentials with the apikey and base URL', () => {
    expect(result.outcome).toBe('created');
    expect(report).toContain(`Web console:      ${ctx.config.publicUrl}/ (while the service runs: sign in as one of the people above)`);
    expect(result.credentials.map((c) => c.role).sort()).toEqual(['admin', 'assessor', 'assessor', 'reviewer', 'super_admin']);
    expect(result.anonKey).toBe(ctx.secrets.anonKey);
    for (const credential of result.credentials) {
      expect(credential.password).not.toBeNull();
      expect(report).toContain(credential.email);
      expect(report).toContain(credential.password as string);
    }
    expect(report).toContain(ctx.secrets.anonKey);
    expect(report).toContain(ctx.config.publicUrl);
    // Ready-to-run commands with the real values (test/newcomer runs them against a started service).
    expect(report).toContain(`APIKEY='${ctx.secrets.anonKey}'`);
    expect(report).toContain(`API='${ctx.config.publicUrl}'`);
    expect(report).toMatch(/curl .*"\$API\/auth\/v1\/token\?grant_type=password" -H "apikey: \$APIKEY"/);
    expect(report).toContain('"$API/api/v1/legal-entities"');
    expect(report).not.toContain(ctx.secrets.serviceRoleKey);
  });

  it('every printed credential signs in at the identity provider, and the API sees the right role', async () => {
    for (const credential of result.credentials) {
      const response = await signIn(credential.email, credential.password as string);
      expect(response.statusCode, `${credential.email}: ${response.body}`).toBe(200);
      const me = await ctx.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(response.json().access_token) });
      expect(me.statusCode, me.body).toBe(200);
      expect(me.json().data).toMatchObject({ email: credential.email, role: credential.role });
    }
  });

  it('builds the enterprise through the services: tier, entities, units, catalogue, assignments, audit trail', async () => {
    const enterprise = await ctx.db.selectFrom('enterprises').selectAll().where('name', '=', DEMO_ENTERPRISE.name).executeTakeFirstOrThrow();
    expect(enterprise).toMatchObject({ country: 'GB', subscription_tier: 'professional', status: 'active' });
    const entities = await ctx.db.selectFrom('legal_entities').select('id').where('enterprise_id', '=', enterprise.id).execute();
    const units = await ctx.db.selectFrom('business_units').select('id').where('enterprise_id', '=', enterprise.id).execute();
    const scenarios = await ctx.db.selectFrom('risk_scenarios').select('id').where('enterprise_id', '=', enterprise.id).execute();
    expect(entities).toHaveLength(3);
    expect(units.length).toBeGreaterThanOrEqual(3);
    expect(scenarios.length).toBeGreaterThanOrEqual(14 + DEMO_EXTRA_SCENARIOS.length);

    const assessor = result.credentials.find((c) => c.role === 'assessor' && c.assignments.some((a) => a.includes(' / ')));
    const signedIn = await signIn(assessor!.email, assessor!.password as string);
    const me = await ctx.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(signedIn.json().access_token) });
    expect(me.json().data.entity_assignments).toHaveLength(assessor!.assignments.length);

    const trail = await ctx.db.selectFrom('audit_log').select(['entity_type', 'action_type']).where('enterprise_id', '=', enterprise.id).execute();
    expect(trail.some((entry) => entry.entity_type === 'legal_entity' && entry.action_type === 'create')).toBe(true);
    expect(trail.some((entry) => entry.entity_type === 'user' && entry.action_type === 'create')).toBe(true);
  });

  it('a second run finds the demo enterprise, says so and changes nothing', async () => {
    const countRows = async () => ({
      enterprises: (await ctx.db.selectFrom('enterprises').select('id').execute()).length,
      users: (await ctx.db.selectFrom('users').select('id').execute()).length,
      audit: (await ctx.db.selectFrom('audit_log').select('id').execute()).length,
    });
    const before = await countRows();
    const again: DemoResult = await runDemo(database, ctx.config);
    expect(again.outcome).toBe('exists');
    expect(again.enterprise.id).toBe(result.enterprise.id);
    expect(again.credentials.map((c) => c.email).sort()).toEqual(result.credentials.map((c) => c.email).sort());
    expect(await countRows()).toEqual(before);
    expect(formatDemoReport(again, { baseUrl: ctx.config.publicUrl, inMemory: false })).toContain('already exists');
  });
});

describe('npm run demo on a platform already in use', async () => {
  const ctx = await createTestContext();
  const platformAdmin = await createUser(ctx, { role: 'super_admin' });

  it('refuses, changing nothing, when a demo e-mail belongs to an active user', async () => {
    const holder = await createUser(ctx, { role: 'assessor', email: DEMO_MEMBERS[1]!.email });
    await expect(runDemo(ctx.database, ctx.config)).rejects.toBeInstanceOf(DemoRefusal);
    expect(await ctx.db.selectFrom('enterprises').select('id').where('name', '=', DEMO_ENTERPRISE.name).execute()).toEqual([]);
    await ctx.db.updateTable('users').set({ active: false }).where('id', '=', holder.id).execute();
  });

  it('acts as the existing super admin (the bootstrap creates none while one exists) and says so', async () => {
    const result = await runDemo(ctx.database, ctx.config);
    expect(result.outcome).toBe('created');
    const superAdmins = result.credentials.filter((c) => c.role === 'super_admin');
    expect(superAdmins).toEqual([expect.objectContaining({ email: platformAdmin.email, password: null })]);
    expect(result.notes.join('\n')).toContain(platformAdmin.email);
    const report = formatDemoReport(result, { baseUrl: ctx.config.publicUrl, inMemory: true });
    expect(report).toContain('(its own password)');
    expect(report).toContain('memory://');
    const audit = await ctx.db
      .selectFrom('audit_log')
      .select('user_id')
      .where('entity_type', '=', 'enterprise')
      .where('action_type', '=', 'create')
      .execute();
    expect(audit).toEqual([{ user_id: platformAdmin.id }]);
  });
});

describe('the demo says what a person then sees (decisions.md, First run)', async () => {
  const database = await freshDatabase();
  const ctx = await createTestContext({ database });
  const progress: string[] = [];
  const result = await runDemo(database, ctx.config, { log: (line) => progress.push(line) });
  const report = formatDemoReport(result, { baseUrl: ctx.config.publicUrl, inMemory: false });

  it("its report counts the BRAs the enterprise has, by status, as the database holds them", async () => {
    const enterprise = await ctx.db.selectFrom('enterprises').select('id').where('name', '=', DEMO_ENTERPRISE.name).executeTakeFirstOrThrow();
    const rows = await ctx.db
      .selectFrom('bras')
      .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
      .where('enterprise_id', '=', enterprise.id)
      .groupBy('status')
      .execute();
    const total = rows.reduce((sum, row) => sum + Number(row.n), 0);
    const note = /has (\d+) BRAs: ([^(]+) \(/.exec(report);
    expect(Number(note?.[1])).toBe(total);
    const said = Object.fromEntries((note?.[2] ?? '').split(', ').map((part) => [part.split(' ')[1], Number(part.split(' ')[0])]));
    expect(said).toEqual(Object.fromEntries(rows.map((row) => [row.status, Number(row.n)])));
    // And the progress lists each of them with the status it has.
    const listed = progress.filter((line) => /^ {2}.+: (draft|in_progress|under_review|approved|cancelled)$/.test(line));
    expect(listed).toHaveLength(total);
  });

  it('says the BRA under review carries the reviewer\'s comments', () => {
    expect(progress).toContain('- Review comments');
    expect(progress).toContainEqual(expect.stringMatching(/^ {2}Commercial Lending credit process BRA FY2026: 3 comments, the reviewer's latest verdict recommend_approval$/));
  });

  it('prints no heading without something under it', () => {
    progress.forEach((line, index) => {
      if (!line.startsWith('- ') || line.endsWith(': done')) return;
      expect(progress[index + 1] ?? '', `"${line}" has nothing under it`).toMatch(/^ {2}\S/);
    });
  });
});
