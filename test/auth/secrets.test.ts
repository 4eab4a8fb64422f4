import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { signAccessToken } from '../../src/modules/identity/provider/access-token.js';
import { loadAuthSecrets } from '../../src/platform/auth/secrets.js';
import { createTokenVerifier } from '../../src/platform/auth/token-verifier.js';
import { freshDatabase } from '../support/database.js';

/** D1/D3: keys generated at first start are announced once and kept, so restarts keep tokens valid. */
describe('generated provider secrets', async () => {
  const database = await freshDatabase();
  afterAll(() => database.close());
  const config = loadConfig({ PUBLIC_URL: 'http://service.test' });

  it('are generated and announced once, then read back unchanged by the next start', async () => {
    const firstAnnouncements: string[] = [];
    const first = await loadAuthSecrets(database.db, config, (message, secret) => firstAnnouncements.push(`${message} ${secret ?? ''}`));
    expect(firstAnnouncements).toHaveLength(3);
    expect(firstAnnouncements.join('\n')).toContain(first.anonKey);

    const secondAnnouncements: string[] = [];
    const second = await loadAuthSecrets(database.db, config, (message) => secondAnnouncements.push(message));
    expect(secondAnnouncements).toEqual([]);
    expect(second.anonKey).toBe(first.anonKey);
    expect(second.serviceRoleKey).toBe(first.serviceRoleKey);
    expect(second.signingKey.publicJwk).toEqual(first.signingKey.publicJwk);

    // A token issued before the restart verifies after it.
    const { token } = await signAccessToken(
      { userId: '00000000-0000-4000-8000-000000000001', email: 'a@example.test', sessionId: '00000000-0000-4000-8000-000000000002' },
      first,
      { issuer: config.auth.issuer, audience: config.auth.audience },
    );
    const claims = await createTokenVerifier(config, second)(token);
    expect(claims.sub).toBe('00000000-0000-4000-8000-000000000001');
  });

  it('configured API keys win over generated ones', async () => {
    const configured = loadConfig({
      PUBLIC_URL: 'http://service.test',
      AUTH_ANON_KEY: 'anon-key-from-the-environment-0001',
      AUTH_SERVICE_ROLE_KEY: 'service-key-from-the-environment-01',
    });
    const secrets = await loadAuthSecrets(database.db, configured, () => undefined);
    expect(secrets.anonKey).toBe('anon-key-from-the-environment-0001');
    expect(secrets.serviceRoleKey).toBe('service-key-from-the-environment-01');
  });

  it('the public key set carries no private member', async () => {
    const secrets = await loadAuthSecrets(database.db, config, () => undefined);
    expect(secrets.signingKey.publicJwk).not.toHaveProperty('d');
  });
});
