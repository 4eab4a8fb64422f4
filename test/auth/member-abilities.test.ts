import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { cast } from '../support/cast.js';
import { createUser, type TestUser } from '../support/factories.js';

type Role = 'admin' | 'assessor' | 'reviewer';

/**
 * Members' and enterprises' abilities: what the member list (and the enterprise list) says the caller may do is
 * what the service then allows. For each administrator and each member, a fresh member is listed (their
 * abilities), then each call is made: an ability of true is never refused by policy or state (403, 409), one of
 * false always is (403, 404 or 409).
 */
describe('abilities: members and enterprises', async () => {
  const ctx = await createTestContext();
  const { enterprise: home, superAdmin, admin, assessor, reviewer, call } = await cast(ctx);
  const usersUrl = `/admin/enterprises/${home.id}/users`;
  const abilitiesOf = async (caller: TestUser, target: TestUser) => {
    const listed = await call(caller, 'GET', `${usersUrl}?include_inactive=true`);
    expect(listed.statusCode, listed.body).toBe(200);
    return listed.json().data.find((row: { user_id: string }) => row.user_id === target.id).abilities as Record<string, boolean>;
  };
  const deactivated = async (role: Role) => {
    const user = await createUser(ctx, { role, enterpriseId: home.id });
    expect((await call(superAdmin, 'DELETE', `${usersUrl}/${user.id}`)).statusCode).toBe(200);
    return user;
  };
  const refused = (status: number) => [403, 404, 409].includes(status);

  const acts: Record<string, (caller: TestUser, target: TestUser) => Promise<boolean>> = {
    // Some other role is given (the first one allowed): true when one was.
    change_role: async (caller, target) => {
      for (const role of (['admin', 'assessor', 'reviewer'] as const).filter((r) => r !== target.role)) {
        if (!refused((await call(caller, 'PATCH', `${usersUrl}/${target.id}`, { role })).statusCode)) return true;
      }
      return false;
    },
    deactivate: async (caller, target) => !refused((await call(caller, 'DELETE', `${usersUrl}/${target.id}`)).statusCode),
    reactivate: async (caller, target) => !refused((await call(caller, 'POST', `${usersUrl}/${target.id}/reactivate`)).statusCode),
    manage_entity_roles: async (caller, target) => !refused((await call(caller, 'GET', `/admin/users/${target.id}/entity-roles`)).statusCode),
  };

  const callers: [string, TestUser][] = [
    ['super admin', superAdmin],
    ['client admin', admin],
  ];
  for (const [who, caller] of callers) {
    for (const state of ['active', 'deactivated'] as const) {
      for (const role of ['admin', 'assessor', 'reviewer'] as const) {
        for (const ability of Object.keys(acts)) {
          it(`${ability} on an ${state} ${role}, as the ${who}`, async () => {
            const target = state === 'active' ? await createUser(ctx, { role, enterpriseId: home.id }) : await deactivated(role);
            const announced = (await abilitiesOf(caller, target))[ability];
            expect(typeof announced).toBe('boolean');
            expect(await acts[ability]!(caller, target), `${ability} announced ${announced}`).toBe(announced);
          });
        }
      }
    }
  }

  it('a client admin may do nothing to their own membership but manage their entity access: the list says so, and the calls agree', async () => {
    const own = await abilitiesOf(admin, admin);
    expect(own).toEqual({ change_role: false, deactivate: false, reactivate: false, manage_entity_roles: true });
    expect(await acts.change_role!(admin, admin)).toBe(false);
    expect(await acts.deactivate!(admin, admin)).toBe(false);
    expect(await acts.manage_entity_roles!(admin, admin)).toBe(true);
  });

  it("a client admin's abilities over members follow D5: assessors and reviewers, never another client admin's role", async () => {
    const otherAdmin = await createUser(ctx, { role: 'admin', enterpriseId: home.id });
    const member = await createUser(ctx, { role: 'assessor', enterpriseId: home.id });
    expect(await abilitiesOf(admin, otherAdmin)).toEqual({ change_role: false, deactivate: true, reactivate: false, manage_entity_roles: true });
    expect(await abilitiesOf(admin, member)).toEqual({ change_role: true, deactivate: true, reactivate: false, manage_entity_roles: true });
    expect(await abilitiesOf(superAdmin, otherAdmin)).toEqual({ change_role: true, deactivate: true, reactivate: false, manage_entity_roles: true });
  });

  it('assessors and reviewers see no member list (403): no abilities to read, none to use', async () => {
    for (const user of [assessor, reviewer]) {
      expect((await call(user, 'GET', usersUrl)).statusCode).toBe(403);
      expect(await acts.deactivate!(user, admin)).toBe(false);
      expect(await acts.manage_entity_roles!(user, admin)).toBe(false);
    }
  });

  it("the enterprise list's abilities (super admins): a status and a tier change are then allowed", async () => {
    const listed = await call(superAdmin, 'GET', '/admin/enterprises?page_size=100');
    expect(listed.statusCode, listed.body).toBe(200);
    const row = listed.json().data.find((item: { id: string }) => item.id === home.id);
    expect(row.abilities).toEqual({ update: true, change_tier: true });
    const changed = await call(superAdmin, 'PATCH', `/admin/enterprises/${home.id}`, { subscription_tier: 'enterprise' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await call(admin, 'PATCH', `/admin/enterprises/${home.id}`, { subscription_tier: 'starter' })).statusCode).toBe(403);
  });
});
