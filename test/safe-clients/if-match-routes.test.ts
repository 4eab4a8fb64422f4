import { randomUUID } from 'node:crypto';
import type { HTTPMethods, RouteOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { raiseAlert } from '../../src/platform/monitoring/alert-raiser.js';
import { insertAction } from '../support/actions-factories.js';
import { sessionHeaders } from '../support/api.js';
import { createTestContext } from '../support/app.js';
import { addScenarioLink, createAppetite, createBra, createBraWorld, createSubControl } from '../support/bras-factories.js';
import { createKeyControl } from '../support/controls-factories.js';
import type { TestUser } from '../support/factories.js';

type VersionedTable =
  | 'service_accounts'
  | 'scim_groups'
  | 'sso_connections'
  | 'mitigation_actions'
  | 'key_controls'
  | 'sub_controls'
  | 'risk_appetites'
  | 'system_alerts'
  | 'enterprises'
  | 'webhook_endpoints'
  | 'legal_entities'
  | 'business_units'
  | 'risk_scenarios'
  | 'enterprise_members'
  | 'risk_acceptances';

/**
 * One change of a versioned resource, on a fresh row: who sends what, and which row it changes. `read`: the
 * resource's own GET, where it has one, whose ETag is the state's (one state, one tag).
 */
interface ChangeCase {
  route: string;
  make(): Promise<{ user: TestUser; url: string; body?: object; table: VersionedTable; id: string; read?: string; audited?: string }>;
}

/**
 * If-Match on every change of a versioned resource but the BRA's (bra-etags.test.ts): a stale ETag is 412
 * with the current one in details and changes nothing; the current one applies and answers the new ETag;
 * with REQUIRE_IF_MATCH=true a change without it is 428. Every route declaring ifMatch is covered here or
 * in bra-etags.test.ts.
 */
describe('safe clients: If-Match on every PATCH and state action', async () => {
  const declared: string[] = [];
  const ctx = await createTestContext({
    onRoute: (route: RouteOptions) => {
      if (route.config?.ifMatch === true) declared.push(`${[route.method].flat().join(',')} ${route.url}`);
    },
  });
  const strict = await createTestContext({ env: { REQUIRE_IF_MATCH: 'true' }, database: ctx.database });
  const w = await createBraWorld(ctx);
  const headersOf = sessionHeaders(ctx);
  const send = async (app: typeof ctx.app, user: TestUser, method: HTTPMethods, url: string, headers: Record<string, string>, body?: object) =>
    app.inject({ method, url: `/api/v1${url}`, headers: { ...(await headersOf(user)), ...headers }, ...(body !== undefined ? { payload: body } : {}) });
  const versionOf = async (table: VersionedTable, id: string) =>
    (await ctx.db.selectFrom(table).select('row_version').where('id', '=', id).executeTakeFirstOrThrow()).row_version;
  const entriesOf = async (id: string) =>
    Number((await ctx.db.selectFrom('audit_log').select((eb) => eb.fn.countAll().as('n')).where('entity_id', '=', id).executeTakeFirstOrThrow()).n);

  const action = async () => insertAction(ctx, { enterpriseId: w.enterprise.id });
  const serviceAccount = async () => {
    const user = await ctx.db.insertInto('users').values({ email: `${randomUUID()}@service-accounts.invalid`, full_name: 'Integration' }).returning('id').executeTakeFirstOrThrow();
    await ctx.db.insertInto('service_accounts').values({ id: user.id, enterprise_id: w.enterprise.id, name: `Integration ${randomUUID().slice(0, 8)}`, description: null, role: 'reviewer', created_by: null }).execute();
    return user;
  };
  const scimGroup = async () =>
    ctx.db.insertInto('scim_groups').values({ enterprise_id: w.enterprise.id, display_name: `Group ${randomUUID().slice(0, 8)}`, external_id: null }).returning('id').executeTakeFirstOrThrow();
  const ssoConnection = async () =>
    ctx.db
      .insertInto('sso_connections')
      .values({ enterprise_id: w.enterprise.id, type: 'oidc', name: `IdP ${randomUUID().slice(0, 8)}`, issuer: 'https://idp.example.com', client_id: 'client', client_secret: 'secret', jit_role: null })
      .returning('id')
      .executeTakeFirstOrThrow();
  const webhook = async () =>
    ctx.db
      .insertInto('webhook_endpoints')
      .values({ enterprise_id: w.enterprise.id, url: 'https://hooks.example.com/risk', event_types: ['bra.approved'], description: null, secret: `whsec_${randomUUID()}` })
      .returning('id')
      .executeTakeFirstOrThrow();
  const legalEntity = async () =>
    ctx.db.insertInto('legal_entities').values({ enterprise_id: w.enterprise.id, name: `Entity ${randomUUID().slice(0, 8)}` }).returning('id').executeTakeFirstOrThrow();
  const businessUnit = async () => {
    const entity = await legalEntity();
    return ctx.db
      .insertInto('business_units')
      .values({ enterprise_id: w.enterprise.id, legal_entity_id: entity.id, name: `Unit ${randomUUID().slice(0, 8)}` })
      .returning(['id', 'legal_entity_id'])
      .executeTakeFirstOrThrow();
  };
  const riskScenario = async () =>
    ctx.db
      .insertInto('risk_scenarios')
      .values({ enterprise_id: w.enterprise.id, name: `Scenario ${randomUUID().slice(0, 8)}`, category: 'External Fraud', description: null })
      .returning('id')
      .executeTakeFirstOrThrow();
  const cases: ChangeCase[] = [
    {
      route: 'PATCH /api/v1/legal-entities/:id',
      make: async () => {
        const { id } = await legalEntity();
        return { user: w.admin, url: `/legal-entities/${id}`, body: { name: `Renamed ${randomUUID().slice(0, 8)}` }, table: 'legal_entities', id };
      },
    },
    {
      route: 'POST /api/v1/legal-entities/:id/archive',
      make: async () => {
        const { id } = await legalEntity();
        return { user: w.admin, url: `/legal-entities/${id}/archive`, table: 'legal_entities', id };
      },
    },
    {
      route: 'PATCH /api/v1/business-units/:id',
      make: async () => {
        const unit = await businessUnit();
        const body = { name: `Renamed ${randomUUID().slice(0, 8)}` };
        return { user: w.admin, url: `/business-units/${unit.id}`, body, table: 'business_units', id: unit.id };
      },
    },
    {
      route: 'POST /api/v1/business-units/:id/archive',
      make: async () => {
        const unit = await businessUnit();
        return { user: w.admin, url: `/business-units/${unit.id}/archive`, table: 'business_units', id: unit.id };
      },
    },
    {
      route: 'PATCH /api/v1/risk-scenarios/:id',
      make: async () => {
        const { id } = await riskScenario();
        return { user: w.admin, url: `/risk-scenarios/${id}`, body: { category: 'Internal Fraud' }, table: 'risk_scenarios', id };
      },
    },
    {
      route: 'POST /api/v1/risk-scenarios/:id/archive',
      make: async () => {
        const { id } = await riskScenario();
        return { user: w.admin, url: `/risk-scenarios/${id}/archive`, table: 'risk_scenarios', id };
      },
    },
    {
      route: 'PATCH /api/v1/mitigation-actions/:action_id',
      make: async () => ({ user: w.admin, url: `/mitigation-actions/${(await action()).id}`, body: { status: 'in_progress' }, table: 'mitigation_actions', id: '' }),
    },
    {
      route: 'POST /api/v1/mitigation-actions/:action_id/archive',
      make: async () => ({ user: w.admin, url: `/mitigation-actions/${(await action()).id}/archive`, table: 'mitigation_actions', id: '' }),
    },
    {
      route: 'PATCH /api/v1/controls/key-controls/:key_control_id',
      make: async () => {
        const control = await createKeyControl(ctx, w.enterprise.id);
        return { user: w.admin, url: `/controls/key-controls/${control.id}`, body: { name: `Renamed ${randomUUID().slice(0, 8)}` }, table: 'key_controls', id: control.id };
      },
    },
    {
      route: 'POST /api/v1/controls/key-controls/:key_control_id/archive',
      make: async () => {
        const control = await createKeyControl(ctx, w.enterprise.id);
        return { user: w.admin, url: `/controls/key-controls/${control.id}/archive`, table: 'key_controls', id: control.id };
      },
    },
    {
      route: 'PATCH /api/v1/controls/sub-controls/:sub_control_id',
      make: async () => {
        const { subControl } = await createSubControl(ctx, w.enterprise.id);
        return { user: w.admin, url: `/controls/sub-controls/${subControl.id}`, body: { tod: 'A', toe: '1' }, table: 'sub_controls', id: subControl.id, read: `/controls/sub-controls/${subControl.id}` };
      },
    },
    {
      route: 'POST /api/v1/controls/sub-controls/:sub_control_id/archive',
      make: async () => {
        const { subControl } = await createSubControl(ctx, w.enterprise.id);
        return { user: w.admin, url: `/controls/sub-controls/${subControl.id}/archive`, table: 'sub_controls', id: subControl.id, read: `/controls/sub-controls/${subControl.id}` };
      },
    },
    {
      route: 'POST /api/v1/controls/sub-controls/:sub_control_id/tests',
      make: async () => {
        const { subControl } = await createSubControl(ctx, w.enterprise.id);
        const body = { tod: 'B', toe: '2', testing_date: '2026-11-02', tested_by: 'Internal Audit', evidence_notes: 'Sample of 25' };
        return { user: w.admin, url: `/controls/sub-controls/${subControl.id}/tests`, body, table: 'sub_controls', id: subControl.id, read: `/controls/sub-controls/${subControl.id}` };
      },
    },
    {
      route: 'PATCH /api/v1/webhooks/:webhook_id',
      make: async () => {
        const { id } = await webhook();
        return { user: w.admin, url: `/webhooks/${id}`, body: { description: `Renamed ${randomUUID().slice(0, 8)}` }, table: 'webhook_endpoints', id, read: `/webhooks/${id}` };
      },
    },
    {
      route: 'DELETE /api/v1/webhooks/:webhook_id',
      make: async () => {
        const { id } = await webhook();
        return { user: w.admin, url: `/webhooks/${id}`, table: 'webhook_endpoints', id, read: `/webhooks/${id}` };
      },
    },
    {
      route: 'PATCH /api/v1/service-accounts/:service_account_id',
      make: async () => {
        const { id } = await serviceAccount();
        return { user: w.admin, url: `/service-accounts/${id}`, body: { description: 'Nightly load' }, table: 'service_accounts', id, read: `/service-accounts/${id}` };
      },
    },
    {
      route: 'DELETE /api/v1/service-accounts/:service_account_id',
      make: async () => {
        const { id } = await serviceAccount();
        return { user: w.admin, url: `/service-accounts/${id}`, table: 'service_accounts', id, read: `/service-accounts/${id}` };
      },
    },
    {
      route: 'PATCH /api/v1/scim/groups/:group_id',
      make: async () => {
        const { id } = await scimGroup();
        return { user: w.admin, url: `/scim/groups/${id}`, body: { role: 'reviewer' }, table: 'scim_groups', id, read: `/scim/groups/${id}` };
      },
    },
    {
      route: 'PATCH /api/v1/sso/connections/:connection_id',
      make: async () => {
        const { id } = await ssoConnection();
        return { user: w.admin, url: `/sso/connections/${id}`, body: { enforce_sso: true }, table: 'sso_connections', id, read: `/sso/connections/${id}` };
      },
    },
    {
      route: 'DELETE /api/v1/sso/connections/:connection_id',
      make: async () => {
        const { id } = await ssoConnection();
        return { user: w.admin, url: `/sso/connections/${id}`, table: 'sso_connections', id, read: `/sso/connections/${id}` };
      },
    },
    {
      route: 'POST /api/v1/webhooks/:webhook_id/rotate-secret',
      make: async () => {
        const { id } = await webhook();
        return { user: w.admin, url: `/webhooks/${id}/rotate-secret`, table: 'webhook_endpoints', id, read: `/webhooks/${id}` };
      },
    },
    {
      route: 'POST /api/v1/governance/risk-appetite',
      make: async () => {
        const entity = await ctx.db.insertInto('legal_entities').values({ enterprise_id: w.enterprise.id, name: `Entity ${randomUUID().slice(0, 8)}` }).returning('id').executeTakeFirstOrThrow();
        const appetite = await createAppetite(ctx, w.enterprise.id, { threshold: 6, legalEntityId: entity.id });
        return { user: w.admin, url: '/governance/risk-appetite', body: { legal_entity_id: entity.id, risk_level: 'High', threshold_value: 12 }, table: 'risk_appetites', id: appetite.id };
      },
    },
    {
      route: 'DELETE /api/v1/governance/risk-appetite/:risk_appetite_id',
      make: async () => {
        const entity = await ctx.db.insertInto('legal_entities').values({ enterprise_id: w.enterprise.id, name: `Entity ${randomUUID().slice(0, 8)}` }).returning('id').executeTakeFirstOrThrow();
        const appetite = await createAppetite(ctx, w.enterprise.id, { threshold: 6, legalEntityId: entity.id });
        return { user: w.admin, url: `/governance/risk-appetite/${appetite.id}`, table: 'risk_appetites', id: appetite.id };
      },
    },
    {
      route: 'PATCH /api/v1/admin/alerts/:alert_id',
      make: async () => {
        const cause = `test:${randomUUID()}`;
        await raiseAlert(ctx.db, { type: 'database', severity: 'error', title: 'Database error', message: 'Database error', enterpriseId: null, cause });
        const alert = await ctx.db.selectFrom('system_alerts').select('id').where('cause', '=', cause).executeTakeFirstOrThrow();
        return { user: w.superAdmin, url: `/admin/alerts/${alert.id}`, body: { status: 'acknowledged' }, table: 'system_alerts', id: alert.id };
      },
    },
    {
      route: 'PATCH /api/v1/admin/enterprises/:enterprise_id',
      make: async () => {
        const enterprise = await ctx.db.insertInto('enterprises').values({ name: `Enterprise ${randomUUID().slice(0, 8)}`, country: 'GB' }).returning('id').executeTakeFirstOrThrow();
        return { user: w.superAdmin, url: `/admin/enterprises/${enterprise.id}`, body: { subscription_tier: 'enterprise' }, table: 'enterprises', id: enterprise.id };
      },
    },
    {
      // A risk acceptance's revocation: its version (1 active, 2 ended) and its read's digest.
      route: 'POST /api/v1/risk-acceptances/:acceptance_id/revoke',
      make: async () => {
        const bra = await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: w.entity.id, createdBy: w.admin.id, status: 'in_progress' });
        const link = await addScenarioLink(ctx, bra);
        const { id } = await ctx.db
          .insertInto('risk_acceptances')
          .values({ enterprise_id: w.enterprise.id, bra_id: bra.id, bra_risk_scenario_id: link.id, rationale: 'Within the reserve', conditions: null, mitigation_action_id: null, expires_on: '2099-12-31', accepted_residual_score: 16, accepted_threshold: 9, accepted_by: w.admin.id, renews_id: null })
          .returning('id')
          .executeTakeFirstOrThrow();
        return { user: w.admin, url: `/risk-acceptances/${id}/revoke`, body: { reason: 'Withdrawn' }, table: 'risk_acceptances', id, read: `/risk-acceptances/${id}` };
      },
    },
    {
      // A member's role: the membership's version, the entry on the user.
      route: 'PATCH /api/v1/admin/enterprises/:enterprise_id/users/:user_id',
      make: async () => {
        const user = await ctx.db.insertInto('users').values({ email: `${randomUUID()}@example.test`, full_name: 'Member' }).returning('id').executeTakeFirstOrThrow();
        const member = await ctx.db.insertInto('enterprise_members').values({ enterprise_id: w.enterprise.id, user_id: user.id, role: 'assessor' }).returning('id').executeTakeFirstOrThrow();
        return { user: w.admin, url: `/admin/enterprises/${w.enterprise.id}/users/${user.id}`, body: { role: 'reviewer' }, table: 'enterprise_members', id: member.id, audited: user.id };
      },
    },
  ];
  const methodOf = (route: string) => route.split(' ')[0] as HTTPMethods;
  /** The made case, with the id of the row read from its URL when the factory did not give it. */
  const made = async (change: ChangeCase) => {
    const made = await change.make();
    return { ...made, id: made.id || made.url.split('/')[2]! };
  };

  it('every route declaring ifMatch is covered here or by the BRA suite', () => {
    const braRoutes = declared.filter((route) => route.includes('/api/v1/bras/'));
    expect(braRoutes.length).toBeGreaterThan(0);
    expect(declared.filter((route) => !braRoutes.includes(route)).sort()).toEqual(cases.map((change) => change.route).sort());
  });

  for (const change of cases) {
    it(`${change.route}: a stale ETag is 412 with the current one and changes nothing; the current one applies and answers the new`, async () => {
      const { user, url, body, table, id, read, audited = id } = await made(change);
      // The tag of the resource's state: what its read answers where it has one, else its version.
      const tagNow = async () => (read === undefined ? `"${await versionOf(table, id)}"` : String((await send(ctx.app, user, 'GET', read, {})).headers['etag']));
      const version = await versionOf(table, id);
      const tag = await tagNow();
      expect(tag).toMatch(new RegExp(`^"${version}(\\.[A-Za-z0-9_-]{22})?"$`));
      const entries = await entriesOf(audited);
      for (const staleTag of [`"${version + 1000}"`, `W/${tag}`]) {
        const stale = await send(ctx.app, user, methodOf(change.route), url, { 'if-match': staleTag }, body);
        expect(stale.statusCode, stale.body).toBe(412);
        expect(stale.json()).toMatchObject({ code: 'PRECONDITION_FAILED', details: { current_etag: tag } });
        expect(await versionOf(table, id)).toBe(version);
        expect(await entriesOf(audited)).toBe(entries);
      }

      const current = await send(ctx.app, user, methodOf(change.route), url, { 'if-match': tag }, body);
      expect(current.statusCode, current.body).toBeLessThan(300);
      if (methodOf(change.route) !== 'DELETE') expect(current.headers['etag']).toBe(await tagNow());
      expect(await entriesOf(audited)).toBeGreaterThan(entries);
    });

    it(`${change.route}: with REQUIRE_IF_MATCH=true, none is 428 and changes nothing`, async () => {
      const { user, url, body, table, id } = await made(change);
      const version = await versionOf(table, id);
      const bare = await send(strict.app, user, methodOf(change.route), url, {}, body);
      expect(bare.statusCode, bare.body).toBe(428);
      expect(bare.json().code).toBe('PRECONDITION_REQUIRED');
      expect(await versionOf(table, id)).toBe(version);
    });
  }

  it('the appetite upsert with If-Match for a scope that has no record yet is 412: there is no version to match', async () => {
    const entity = await ctx.db.insertInto('legal_entities').values({ enterprise_id: w.enterprise.id, name: `Entity ${randomUUID().slice(0, 8)}` }).returning('id').executeTakeFirstOrThrow();
    const answer = await send(ctx.app, w.admin, 'POST', '/governance/risk-appetite', { 'if-match': '"1"' }, { legal_entity_id: entity.id, risk_level: 'Low', threshold_value: 3 });
    expect(answer.statusCode).toBe(412);
    const created = await send(strict.app, w.admin, 'POST', '/governance/risk-appetite', {}, { legal_entity_id: entity.id, risk_level: 'Low', threshold_value: 3 });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.headers['etag']).toBe('"1"');
  });

  it('another enterprise\'s action is 404 whatever the If-Match', async () => {
    const row = await action();
    const answer = await send(ctx.app, w.otherAdmin, 'PATCH', `/mitigation-actions/${row.id}`, { 'if-match': '"1"' }, { status: 'completed' });
    expect(answer.statusCode).toBe(404);
  });
});
