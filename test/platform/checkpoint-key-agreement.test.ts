import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { moduleServices } from '../../src/modules/index.js';
import { keyIdOf } from '../../src/platform/audit/checkpoint-signature.js';
import { untrustedCheckpointKeys } from '../../src/platform/startup-checks.js';
import { createTestContext } from '../support/app.js';
import { bearer, createUser, tokenFor } from '../support/factories.js';

/**
 * docs/scaling.md: instances on one database must share AUDIT_SIGNING_KEY (D7.5 keeps it out of the
 * database). An instance with a key of its own finds, at start, the checkpoints it would not trust, and
 * the service warns of them.
 */
const newKey = () => generateKeyPairSync('ed25519');
const der = (key: ReturnType<typeof newKey>) => key.privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64');

describe('audit checkpoint keys across instances on one database', async () => {
  const shared = newKey();
  const ctx = await createTestContext({ env: { AUDIT_SIGNING_KEY: der(shared) } });
  afterAll(() => ctx.close());

  it("names the keys of other instances' checkpoints that this instance does not trust, and none when the key is shared", async () => {
    const superAdmin = await createUser(ctx, { role: 'super_admin' });
    const created = await ctx.app.inject({ method: 'POST', url: '/api/v1/admin/enterprises', headers: bearer(await tokenFor(ctx, superAdmin)), payload: { name: `Keys ${randomUUID()}`, country: 'GB' } });
    expect(created.statusCode).toBe(201);
    const platform = { config: ctx.config, principals: null as never, log: ctx.app.log, mail: null as never, reads: null as never };
    expect(await moduleServices(ctx.database.db, platform)['audit-trail'].checkpoints.signChainsAhead()).toBeGreaterThan(0);

    expect(await untrustedCheckpointKeys(ctx.database.db, ctx.config)).toEqual([]);
    const other = loadConfig({ AUDIT_SIGNING_KEY: der(newKey()) });
    expect(await untrustedCheckpointKeys(ctx.database.db, other)).toEqual([keyIdOf(shared.publicKey)]);
  });
});
