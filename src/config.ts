import { createPrivateKey, createPublicKey } from 'node:crypto';
import { join } from 'node:path';

/**
 * The service's configuration, read once from the environment (decisions.md D1).
 * loadConfig is pure: it reads only the object it is given and throws a ConfigError that names the
 * offending variable, so a bad deployment stops at start-up instead of misbehaving later.
 */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    reason: string,
  ) {
    super(`Invalid configuration: ${variable} ${reason}`);
    this.name = 'ConfigError';
  }
}

export type DatabaseTarget =
  | { kind: 'embedded-dir'; dataDir: string }
  | { kind: 'embedded-memory' }
  | { kind: 'postgres'; url: string };

import { isIP } from 'node:net';

export type AuthMode = 'embedded' | 'external';

/**
 * Which proxies in front of the service are trusted to say who the client is (X-Forwarded-For):
 * false (none, the default: the peer address is the client), a number of hops, or a list of proxy
 * addresses and CIDR ranges. Handed to Fastify's `trustProxy`.
 */
export type TrustProxy = false | number | string[];

/** Where the embedded provider's signing key comes from when an operator supplies it (JWK or PEM). */
export type SigningKeySource =
  | { kind: 'env'; variable: 'AUTH_SIGNING_KEY'; text: string }
  | { kind: 'file'; variable: 'AUTH_SIGNING_KEY_FILE'; path: string };
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
export type SubscriptionTier = 'starter' | 'professional' | 'enterprise';

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  database: DatabaseTarget;
  /**
   * DATABASE_REPLICA_URL: a streaming replica of DATABASE_URL that the reads allowed to (audit search and
   * export, effectiveness, heat maps, list totals) use while it is within REPLICA_MAX_LAG_MS
   * (db/read-routing.ts); null: every read on the primary.
   */
  replica: { url: string; maxLagMs: number } | null;
  /**
   * DATABASE_POOLER: `pgbouncer` when DATABASE_URL reaches the database through PgBouncer in transaction
   * mode: no statement is sent outside Kysely's own path (db/prepared.ts). `none`: a direct connection.
   */
  pooler: 'none' | 'pgbouncer';
  /** MIGRATION_DATABASE_URL: the owner role that runs migrations and grants DATABASE_URL's role its rights; null: DATABASE_URL migrates. */
  migrationDatabaseUrl: string | null;
  dataDir: string;
  redisUrl: string | null;
  trustProxy: TrustProxy;
  /** D8's limits per user (or address); `signIn*`: password sign-ins per account, from any address. */
  rateLimit: { perMinute: number; perHour: number; signInPerMinute: number; signInPerHour: number; recoveryPerHour: number };
  /** REQUIRE_IF_MATCH: a change of a versioned resource without If-Match is refused (428) instead of applied. */
  requireIfMatch: boolean;
  auth: {
    mode: AuthMode;
    issuer: string;
    audience: string;
    jwksUrl: string | null;
    jwtSecret: string | null;
    /** null: generated at first start and kept in the database. */
    anonKey: string | null;
    serviceRoleKey: string | null;
    /** null: keys generated and rotated by the service (`npm run keys -- rotate`), kept in the database. */
    signingKey: SigningKeySource | null;
    /** AUTH_REDIRECT_URLS: where a one-time link may send the browser (origin, and path prefix when given). */
    redirectUrls: string[];
  };
  mail: {
    /** SMTP_URL: smtp:// or smtps:// with credentials; null: each message is written as an .eml file under `dir`. */
    smtpUrl: string | null;
    /** MAIL_FROM: the sender of every message. */
    from: string;
    /** DATA_DIR/mail: where messages go without SMTP_URL. */
    dir: string;
    /** MAIL_LOCALE: the language tag dates are written in, in notification mail (default en-GB). */
    locale: string;
    /** MAIL_TIME_ZONE: the IANA time zone of those dates (default UTC). */
    timeZone: string;
    /** NOTIFICATION_DIGEST_HOUR: the hour (UTC, 0-23) from which the daily digest of notifications is sent (default 7). */
    digestHour: number;
  };
  bootstrapSuperAdmin: { email: string; password: string } | null;
  logLevel: LogLevel;
  /** Monthly price per subscription tier, in cents (D9.1). */
  tierPricesCents: Record<SubscriptionTier, number>;
  version: string;
  /**
   * Prometheus metrics (docs/operations.md): on when METRICS_PORT or METRICS_TOKEN is set. `port`: the
   * metrics listener's port on `host` (loopback unless told); `token`: GET /metrics on the service's own
   * listener, answered only with that bearer token.
   */
  metrics: { enabled: boolean; host: string; port: number | null; token: string | null };
  audit: {
    /** AUDIT_SIGNING_KEY: the Ed25519 private key (PEM, or base64 PKCS#8 DER) that signs checkpoints; null: a file under DATA_DIR. */
    signingKeyPem: string | null;
    /**
     * AUDIT_TRUSTED_PUBLIC_KEYS: earlier checkpoint keys (SPKI PEM each) whose checkpoints verify still
     * trusts after a rotation, besides the current key and DATA_DIR/audit-trusted-keys.pem.
     */
    trustedPublicKeysPem: string[];
    /** AUDIT_CHECKPOINT_INTERVAL_MINUTES: how often every chain head is signed; 0 turns the periodic signing off. */
    checkpointIntervalMinutes: number;
  };
  webhooks: {
    /** WEBHOOKS_ALLOW_LOOPBACK: endpoints on loopback addresses (over http too), for development and tests only. */
    allowLoopback: boolean;
    /** WEBHOOKS_DISPATCH_INTERVAL_MS: how often the dispatcher looks for events to deliver. */
    dispatchIntervalMs: number;
  };
  serviceAccounts: {
    /** SERVICE_ACCOUNT_TOKEN_MAX_DAYS: the longest expiry an integration token may be given, in days from its issue. */
    tokenMaxDays: number;
    /** SERVICE_ACCOUNT_ROTATION_OVERLAP_MAX_HOURS: the longest a rotated token may keep working beside its successor. */
    rotationOverlapMaxHours: number;
  };
  sso: {
    /** SSO_ALLOW_INSECURE_ISSUERS: SSO connections may name an http:// or loopback issuer, for development and tests only. */
    allowInsecureIssuers: boolean;
  };
  scim: {
    /** RATE_LIMIT_SCIM_PER_MINUTE / RATE_LIMIT_SCIM_PER_HOUR: SCIM requests per enterprise (its directory's bursts). */
    perMinute: number;
    perHour: number;
  };
  /** RISK_ACCEPTANCE_MAX_DAYS: how far ahead a risk acceptance may expire, in days from today (issue 48). */
  riskAcceptanceMaxDays: number;
  reminders: {
    /** REMINDER_DUE_SOON_DAYS: how many days ahead an assigned action's due date or a sub-control's next test is reminded of. */
    dueSoonDays: number;
    /** REMINDER_ACCEPTANCE_DAYS: how many days ahead a risk acceptance's last day is reminded of. */
    acceptanceDays: number;
  };
  evidence: {
    /** EVIDENCE_MAX_FILE_MB: the largest evidence file, in MiB (decimal bytes: `maxFileBytes`). */
    maxFileBytes: number;
    /** EVIDENCE_QUOTA_MB: every evidence file of one enterprise together, removed ones included (their content is kept). */
    quotaBytes: number;
    /** EVIDENCE_STORAGE=s3 with its settings: content in S3-compatible object storage; null: in the database. */
    s3: EvidenceS3Settings | null;
  };
}

