import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../support/app.js';
import { createEnterprise, createUser, type TestUser } from '../support/factories.js';
import { STARTER_LIBRARY } from '../../src/modules/controls/starter-library/starter-library.js';
import { calls } from '../support/cast.js';

const SUB_CONTROLS = STARTER_LIBRARY.reduce((sum, control) => sum + control.subControls.length, 0);

/** The starter control library: POST /controls/starter-library (client admins, once) and POST /admin/enterprises { starter_library }. */
describe('the starter control library', async () => {
  const ctx = await createTestContext();
  const superAdmin = await createUser(ctx, { role: 'super_admin' });
  const { call } = calls(ctx);

  /** An enterprise as a super admin creates it (with its scenario catalogue), and its client admin. */
  async function newEnterprise(body: Record<string, unknown> = {}) {
    const created = await call(superAdmin, 'POST', '/admin/enterprises', { name: `Starter ${randomUUID()}`, country: 'FR', ...body });
    expect(created.statusCode, created.body).toBe(201);
    const enterpriseId = created.json().data.id as string;
    return { enterpriseId, admin: await createUser(ctx, { role: 'admin', enterpriseId }) };
  }
  const keyControlTotal = async (user: TestUser) => (await call(user, 'GET', '/controls/key-controls')).json().pagination.total as number;
  const links = (ctx: TestContext, enterpriseId: string) =>
    ctx.db
      .selectFrom('key_control_risk_scenarios as l')
      .innerJoin('risk_scenarios as s', (join) => join.onRef('s.id', '=', 'l.risk_scenario_id').onRef('s.enterprise_id', '=', 'l.enterprise_id'))
      .innerJoin('key_controls as k', (join) => join.onRef('k.id', '=', 'l.key_control_id').onRef('k.enterprise_id', '=', 'l.enterprise_id'))
      .select(['k.name as control', 's.name as scenario'])
      .where('l.enterprise_id', '=', enterpriseId)
      .execute();

  it('loads 60+ key controls with their sub-controls, linked to the catalogue scenarios they mitigate, audited', async () => {
    const { enterpriseId, admin } = await newEnterprise();
    const response = await call(admin, 'POST', '/controls/starter-library');
    expect(response.statusCode, response.body).toBe(201);
    const data = response.json().data;
    expect(data.key_controls).toBe(STARTER_LIBRARY.length);
    expect(data.key_controls).toBeGreaterThanOrEqual(60);
    expect(data.sub_controls).toBe(SUB_CONTROLS);
    expect(await keyControlTotal(admin)).toBe(STARTER_LIBRARY.length);

    const stored = await links(ctx, enterpriseId);
    expect(data.risk_scenario_links).toBe(stored.length);
    const expected = STARTER_LIBRARY.flatMap((control) => control.mitigates.map((scenario) => `${control.name} -> ${scenario}`)).sort();
    expect(stored.map((link) => `${link.control} -> ${link.scenario}`).sort()).toEqual(expected);

    const entry = await ctx.db
      .selectFrom('audit_log')
      .select(['action_type', 'entity_type', 'user_id', 'action_details'])
      .where('enterprise_id', '=', enterpriseId)
      .where('entity_type', '=', 'control')
      .executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ action_type: 'create', user_id: admin.id, action_details: { control_kind: 'starter_library', key_controls: STARTER_LIBRARY.length } });
  });

  it('counts every loaded sub-control as not_assessed in the effectiveness summary', async () => {
    const { admin } = await newEnterprise();
    await call(admin, 'POST', '/controls/starter-library');
    const summary = (await call(admin, 'GET', '/controls/effectiveness')).json().data;
    expect(summary).toMatchObject({
      highly_effective: 0,
      effective: 0,
      moderately_effective: 0,
      less_effective: 0,
      not_effective: 0,
      not_assessed: SUB_CONTROLS,
      total: SUB_CONTROLS,
    });
  });

  it('loads once: a second load answers 409 INVALID_STATE and changes nothing', async () => {
    const { admin } = await newEnterprise();
    expect((await call(admin, 'POST', '/controls/starter-library')).statusCode).toBe(201);
    const again = await call(admin, 'POST', '/controls/starter-library');
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('INVALID_STATE');
    expect(await keyControlTotal(admin)).toBe(STARTER_LIBRARY.length);
  });

  it('is refused to assessors, reviewers and super admins (D5: changes to the control library)', async () => {
    const { enterpriseId, admin } = await newEnterprise();
    for (const role of ['assessor', 'reviewer'] as const) {
      const user = await createUser(ctx, { role, enterpriseId });
      expect((await call(user, 'POST', '/controls/starter-library')).statusCode, role).toBe(403);
    }
    expect((await call(superAdmin, 'POST', '/controls/starter-library')).statusCode).toBe(403);
    expect(await keyControlTotal(admin)).toBe(0);
  });

  it('loads into the caller’s enterprise only: another enterprise sees none of it and can load its own', async () => {
    const first = await newEnterprise();
    const second = await newEnterprise();
    expect((await call(first.admin, 'POST', '/controls/starter-library')).statusCode).toBe(201);
    expect(await keyControlTotal(second.admin)).toBe(0);
    expect(await links(ctx, second.enterpriseId)).toHaveLength(0);
    expect((await call(second.admin, 'POST', '/controls/starter-library')).statusCode).toBe(201);
    expect(await keyControlTotal(second.admin)).toBe(STARTER_LIBRARY.length);
    expect(await keyControlTotal(first.admin)).toBe(STARTER_LIBRARY.length);
  });

  it('comes with a new enterprise when the super admin asks for it (starter_library: true), and then cannot be loaded again', async () => {
    const withLibrary = await newEnterprise({ starter_library: true });
    expect(await keyControlTotal(withLibrary.admin)).toBe(STARTER_LIBRARY.length);
    expect((await links(ctx, withLibrary.enterpriseId)).length).toBeGreaterThan(60);
    expect((await call(withLibrary.admin, 'POST', '/controls/starter-library')).statusCode).toBe(409);
    const without = await newEnterprise({ starter_library: false });
    expect(await keyControlTotal(without.admin)).toBe(0);
  });

  it('links nothing for a catalogue without those scenarios (an enterprise made without the starter catalogue)', async () => {
    const bare = await createEnterprise(ctx);
    const admin = await createUser(ctx, { role: 'admin', enterpriseId: bare.id });
    const response = await call(admin, 'POST', '/controls/starter-library');
    expect(response.statusCode).toBe(201);
    expect(response.json().data.risk_scenario_links).toBe(0);
  });
});
