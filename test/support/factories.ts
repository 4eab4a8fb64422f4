import { randomUUID } from 'node:crypto';
import { signAccessToken } from '../../src/modules/identity/provider/access-token.js';
import { createPasswordHasher } from '../../src/modules/identity/passwords.js';
import type { MemberRole } from '../../src/platform/db/tables/users.js';
import { TEST_PASSWORD_COST, type TestContext } from './app.js';

/**
 * Test factories: each creates the parents it needs unless given them. They write rows directly so
 * that a suite can set up any state; the behaviour under test always goes through the API (or, in
 * test/service, the services).
 */
const unique = (prefix: string) => `${prefix} ${randomUUID().slice(0, 8)}`;

/** What a factory needs: the database as its owner, from a suite's TestContext or the service tier's ServiceContext. */
export type Seeding = Pick<TestContext, 'db'>;

export async function createEnterprise(ctx: Seeding, values: { name?: string; status?: 'active' | 'inactive' } = {}) {
  return ctx.db
    .insertInto('enterprises')
    .values({ name: values.name ?? unique('Enterprise'), country: 'GB', status: values.status ?? 'active' })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface TestUser {
  id: string;
  email: string;
  fullName: string;
  role: MemberRole | 'super_admin';
  enterpriseId: string | null;
  memberId: string | null;
  password: string;
}

const TEST_PASSWORD = 'correct horse battery';
/** One hash for every user of a run, at the suites' cost (TEST_PASSWORD_COST). */
let passwordHash: Promise<string> | undefined;

export async function createUser(
  ctx: Seeding,
  values: { role: MemberRole | 'super_admin'; enterpriseId?: string; email?: string; fullName?: string } ,
): Promise<TestUser> {
  passwordHash ??= createPasswordHasher(TEST_PASSWORD_COST).hash(TEST_PASSWORD);
  const email = values.email ?? `${randomUUID().slice(0, 12)}@example.test`;
  const fullName = values.fullName ?? unique('User');
  const user = await ctx.db
    .insertInto('users')
    .values({ email, full_name: fullName, password_hash: await passwordHash, is_super_admin: values.role === 'super_admin' })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (values.role === 'super_admin') {
    return { id: user.id, email, fullName, role: 'super_admin', enterpriseId: null, memberId: null, password: TEST_PASSWORD };
  }
  const enterpriseId = values.enterpriseId ?? (await createEnterprise(ctx)).id;
  const member = await ctx.db
    .insertInto('enterprise_members')
    .values({ enterprise_id: enterpriseId, user_id: user.id, role: values.role })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: user.id, email, fullName, role: values.role, enterpriseId, memberId: member.id, password: TEST_PASSWORD };
}

/** A signed access token of a fresh session, as the embedded provider would issue it. */
export async function tokenFor(ctx: TestContext, user: { id: string; email: string }): Promise<string> {
  const session = await ctx.db.insertInto('auth_sessions').values({ user_id: user.id }).returning('id').executeTakeFirstOrThrow();
  const { token } = await signAccessToken(
    { userId: user.id, email: user.email, sessionId: session.id },
    ctx.secrets,
    { issuer: ctx.config.auth.issuer, audience: ctx.config.auth.audience },
  );
  return token;
}

export async function createLegalEntity(ctx: Seeding, enterpriseId: string, name = unique('Entity')) {
  return ctx.db
    .insertInto('legal_entities')
    .values({ enterprise_id: enterpriseId, name })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function createBusinessUnit(ctx: Seeding, enterpriseId: string, legalEntityId: string, name = unique('Unit')) {
  return ctx.db
    .insertInto('business_units')
    .values({ enterprise_id: enterpriseId, legal_entity_id: legalEntityId, name })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function assignEntity(
  ctx: Seeding,
  user: TestUser,
  legalEntityId: string,
  businessUnitId: string | null = null,
) {
  return ctx.db
    .insertInto('entity_roles')
    .values({
      enterprise_id: user.enterpriseId as string,
      user_id: user.id,
      legal_entity_id: legalEntityId,
      business_unit_id: businessUnitId,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