/** Where EVIDENCE_STORAGE=s3 keeps evidence content (EVIDENCE_S3_*). */
export interface EvidenceS3Settings {
  bucket: string;
  /** Prepended to every object's name (`<prefix><enterprise id>/<key>`); empty or ending in a slash. */
  prefix: string;
  region: string;
  /** An S3-compatible service's address; null: AWS's own for the region. */
  endpoint: string | null;
  forcePathStyle: boolean;
  /** Null: the SDK's default credential chain (environment, instance role). */
  accessKeyId: string | null;
  secretAccessKey: string | null;
  /** `AES256` (the default) or `aws:kms`; null (`none`) only for a service without it. */
  serverSideEncryption: 'AES256' | 'aws:kms' | null;
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function text(env: Env, name: string): string | null {
  const value = env[name];
  if (value === undefined) return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = text(env, name);
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

function flag(env: Env, name: string): boolean {
  return oneOf(env, name, ['true', 'false'], 'false') === 'true';
}

function url(env: Env, name: string, protocols: readonly string[]): string | null {
  const raw = text(env, name);
  if (raw === null) return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be a URL, got "${raw}"`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must use ${protocols.join(' or ')}, got "${parsed.protocol}"`);
  }
  return raw.replace(/\/+$/, '');
}

function database(env: Env, dataDir: string): DatabaseTarget {
  const raw = text(env, 'DATABASE_URL');
  if (raw === null) return { kind: 'embedded-dir', dataDir };
  if (raw === 'memory://') return { kind: 'embedded-memory' };
  const checked = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  return { kind: 'postgres', url: checked as string };
}

