import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

/** The variable a bad environment is refused for (D1: "a message that names the variable"). */
function refusal(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

const HS256_SECRET = 'a-shared-secret-of-at-least-32-characters';

describe('loadConfig', () => {
  it('applies the defaults of D1 to an empty environment', () => {
    const config = loadConfig({}, '1.2.3');
    expect(config.port).toBe(3000);
    expect(config.host).toBe('127.0.0.1');
    expect(config.publicUrl).toBe('http://127.0.0.1:3000');
    expect(config.dataDir).toBe('./data');
    expect(config.database).toEqual({ kind: 'embedded-dir', dataDir: './data' });
    expect(config.redisUrl).toBeNull();
    expect(config.rateLimit).toEqual({ perMinute: 100, perHour: 1000, signInPerMinute: 10, signInPerHour: 60, recoveryPerHour: 5 });
    expect(config.trustProxy).toBe(false);
    expect(config.auth).toEqual({
      mode: 'embedded',
      issuer: 'http://127.0.0.1:3000/auth/v1',
      audience: 'authenticated',
      jwksUrl: null,
      jwtSecret: null,
      anonKey: null,
      serviceRoleKey: null,
      signingKey: null,
      redirectUrls: ['http://127.0.0.1:3000'],
    });
    expect(config.mail).toEqual({ smtpUrl: null, from: 'Risk Assurance <no-reply@127.0.0.1>', dir: 'data/mail', locale: 'en-GB', timeZone: 'UTC', digestHour: 7 });
    expect(config.bootstrapSuperAdmin).toBeNull();
    expect(config.logLevel).toBe('info');
    expect(config.tierPricesCents).toEqual({ starter: 0, professional: 49_900, enterprise: 249_900 });
    expect(config.version).toBe('1.2.3');
  });

  it('reads the mail settings and the redirect allow-list, refusing what cannot work', () => {
    const config = loadConfig({
      SMTP_URL: 'smtps://user:secret@mail.example:465',
      MAIL_FROM: 'Risk Desk <desk@example.com>',
      AUTH_REDIRECT_URLS: 'https://app.example/console/, http://localhost:5173',
    });
    expect(config.mail.smtpUrl).toBe('smtps://user:secret@mail.example:465');
    expect(config.mail.from).toBe('Risk Desk <desk@example.com>');
    expect(config.auth.redirectUrls).toEqual(['https://app.example/console', 'http://localhost:5173']);
    expect(() => loadConfig({ SMTP_URL: 'http://mail.example' })).toThrow(/SMTP_URL/);
    expect(() => loadConfig({ MAIL_FROM: 'nobody' })).toThrow(/MAIL_FROM/);
    expect(() => loadConfig({ AUTH_REDIRECT_URLS: 'ftp://x.example' })).toThrow(/AUTH_REDIRECT_URLS/);
    expect(() => loadConfig({ RATE_LIMIT_RECOVERY_PER_HOUR: '0' })).toThrow(/RATE_LIMIT_RECOVERY_PER_HOUR/);
  });

  it('derives PUBLIC_URL from HOST and PORT, and the issuer from PUBLIC_URL (D1)', () => {
    expect(loadConfig({ HOST: '0.0.0.0', PORT: '8080' }).publicUrl).toBe('http://0.0.0.0:8080');
    expect(loadConfig({ HOST: '::', PORT: '8080' }).publicUrl).toBe('http://[::]:8080');
    expect(() => new URL(loadConfig({ HOST: '::1' }).auth.issuer)).not.toThrow();
    const config = loadConfig({ PUBLIC_URL: 'https://risk.example.com/' });
    expect(config.publicUrl).toBe('https://risk.example.com');
    expect(config.auth.issuer).toBe('https://risk.example.com/auth/v1');
    expect(loadConfig({ AUTH_ISSUER: 'https://idp.example.com/auth/v1' }).auth.issuer).toBe('https://idp.example.com/auth/v1');
  });

  it('treats blank variables as unset (D1 defaults)', () => {
    const config = loadConfig({ PORT: '', LOG_LEVEL: '  ', DATABASE_URL: '' });
    expect(config.port).toBe(3000);
    expect(config.logLevel).toBe('info');
    expect(config.database.kind).toBe('embedded-dir');
  });

  it('selects the engine from DATABASE_URL: memory://, postgres://, postgresql://, else the embedded server under DATA_DIR (D1)', () => {
    expect(loadConfig({ DATABASE_URL: 'memory://' }).database).toEqual({ kind: 'embedded-memory' });
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@db.example.com:5432/risk' }).database).toEqual({
      kind: 'postgres',
      url: 'postgres://u:p@db.example.com:5432/risk',
    });
    expect(loadConfig({ DATABASE_URL: 'postgresql://db/risk' }).database.kind).toBe('postgres');
    expect(loadConfig({ DATA_DIR: '/var/lib/risk' }).database).toEqual({ kind: 'embedded-dir', dataDir: '/var/lib/risk' });
  });

  it('reads the rate limits, Redis, log level and the bootstrap pair (D1)', () => {
    const config = loadConfig({
      RATE_LIMIT_PER_MINUTE: '5',
      RATE_LIMIT_PER_HOUR: '50',
      REDIS_URL: 'redis://127.0.0.1:6379',
      LOG_LEVEL: 'debug',
      BOOTSTRAP_SUPER_ADMIN_EMAIL: 'root@example.com',
      BOOTSTRAP_SUPER_ADMIN_PASSWORD: 'long enough',
    });
    expect(config.rateLimit).toMatchObject({ perMinute: 5, perHour: 50 });
    expect(config.redisUrl).toBe('redis://127.0.0.1:6379');
    expect(config.logLevel).toBe('debug');
    expect(config.bootstrapSuperAdmin).toEqual({ email: 'root@example.com', password: 'long enough' });
  });

  it('accepts external mode with a JWKS URL or an HS256 secret (D1)', () => {
    const jwks = loadConfig({ AUTH_MODE: 'external', AUTH_JWKS_URL: 'https://x.supabase.co/auth/v1/.well-known/jwks.json' });
    expect(jwks.auth.mode).toBe('external');
    expect(jwks.auth.jwksUrl).toBe('https://x.supabase.co/auth/v1/.well-known/jwks.json');
    expect(loadConfig({ AUTH_MODE: 'external', AUTH_JWT_SECRET: HS256_SECRET }).auth.jwtSecret).toBe(HS256_SECRET);
  });

  describe('stops with a ConfigError naming the variable (D1)', () => {
    const cases: Array<[string, Record<string, string>, string]> = [
      ['PORT=abc', { PORT: 'abc' }, 'PORT'],
      ['PORT=-1', { PORT: '-1' }, 'PORT'],
      ['PORT=70000', { PORT: '70000' }, 'PORT'],
      ['DATABASE_URL=mysql://x', { DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
      ['DATABASE_URL=not a url', { DATABASE_URL: 'not a url' }, 'DATABASE_URL'],
      ['AUTH_MODE=other', { AUTH_MODE: 'other' }, 'AUTH_MODE'],
      ['RATE_LIMIT_PER_MINUTE=0', { RATE_LIMIT_PER_MINUTE: '0' }, 'RATE_LIMIT_PER_MINUTE'],
      ['RATE_LIMIT_PER_MINUTE=1.5', { RATE_LIMIT_PER_MINUTE: '1.5' }, 'RATE_LIMIT_PER_MINUTE'],
      ['RATE_LIMIT_PER_HOUR=lots', { RATE_LIMIT_PER_HOUR: 'lots' }, 'RATE_LIMIT_PER_HOUR'],
      ['LOG_LEVEL=loud', { LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
      ['REDIS_URL=http://x', { REDIS_URL: 'http://x' }, 'REDIS_URL'],
      ['PUBLIC_URL=ftp://x', { PUBLIC_URL: 'ftp://x' }, 'PUBLIC_URL'],
      ['only BOOTSTRAP_SUPER_ADMIN_EMAIL', { BOOTSTRAP_SUPER_ADMIN_EMAIL: 'root@example.com' }, 'BOOTSTRAP_SUPER_ADMIN_PASSWORD'],
      ['only BOOTSTRAP_SUPER_ADMIN_PASSWORD', { BOOTSTRAP_SUPER_ADMIN_PASSWORD: 'long enough' }, 'BOOTSTRAP_SUPER_ADMIN_EMAIL'],
      [
        'a bootstrap e-mail that is not an address',
        { BOOTSTRAP_SUPER_ADMIN_EMAIL: 'root', BOOTSTRAP_SUPER_ADMIN_PASSWORD: 'long enough' },
        'BOOTSTRAP_SUPER_ADMIN_EMAIL',
      ],
      [
        'a bootstrap password under 8 characters',
        { BOOTSTRAP_SUPER_ADMIN_EMAIL: 'root@example.com', BOOTSTRAP_SUPER_ADMIN_PASSWORD: 'short' },
        'BOOTSTRAP_SUPER_ADMIN_PASSWORD',
      ],
      ['external mode without AUTH_JWKS_URL or AUTH_JWT_SECRET', { AUTH_MODE: 'external' }, 'AUTH_MODE'],
      ['a short AUTH_JWT_SECRET', { AUTH_MODE: 'external', AUTH_JWT_SECRET: 'short' }, 'AUTH_JWT_SECRET'],
      ['TRUST_PROXY=true (every hop trusted: any client picks its address)', { TRUST_PROXY: 'true' }, 'TRUST_PROXY'],
      ['TRUST_PROXY with a bad address', { TRUST_PROXY: '10.0.0.1, proxy.internal' }, 'TRUST_PROXY'],
      ['TRUST_PROXY with a bad prefix', { TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
      ['TRUST_PROXY=99 hops', { TRUST_PROXY: '99' }, 'TRUST_PROXY'],
      ['both AUTH_SIGNING_KEY and AUTH_SIGNING_KEY_FILE', { AUTH_SIGNING_KEY: '{}', AUTH_SIGNING_KEY_FILE: '/k.pem' }, 'AUTH_SIGNING_KEY'],
      ['AUTH_JWKS_URL that is not http(s)', { AUTH_MODE: 'external', AUTH_JWKS_URL: 'file:///etc/jwks' }, 'AUTH_JWKS_URL'],
    ];
    it.each(cases)('%s', (_label, env, variable) => {
      const error = refusal(env);
      expect(error.variable).toBe(variable);
      expect(error.message).toContain(variable);
    });
  });

  it('TRUST_PROXY: off by default (also false and 0), a hop count, or addresses and CIDRs', () => {
    for (const off of [undefined, '', 'false', '0']) expect(loadConfig(off === undefined ? {} : { TRUST_PROXY: off }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.0.2.7,fd00::/8, ::1' }).trustProxy).toEqual(['10.0.0.0/8', '192.0.2.7', 'fd00::/8', '::1']);
  });

  it('AUTH_SIGNING_KEY (the key itself) or AUTH_SIGNING_KEY_FILE (a path)', () => {
    expect(loadConfig({ AUTH_SIGNING_KEY: '{"kty":"EC"}' }).auth.signingKey).toEqual({ kind: 'env', variable: 'AUTH_SIGNING_KEY', text: '{"kty":"EC"}' });
    expect(loadConfig({ AUTH_SIGNING_KEY_FILE: '/run/secrets/signing.pem' }).auth.signingKey).toEqual({
      kind: 'file',
      variable: 'AUTH_SIGNING_KEY_FILE',
      path: '/run/secrets/signing.pem',
    });
  });

  it('is pure: it reads only the object it is given', () => {
    const env = { PORT: '4000' };
    const before = JSON.stringify(env);
    expect(loadConfig(env).port).toBe(4000);
    expect(JSON.stringify(env)).toBe(before);
    expect(loadConfig({}).port).toBe(3000);
  });
});

describe('audit settings (D7.5)', () => {
  it('accepts an Ed25519 key in PEM (also with escaped newlines) and base64 PKCS#8, and refuses others', async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const { privateKey } = generateKeyPairSync('ed25519');
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const der = privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64');
    expect(loadConfig({ AUDIT_SIGNING_KEY: pem }).audit.signingKeyPem).toBe(pem);
    expect(loadConfig({ AUDIT_SIGNING_KEY: pem.replace(/\n/g, '\\n') }).audit.signingKeyPem).toBe(pem);
    expect(loadConfig({ AUDIT_SIGNING_KEY: der }).audit.signingKeyPem).toBe(pem);
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(() => loadConfig({ AUDIT_SIGNING_KEY: ec })).toThrow(/AUDIT_SIGNING_KEY/);
    expect(() => loadConfig({ AUDIT_SIGNING_KEY: 'not a key' })).toThrow(/AUDIT_SIGNING_KEY/);
  });

  it('takes earlier public keys as base64 SPKI DER separated by commas, and names the variable and the key when one is not Ed25519', async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const keys = [generateKeyPairSync('ed25519').publicKey, generateKeyPairSync('ed25519').publicKey];
    const der = keys.map((key) => key.export({ type: 'spki', format: 'der' }).toString('base64'));
    const pem = keys.map((key) => key.export({ type: 'spki', format: 'pem' }).toString());
    expect(loadConfig({}).audit.trustedPublicKeysPem).toEqual([]);
    expect(loadConfig({ AUDIT_TRUSTED_PUBLIC_KEYS: `${der[0]}, ${der[1]}` }).audit.trustedPublicKeysPem).toEqual(pem);
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    expect(() => loadConfig({ AUDIT_TRUSTED_PUBLIC_KEYS: `${der[0]},${ec}` })).toThrow(/AUDIT_TRUSTED_PUBLIC_KEYS key 2 must be an Ed25519/);
    expect(() => loadConfig({ AUDIT_TRUSTED_PUBLIC_KEYS: pem[0]! })).toThrow(/AUDIT_TRUSTED_PUBLIC_KEYS key 1/);
    expect(() => loadConfig({ AUDIT_TRUSTED_PUBLIC_KEYS: `${der[0]},` })).toThrow(/AUDIT_TRUSTED_PUBLIC_KEYS key 2/);
  });

  it('takes the checkpoint interval in minutes (0 turns it off) and MIGRATION_DATABASE_URL only beside a server DATABASE_URL', () => {
    expect(loadConfig({}).audit.checkpointIntervalMinutes).toBe(1);
    expect(loadConfig({ AUDIT_CHECKPOINT_INTERVAL_MINUTES: '0' }).audit.checkpointIntervalMinutes).toBe(0);
    expect(() => loadConfig({ AUDIT_CHECKPOINT_INTERVAL_MINUTES: 'hourly' })).toThrow(/AUDIT_CHECKPOINT_INTERVAL_MINUTES/);
    const owner = 'postgres://owner@db:5432/risk';
    expect(loadConfig({ DATABASE_URL: 'postgres://service@db:5432/risk', MIGRATION_DATABASE_URL: owner }).migrationDatabaseUrl).toBe(owner);
    expect(() => loadConfig({ MIGRATION_DATABASE_URL: owner })).toThrow(/MIGRATION_DATABASE_URL/);
  });

  it('takes a read replica (DATABASE_REPLICA_URL, REPLICA_MAX_LAG_MS) and DATABASE_POOLER only beside a server DATABASE_URL', () => {
    const server = { DATABASE_URL: 'postgres://service@db:5432/risk' };
    expect(loadConfig({}).replica).toBeNull();
    expect(loadConfig({}).pooler).toBe('none');
    expect(loadConfig({ ...server, DATABASE_REPLICA_URL: 'postgres://service@replica:5432/risk' }).replica).toEqual({ url: 'postgres://service@replica:5432/risk', maxLagMs: 5_000 });
    expect(loadConfig({ ...server, DATABASE_REPLICA_URL: 'postgres://r/risk', REPLICA_MAX_LAG_MS: '250' }).replica?.maxLagMs).toBe(250);
    expect(() => loadConfig({ ...server, DATABASE_REPLICA_URL: 'postgres://r/risk', REPLICA_MAX_LAG_MS: '60001' })).toThrow(/REPLICA_MAX_LAG_MS/);
    expect(() => loadConfig({ ...server, DATABASE_REPLICA_URL: 'mysql://r/risk' })).toThrow(/DATABASE_REPLICA_URL/);
    expect(() => loadConfig({ DATABASE_REPLICA_URL: 'postgres://r/risk' })).toThrow(/DATABASE_REPLICA_URL/);
    expect(loadConfig({ ...server, DATABASE_POOLER: 'pgbouncer' }).pooler).toBe('pgbouncer');
    expect(() => loadConfig({ ...server, DATABASE_POOLER: 'pgpool' })).toThrow(/DATABASE_POOLER/);
    expect(() => loadConfig({ DATABASE_POOLER: 'pgbouncer' })).toThrow(/DATABASE_POOLER/);
  });

  it('turns metrics on with METRICS_PORT (loopback unless METRICS_HOST says otherwise) or METRICS_TOKEN (20+ characters), off by default', () => {
    expect(loadConfig({}).metrics).toEqual({ enabled: false, host: '127.0.0.1', port: null, token: null });
    expect(loadConfig({ METRICS_PORT: '9464' }).metrics).toEqual({ enabled: true, host: '127.0.0.1', port: 9464, token: null });
    expect(loadConfig({ METRICS_PORT: '0', METRICS_HOST: '0.0.0.0' }).metrics).toMatchObject({ enabled: true, host: '0.0.0.0', port: 0 });
    const token = 'a-metrics-token-of-some-length';
    expect(loadConfig({ METRICS_TOKEN: token }).metrics).toEqual({ enabled: true, host: '127.0.0.1', port: null, token });
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN must be at least 20 characters/);
    expect(() => loadConfig({ METRICS_PORT: 'ninety' })).toThrow(/METRICS_PORT/);
  });
});
