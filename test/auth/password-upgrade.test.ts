import { describe, expect, it } from 'vitest';
import { SCRYPT_COST, createPasswordHasher } from '../../src/modules/identity/passwords.js';
import { TEST_PASSWORD_COST, createTestContext } from '../support/app.js';
import { createUser } from '../support/factories.js';
import { providerCalls } from '../support/provider.js';

/** Passwords: scrypt at OWASP's minimum (N=2^17, r=8, p=1); older, cheaper hashes upgraded at sign-in. */
describe('password hashing cost', async () => {
  // This app hashes at the service's own cost; the factories' users carry the suites' cheaper hash,
  // which is exactly an "old" hash here.
  const ctx = await createTestContext({ passwordCost: SCRYPT_COST });
  const { passwordGrant, signIn } = providerCalls(ctx);
  const storedHash = async (userId: string) =>
    (await ctx.db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirstOrThrow()).password_hash!;

  it('the service cost is N=2^17, r=8, p=1, and hashes say so', async () => {
    expect(SCRYPT_COST).toEqual({ N: 131072, r: 8, p: 1 });
    expect(TEST_PASSWORD_COST.N).toBeLessThan(SCRYPT_COST.N);
    expect(await createPasswordHasher().hash('a password')).toMatch(/^scrypt\$131072\$8\$1\$/);
  });

  it('an old hash is upgraded at the next successful sign-in, and the password keeps working', async () => {
    const user = await createUser(ctx, { role: 'assessor' });
    expect(await storedHash(user.id)).toMatch(/^scrypt\$1024\$8\$1\$/);
    await signIn(user);
    const upgraded = await storedHash(user.id);
    expect(upgraded).toMatch(/^scrypt\$131072\$8\$1\$/);
    await signIn(user);
    expect(await storedHash(user.id)).toBe(upgraded);
  });

  it('a refused sign-in upgrades nothing', async () => {
    const user = await createUser(ctx, { role: 'reviewer' });
    const before = await storedHash(user.id);
    expect((await passwordGrant({ email: user.email, password: 'not the password' })).statusCode).toBe(400);
    expect(await storedHash(user.id)).toBe(before);
  });
});
