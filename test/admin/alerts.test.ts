import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { raiseAlert, type AlertInput } from '../../src/platform/monitoring/alert-raiser.js';
import { createTestContext } from '../support/app.js';
import { auditEntries, expectAccessDenied } from '../support/audit.js';
import { bearer, createEnterprise, createUser, tokenFor } from '../support/factories.js';

const ALERTS = '/api/v1/admin/alerts';
const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

describe('system alerts administration (4.7, 3.3, D9.5)', async () => {
  const ctx = await createTestContext({
    extend: (app) => {
      app.get('/api/v1/probe/boom', { config: { public: true } }, async () => {
        throw new Error('boom');
      });
    },
  });
  const superAdmin = await createUser(ctx, { role: 'super_admin' });
  const otherSuperAdmin = await createUser(ctx, { role: 'super_admin' });
  const enterprise = await createEnterprise(ctx);
  const clientAdmin = await createUser(ctx, { role: 'admin', enterpriseId: enterprise.id });
  const assessor = await createUser(ctx, { role: 'assessor', enterpriseId: enterprise.id });
  const reviewer = await createUser(ctx, { role: 'reviewer', enterpriseId: enterprise.id });
  const superToken = await tokenFor(ctx, superAdmin);

  async function newAlert(values: Partial<AlertInput> = {}) {
    const input: AlertInput = {
      type: 'database',
      severity: 'error',
      title: 'Database error',
      message: 'Database error 40P01',
      enterpriseId: null,
      cause: `test:${randomUUID()}`,
      ...values,
    };
    await raiseAlert(ctx.db, input);
    return ctx.db.selectFrom('system_alerts').selectAll().where('cause', '=', input.cause).where('status', '<>', 'resolved').executeTakeFirstOrThrow();
  }
  const list = (query = '', token = superToken) => ctx.app.inject({ method: 'GET', url: `${ALERTS}${query}`, headers: bearer(token) });
  const patch = (id: string, payload: unknown, token = superToken) =>
    ctx.app.inject({ method: 'PATCH', url: `${ALERTS}/${id}`, headers: bearer(token), payload: payload as object });

  describe('GET /admin/alerts', () => {
    it('lists alerts newest first with every field of 2.8, paginated (D2.5)', async () => {
      const enterpriseAlert = await newAlert({ type: 'enterprise_health', severity: 'warning', enterpriseId: enterprise.id });
      const platformAlert = await newAlert();
      const response = await list('?page_size=2');
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      expect(body.pagination).toMatchObject({ page: 1, page_size: 2, has_prev: false });
      expect(body.pagination.total).toBeGreaterThanOrEqual(2);
      expect(body.data.map((alert: { id: string }) => alert.id)).toEqual([platformAlert.id, enterpriseAlert.id]);
      expect(body.data[1]).toEqual({
        id: enterpriseAlert.id,
        type: 'enterprise_health',
        severity: 'warning',
        title: 'Database error',
        message: 'Database error 40P01',
        enterprise_id: enterprise.id,
        status: 'open',
        created_at: expect.stringMatching(ISO_Z),
        acknowledged_at: null,
        acknowledged_by: null,
        notes: null,
        resolved_at: null,
        resolved_by: null,
        resolution: null,
      });
      expect(body.data[0].enterprise_id).toBeNull();
    });

    it('orders by created_at descending, then id, across pages', async () => {
      for (let i = 0; i < 4; i += 1) await newAlert();
      const all = (await list('?page_size=100')).json();
      const rows = all.data as Array<{ id: string; created_at: string }>;
      // The oracle orders at the column's precision (microseconds): alerts raised within one millisecond
      // render the same created_at, yet are ordered by their exact times before their ids.
      const stored = await ctx.db.selectFrom('system_alerts').select('id').orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
      expect(rows.map((row) => row.id)).toEqual(stored.map((row) => row.id));
      const second = (await list('?page=2&page_size=3')).json();
      expect(second.data.map((row: { id: string }) => row.id)).toEqual(rows.slice(3, 6).map((row) => row.id));
      expect(second.pagination).toMatchObject({ page: 2, page_size: 3, total: rows.length, has_prev: true });
      const past = (await list('?page=999')).json();
      expect(past.data).toEqual([]);
      expect(past.pagination.total).toBe(rows.length);
    });

    it('filters by status and severity', async () => {
      const critical = await newAlert({ severity: 'critical' });
      const info = await newAlert({ severity: 'info' });
      expect((await patch(info.id, { status: 'acknowledged' })).statusCode).toBe(200);
      const acknowledgedInfo = (await list('?status=acknowledged&severity=info')).json();
      expect(acknowledgedInfo.data.map((alert: { id: string }) => alert.id)).toContain(info.id);
      expect(acknowledgedInfo.data.every((alert: { status: string; severity: string }) => alert.status === 'acknowledged' && alert.severity === 'info')).toBe(true);
      const openCritical = (await list('?status=open&severity=critical')).json();
      expect(openCritical.data.map((alert: { id: string }) => alert.id)).toContain(critical.id);
      expect(openCritical.data.every((alert: { status: string; severity: string }) => alert.status === 'open' && alert.severity === 'critical')).toBe(true);
      expect(openCritical.pagination.total).toBe(openCritical.data.length);
    });

    it('clamps page_size to 100 and refuses malformed query values with 400 (D2.2, D2.5)', async () => {
      expect((await list('?page_size=500')).json().pagination.page_size).toBe(100);
      for (const query of ['?status=closed', '?severity=fatal', '?page=0', '?page=abc', '?page_size=0']) {
        const response = await list(query);
        expect(response.statusCode, query).toBe(400);
        expect(response.json().code).toBe('BAD_REQUEST');
      }
    });

    it('is for super admins only: client admins (even about their own enterprise), assessors and reviewers get 403', async () => {
      await newAlert({ type: 'enterprise_health', severity: 'warning', enterpriseId: enterprise.id });
      for (const user of [clientAdmin, assessor, reviewer]) {
        await expectAccessDenied(ctx, user, await list('', await tokenFor(ctx, user)));
      }
      // One refusal, one entry: the client admin has made no other call yet.
      expect(await auditEntries(ctx, { userId: clientAdmin.id, action: 'access_denied' })).toHaveLength(1);
    });

    it('401 without a token', async () => {
      const response = await ctx.app.inject({ method: 'GET', url: ALERTS });
      expect(response.statusCode).toBe(401);
    });
  });

  describe('PATCH /admin/alerts/{alert_id}', () => {
    it('acknowledges an open alert: acknowledged_at, acknowledged_by, notes (3.3)', async () => {
      const alert = await newAlert();
      const response = await patch(alert.id, { status: 'acknowledged', notes: '  Looking into it  ' });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({
        data: {
          id: alert.id,
          status: 'acknowledged',
          acknowledged_at: expect.stringMatching(ISO_Z),
          acknowledged_by: superAdmin.id,
          notes: 'Looking into it',
        },
        message: expect.any(String),
      });
      const stored = await ctx.db.selectFrom('system_alerts').selectAll().where('id', '=', alert.id).executeTakeFirstOrThrow();
      expect(stored).toMatchObject({ status: 'acknowledged', acknowledged_by: superAdmin.id, notes: 'Looking into it', resolved_at: null });
    });

    it('resolves an acknowledged alert: resolved_at, resolved_by, resolution; acknowledgement kept', async () => {
      const alert = await newAlert();
      await patch(alert.id, { status: 'acknowledged' });
      const response = await patch(alert.id, { status: 'resolved', resolution: 'Index rebuilt' }, await tokenFor(ctx, otherSuperAdmin));
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().data).toEqual({
        id: alert.id,
        status: 'resolved',
        resolved_at: expect.stringMatching(ISO_Z),
        resolved_by: otherSuperAdmin.id,
        resolution: 'Index rebuilt',
      });
      const [listed] = (await list('?status=resolved&page_size=100')).json().data.filter((row: { id: string }) => row.id === alert.id);
      expect(listed).toMatchObject({ acknowledged_by: superAdmin.id, resolved_by: otherSuperAdmin.id, resolution: 'Index rebuilt', notes: null });
    });

    it('resolves an open alert directly; notes and resolution are optional', async () => {
      const alert = await newAlert();
      const response = await patch(alert.id, { status: 'resolved' });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().data).toMatchObject({ status: 'resolved', resolution: null, resolved_by: superAdmin.id });
    });

    it('409 INVALID_STATE: acknowledging an acknowledged or resolved alert, resolving a resolved one (D9.5)', async () => {
      const acknowledged = await newAlert();
      await patch(acknowledged.id, { status: 'acknowledged' });
      const resolved = await newAlert();
      await patch(resolved.id, { status: 'resolved' });
      for (const [id, body] of [
        [acknowledged.id, { status: 'acknowledged' }],
        [resolved.id, { status: 'acknowledged' }],
        [resolved.id, { status: 'resolved' }],
      ] as const) {
        const response = await patch(id, body);
        expect(response.statusCode, response.body).toBe(409);
        expect(response.json().code).toBe('INVALID_STATE');
      }
      const stored = await ctx.db.selectFrom('system_alerts').select(['status', 'resolved_by']).where('id', '=', resolved.id).executeTakeFirstOrThrow();
      expect(stored).toEqual({ status: 'resolved', resolved_by: superAdmin.id });
    });

    it('422 for a body that breaks its schema: wrong text for the status, unknown members, other statuses', async () => {
      const alert = await newAlert();
      for (const [body, field] of [
        [{ status: 'resolved', notes: 'x' }, 'notes'],
        [{ status: 'acknowledged', resolution: 'x' }, 'resolution'],
        [{ status: 'acknowledged', extra: 1 }, 'extra'],
        [{ status: 'open' }, 'status'],
        [{ notes: 'no status' }, 'status'],
        [{ status: 'resolved', resolution: 'x'.repeat(5001) }, 'resolution'],
      ] as const) {
        const response = await patch(alert.id, body);
        expect(response.statusCode, JSON.stringify(body)).toBe(422);
        expect(response.json().code).toBe('VALIDATION_ERROR');
        expect(response.json().details.fields.map((f: { field: string }) => f.field)).toContain(field);
      }
      const stored = await ctx.db.selectFrom('system_alerts').select('status').where('id', '=', alert.id).executeTakeFirstOrThrow();
      expect(stored.status).toBe('open');
    });

    it('404 for an unknown alert, 400 for an id that is not a UUID', async () => {
      const unknown = await patch(randomUUID(), { status: 'acknowledged' });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().code).toBe('NOT_FOUND');
      const malformed = await patch('not-a-uuid', { status: 'acknowledged' });
      expect(malformed.statusCode).toBe(400);
    });

    it('is for super admins only: a client admin gets 403 even for an alert about its own enterprise', async () => {
      const alert = await newAlert({ type: 'enterprise_health', severity: 'warning', enterpriseId: enterprise.id });
      for (const user of [clientAdmin, assessor, reviewer]) {
        const response = await patch(alert.id, { status: 'acknowledged' }, await tokenFor(ctx, user));
        expect(response.statusCode, user.role).toBe(403);
      }
      const stored = await ctx.db.selectFrom('system_alerts').select('status').where('id', '=', alert.id).executeTakeFirstOrThrow();
      expect(stored.status).toBe('open');
    });

    it('audits each change in the platform trail (system_alert / update), in the same transaction', async () => {
      const alert = await newAlert();
      await patch(alert.id, { status: 'acknowledged', notes: 'on it' });
      await patch(alert.id, { status: 'resolved', resolution: 'fixed' });
      await patch(alert.id, { status: 'resolved', resolution: 'refused: already resolved' });
      const entries = await auditEntries(ctx, { entityType: 'system_alert', entityId: alert.id });
      expect(entries).toHaveLength(2);
      for (const entry of entries) {
        expect(entry).toMatchObject({ enterprise_id: null, action_type: 'update', user_id: superAdmin.id, user_email: superAdmin.email, status: 'success' });
      }
      expect(entries.map((entry) => entry.action_details)).toEqual([
        expect.objectContaining({ from: 'open', to: 'acknowledged', notes: 'on it' }),
        expect.objectContaining({ from: 'acknowledged', to: 'resolved', resolution: 'fixed' }),
      ]);
    });

    it('of two concurrent changes from the same state, exactly one succeeds', async () => {
      for (const [first, second] of [
        [{ status: 'acknowledged' }, { status: 'acknowledged' }],
        [{ status: 'resolved' }, { status: 'resolved' }],
        [{ status: 'acknowledged' }, { status: 'resolved' }],
      ] as const) {
        const alert = await newAlert();
        const [a, b] = await Promise.all([patch(alert.id, first), patch(alert.id, second)]);
        const statuses = [a.statusCode, b.statusCode].sort();
        if (first.status === second.status) expect(statuses).toEqual([200, 409]);
        else expect(statuses.every((status) => status === 200 || status === 409)).toBe(true);
        const audits = await auditEntries(ctx, { entityId: alert.id });
        expect(audits).toHaveLength(statuses.filter((status) => status === 200).length);
      }
    });

    it('resolving frees the cause: the same condition raises a new alert afterwards', async () => {
      const boom = () => ctx.app.inject({ method: 'GET', url: '/api/v1/probe/boom' });
      const systemAlerts = async () => (await list('?page_size=100')).json().data.filter((alert: { type: string }) => alert.type === 'system');
      await boom();
      await ctx.monitor.flush();
      await boom();
      await ctx.monitor.flush();
      const [first] = await systemAlerts();
      expect(await systemAlerts()).toHaveLength(1);

      await patch(first.id, { status: 'acknowledged' });
      await boom();
      await ctx.monitor.flush();
      expect(await systemAlerts()).toHaveLength(1);

      expect((await patch(first.id, { status: 'resolved', resolution: 'deployed a fix' })).statusCode).toBe(200);
      await boom();
      await ctx.monitor.flush();
      const after = await systemAlerts();
      expect(after).toHaveLength(2);
      expect(after.map((alert: { status: string }) => alert.status).sort()).toEqual(['open', 'resolved']);
      expect(after.find((alert: { status: string }) => alert.status === 'open').id).not.toBe(first.id);
    });
  });
});