function oneOf<T extends string>(env: Env, name: string, values: readonly T[], fallback: T): T {
  const raw = text(env, name);
  if (raw === null) return fallback;
  if (!(values as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `must be one of ${values.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

/** `TRUST_PROXY`: unset, `false`, `0`: trust none; `N`: N hops; otherwise a comma-separated list of addresses and CIDRs. */
function trustProxy(env: Env): TrustProxy {
  const raw = text(env, 'TRUST_PROXY');
  if (raw === null || raw === 'false' || raw === '0') return false;
  if (/^\d+$/.test(raw)) return integer(env, 'TRUST_PROXY', 0, 0, 20);
  if (raw === 'true') {
    // Trusting every hop lets any client choose its own address (and its rate-limit budget).
    throw new ConfigError('TRUST_PROXY', 'must be a hop count or a list of proxy addresses, not "true"');
  }
  const entries = raw.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  for (const entry of entries) {
    const [address, prefix, extra] = entry.split('/');
    const family = isIP(address ?? '');
    const prefixOk = prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= (family === 6 ? 128 : 32));
    if (family === 0 || !prefixOk || extra !== undefined) {
      throw new ConfigError('TRUST_PROXY', `must be a hop count or addresses/CIDRs separated by commas, got "${entry}"`);
    }
  }
  return entries;
}

function signingKey(env: Env): SigningKeySource | null {
  const inline = env['AUTH_SIGNING_KEY']?.trim() || null;
  const path = text(env, 'AUTH_SIGNING_KEY_FILE');
  if (inline !== null && path !== null) throw new ConfigError('AUTH_SIGNING_KEY', 'and AUTH_SIGNING_KEY_FILE must not both be set');
  if (inline !== null) return { kind: 'env', variable: 'AUTH_SIGNING_KEY', text: inline };
  if (path !== null) return { kind: 'file', variable: 'AUTH_SIGNING_KEY_FILE', path };
  return null;
}

export function loadConfig(env: Env, version = '0.0.0'): Config {
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const host = text(env, 'HOST') ?? '127.0.0.1';
  // An IPv6 host (HOST=::) needs brackets in a URL.
  const urlHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  const publicUrl = url(env, 'PUBLIC_URL', ['http:', 'https:']) ?? `http://${urlHost}:${port}`;
  const dataDir = text(env, 'DATA_DIR') ?? './data';
  const mode = oneOf<AuthMode>(env, 'AUTH_MODE', ['embedded', 'external'], 'embedded');
  const jwksUrl = url(env, 'AUTH_JWKS_URL', ['http:', 'https:']);
  const jwtSecret = text(env, 'AUTH_JWT_SECRET');
  if (jwtSecret !== null && jwtSecret.length < 32) {
    throw new ConfigError('AUTH_JWT_SECRET', 'must be at least 32 characters');
  }
  if (mode === 'external' && jwksUrl === null && jwtSecret === null) {
    throw new ConfigError('AUTH_MODE', 'external needs AUTH_JWKS_URL or AUTH_JWT_SECRET');
  }
  for (const name of ['AUTH_ANON_KEY', 'AUTH_SERVICE_ROLE_KEY']) {
    const key = text(env, name);
    if (key !== null && key.length < 20) throw new ConfigError(name, 'must be at least 20 characters');
  }
  const email = text(env, 'BOOTSTRAP_SUPER_ADMIN_EMAIL');
  const password = text(env, 'BOOTSTRAP_SUPER_ADMIN_PASSWORD');
  if ((email === null) !== (password === null)) {
    throw new ConfigError(
      email === null ? 'BOOTSTRAP_SUPER_ADMIN_EMAIL' : 'BOOTSTRAP_SUPER_ADMIN_PASSWORD',
      'must be set together with its pair',
    );
  }
  if (email !== null && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
    throw new ConfigError('BOOTSTRAP_SUPER_ADMIN_EMAIL', 'must be an e-mail address');
  }
  if (password !== null && password.length < 8) {
    throw new ConfigError('BOOTSTRAP_SUPER_ADMIN_PASSWORD', 'must be at least 8 characters');
  }

  const target = database(env, dataDir);
  const migrationDatabaseUrl = url(env, 'MIGRATION_DATABASE_URL', ['postgres:', 'postgresql:']);
  if (migrationDatabaseUrl !== null && target.kind !== 'postgres') {
    throw new ConfigError('MIGRATION_DATABASE_URL', 'needs DATABASE_URL to name a PostgreSQL server (the embedded engine has one role)');
  }

  const replicaUrl = url(env, 'DATABASE_REPLICA_URL', ['postgres:', 'postgresql:']);
  if (replicaUrl !== null && target.kind !== 'postgres') {
    throw new ConfigError('DATABASE_REPLICA_URL', 'needs DATABASE_URL to name a PostgreSQL server (the replica follows it)');
  }
  const maxLagMs = integer(env, 'REPLICA_MAX_LAG_MS', 5_000, 0, 60_000);
  const pooler = oneOf(env, 'DATABASE_POOLER', ['none', 'pgbouncer'] as const, 'none');
  if (pooler !== 'none' && target.kind !== 'postgres') {
    throw new ConfigError('DATABASE_POOLER', 'needs DATABASE_URL to name the pooler (the embedded engine has none)');
  }

  return {
    port,
    host,
    publicUrl,
    database: target,
    replica: replicaUrl === null ? null : { url: replicaUrl, maxLagMs },
    pooler,
    migrationDatabaseUrl,
    dataDir,
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    trustProxy: trustProxy(env),
    rateLimit: {
      perMinute: integer(env, 'RATE_LIMIT_PER_MINUTE', 100, 1, 1_000_000),
      perHour: integer(env, 'RATE_LIMIT_PER_HOUR', 1000, 1, 100_000_000),
      signInPerMinute: integer(env, 'RATE_LIMIT_SIGN_IN_PER_MINUTE', 10, 1, 1_000_000),
      signInPerHour: integer(env, 'RATE_LIMIT_SIGN_IN_PER_HOUR', 60, 1, 100_000_000),
      recoveryPerHour: integer(env, 'RATE_LIMIT_RECOVERY_PER_HOUR', 5, 1, 100_000_000),
    },
    requireIfMatch: oneOf(env, 'REQUIRE_IF_MATCH', ['true', 'false'] as const, 'false') === 'true',
    auth: {
      mode,
      issuer: url(env, 'AUTH_ISSUER', ['http:', 'https:']) ?? `${publicUrl}/auth/v1`,
      audience: text(env, 'AUTH_AUDIENCE') ?? 'authenticated',
      jwksUrl,
      jwtSecret,
      anonKey: text(env, 'AUTH_ANON_KEY'),
      serviceRoleKey: text(env, 'AUTH_SERVICE_ROLE_KEY'),
      signingKey: signingKey(env),
      redirectUrls: redirectUrls(env, publicUrl),
    },
    mail: {
      smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:']),
      from: mailFrom(env, publicUrl),
      dir: join(dataDir, 'mail'),
      ...mailDates(env),
      digestHour: integer(env, 'NOTIFICATION_DIGEST_HOUR', 7, 0, 23),
    },
    bootstrapSuperAdmin: email !== null && password !== null ? { email, password } : null,
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    tierPricesCents: {
      starter: integer(env, 'PRICE_STARTER_CENTS', 0, 0, 100_000_000),
      professional: integer(env, 'PRICE_PROFESSIONAL_CENTS', 49_900, 0, 100_000_000),
      enterprise: integer(env, 'PRICE_ENTERPRISE_CENTS', 249_900, 0, 100_000_000),
    },
    version,
    metrics: metricsConfig(env),
    audit: {
      signingKeyPem: auditSigningKey(env),
      trustedPublicKeysPem: auditTrustedPublicKeys(env),
      checkpointIntervalMinutes: integer(env, 'AUDIT_CHECKPOINT_INTERVAL_MINUTES', 1, 0, 10_080),
    },
    webhooks: {
      allowLoopback: flag(env, 'WEBHOOKS_ALLOW_LOOPBACK'),
      dispatchIntervalMs: integer(env, 'WEBHOOKS_DISPATCH_INTERVAL_MS', 1000, 100, 3_600_000),
    },
    serviceAccounts: {
      tokenMaxDays: integer(env, 'SERVICE_ACCOUNT_TOKEN_MAX_DAYS', 365, 1, 3650),
      rotationOverlapMaxHours: integer(env, 'SERVICE_ACCOUNT_ROTATION_OVERLAP_MAX_HOURS', 168, 0, 720),
    },
    sso: { allowInsecureIssuers: flag(env, 'SSO_ALLOW_INSECURE_ISSUERS') },
    scim: {
      perMinute: integer(env, 'RATE_LIMIT_SCIM_PER_MINUTE', 600, 1, 1_000_000),
      perHour: integer(env, 'RATE_LIMIT_SCIM_PER_HOUR', 20_000, 1, 100_000_000),
    },
    riskAcceptanceMaxDays: integer(env, 'RISK_ACCEPTANCE_MAX_DAYS', 365, 1, 3650),
    reminders: {
      dueSoonDays: integer(env, 'REMINDER_DUE_SOON_DAYS', 7, 0, 365),
      acceptanceDays: integer(env, 'REMINDER_ACCEPTANCE_DAYS', 14, 0, 365),
    },
    evidence: {
      maxFileBytes: integer(env, 'EVIDENCE_MAX_FILE_MB', 250, 1, 10_240) * MIB,
      quotaBytes: integer(env, 'EVIDENCE_QUOTA_MB', 20_480, 1, 10_485_760) * MIB,
      s3: evidenceS3(env),
    },
  };
}

const MIB = 1024 * 1024;

/** Every EVIDENCE_S3_* variable is read (and checked) whatever the storage, so that a typo fails at start-up. */
function evidenceS3(env: Env): EvidenceS3Settings | null {
  const storage = oneOf(env, 'EVIDENCE_STORAGE', ['postgres', 's3'], 'postgres');
  const bucket = text(env, 'EVIDENCE_S3_BUCKET');
  const prefix = text(env, 'EVIDENCE_S3_PREFIX') ?? '';
  const region = text(env, 'EVIDENCE_S3_REGION') ?? 'us-east-1';
  const endpoint = url(env, 'EVIDENCE_S3_ENDPOINT', ['http:', 'https:']);
  const forcePathStyle = flag(env, 'EVIDENCE_S3_FORCE_PATH_STYLE');
  const accessKeyId = text(env, 'EVIDENCE_S3_ACCESS_KEY_ID');
  const secretAccessKey = text(env, 'EVIDENCE_S3_SECRET_ACCESS_KEY');
  const encryption = oneOf(env, 'EVIDENCE_S3_SSE', ['AES256', 'aws:kms', 'none'], 'AES256');
  if (storage === 'postgres') return null;
  if (bucket === null) throw new ConfigError('EVIDENCE_S3_BUCKET', 'is required with EVIDENCE_STORAGE=s3');
  if ((accessKeyId === null) !== (secretAccessKey === null)) {
    throw new ConfigError('EVIDENCE_S3_SECRET_ACCESS_KEY', 'and EVIDENCE_S3_ACCESS_KEY_ID go together');
  }
  return {
    bucket,
    prefix: prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`,
    region,
    endpoint,
    forcePathStyle,
    accessKeyId,
    secretAccessKey,
    serverSideEncryption: encryption === 'none' ? null : encryption,
  };
}

/**
 * AUTH_REDIRECT_URLS: comma-separated http(s) URLs; default the service's own origin. A link's redirect_to
 * is allowed when it has the same origin as one entry and its path starts with that entry's path.
 */
function redirectUrls(env: Env, publicUrl: string): string[] {
  const raw = text(env, 'AUTH_REDIRECT_URLS');
  if (raw === null) return [new URL(publicUrl).origin];
  return raw.split(',').map((entry) => {
    const trimmed = entry.trim();
    let parsed: URL;
    try {
      parsed = new URL(trimmed);
    } catch {
      throw new ConfigError('AUTH_REDIRECT_URLS', `must be URLs separated by commas, got "${trimmed}"`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new ConfigError('AUTH_REDIRECT_URLS', `must use http: or https:, got "${trimmed}"`);
    }
    return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
  });
}

/** MAIL_FROM: an address, or `Name <address>`; default no-reply at the public host. */
/** The locale and time zone of the dates in notification mail, checked by Intl itself. */
function mailDates(env: Env): { locale: string; timeZone: string } {
  const locale = text(env, 'MAIL_LOCALE') ?? 'en-GB';
  const timeZone = text(env, 'MAIL_TIME_ZONE') ?? 'UTC';
  try {
    if (Intl.DateTimeFormat.supportedLocalesOf([locale]).length === 0) throw new RangeError(locale);
  } catch {
    throw new ConfigError('MAIL_LOCALE', `must be a language tag this runtime knows (en-GB, de-DE, fr-FR, ...), got "${locale}"`);
  }
  try {
    new Intl.DateTimeFormat(locale, { timeZone });
  } catch {
    throw new ConfigError('MAIL_TIME_ZONE', `must be an IANA time zone (UTC, Europe/London, ...), got "${timeZone}"`);
  }
  return { locale, timeZone };
}

function mailFrom(env: Env, publicUrl: string): string {
  const raw = text(env, 'MAIL_FROM');
  if (raw === null) return `Risk Assurance <no-reply@${new URL(publicUrl).hostname}>`;
  const address = /<([^<>]+)>\s*$/.exec(raw)?.[1] ?? raw;
  if (!/^[^\s@<>]+@[^\s@<>]+$/.test(address)) throw new ConfigError('MAIL_FROM', `must be an e-mail address or "Name <address>", got "${raw}"`);
  return raw;
}

function metricsConfig(env: Env): Config['metrics'] {
  const port = text(env, 'METRICS_PORT') === null ? null : integer(env, 'METRICS_PORT', 0, 0, 65535);
  const token = text(env, 'METRICS_TOKEN');
  if (token !== null && token.length < 20) throw new ConfigError('METRICS_TOKEN', 'must be at least 20 characters');
  return { enabled: port !== null || token !== null, host: text(env, 'METRICS_HOST') ?? '127.0.0.1', port, token };
}

/** Parsed here so that a bad key stops the start-up; kept as PEM text (the config stays plain data). */
function auditSigningKey(env: Env): string | null {
  const raw = text(env, 'AUDIT_SIGNING_KEY');
  if (raw === null) return null;
  try {
    const key = raw.includes('-----BEGIN')
      ? createPrivateKey(raw.replace(/\\n/g, '\n'))
      : createPrivateKey({ key: Buffer.from(raw, 'base64'), format: 'der', type: 'pkcs8' });
    if (key.asymmetricKeyType !== 'ed25519') throw new ConfigError('AUDIT_SIGNING_KEY', 'must be an Ed25519 private key');
    return key.export({ type: 'pkcs8', format: 'pem' }).toString();
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError('AUDIT_SIGNING_KEY', 'must be an Ed25519 private key in PEM or base64 PKCS#8 DER');
  }
}

/**
 * One line an .env file can hold: base64 SPKI DER keys separated by commas (each is the line between the
 * BEGIN and END PUBLIC KEY lines of its PEM). Kept as PEM text, like the signing key.
 */
function auditTrustedPublicKeys(env: Env): string[] {
  const raw = text(env, 'AUDIT_TRUSTED_PUBLIC_KEYS');
  if (raw === null) return [];
  return raw.split(',').map((item, index) => {
    const key = publicKeyFromDer(item.trim());
    if (key?.asymmetricKeyType !== 'ed25519') {
      throw new ConfigError('AUDIT_TRUSTED_PUBLIC_KEYS', `key ${index + 1} must be an Ed25519 public key in base64 SPKI DER (keys separated by commas)`);
    }
    return key.export({ type: 'spki', format: 'pem' }).toString();
  });
}

function publicKeyFromDer(base64: string) {
  try {
    return createPublicKey({ key: Buffer.from(base64, 'base64'), format: 'der', type: 'spki' });
  } catch {
    return null;
  }
}
