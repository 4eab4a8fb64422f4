import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import { countRows } from './db/page-queries.js';
import type { DB } from './db/schema.js';
import { DOCS_PATH, OPENAPI_PATH, PRODUCT_NAME } from './http/openapi-intro.js';
import { redactUrl } from './redact-url.js';

export interface BannerFacts {
  /** Where the server actually listens (the port may have been chosen by the system). */
  listening: { host: string; port: number };
  superAdmins: number;
  /** The embedded provider's public client key; null when not to be shown (external mode, output not a terminal). */
  anonKey: string | null;
}

export async function countActiveSuperAdmins(db: Kysely<DB>): Promise<number> {
  return countRows(db.selectFrom('users').where('is_super_admin', '=', true).where('active', '=', true));
}

function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/**
 * What a person starting the service needs to know next, printed once after it listens, as plain text on
 * the terminal (not in the JSON log stream): where it is, where the console and the docs are, and how to get
 * a first user.
 */
export function formatStartupBanner(config: Config, facts: BannerFacts): string {
  const wildcard = facts.listening.host === '0.0.0.0' || facts.listening.host === '::';
  const local = `http://${wildcard ? '127.0.0.1' : urlHost(facts.listening.host)}:${facts.listening.port}`;
  const lines = [
    '',
    `${PRODUCT_NAME} ${config.version} is listening on ${local}${wildcard ? ` (all interfaces, ${facts.listening.host})` : ''}`,
    `  Console:     ${local}/`,
    `  Docs:        ${local}${DOCS_PATH}`,
    `  OpenAPI:     ${local}${OPENAPI_PATH}`,
    `  Health:      ${local}/health`,
  ];
  if (config.publicUrl !== local) lines.push(`  Public URL:  ${config.publicUrl} (PUBLIC_URL; the token issuer is ${config.auth.issuer})`);
  lines.push(`  Database:    ${describeDatabase(config)}`);
  lines.push(
    config.mail.smtpUrl !== null
      ? `  Mail:        SMTP ${redactUrl(config.mail.smtpUrl)} (invitations and password recovery, from ${config.mail.from})`
      : `  Mail:        written as .eml files under ${config.mail.dir} (no SMTP_URL): invitation and recovery links are there`,
  );
  if (config.redisUrl !== null) lines.push(`  Redis:       ${redactUrl(config.redisUrl)} (rate-limit counters shared by every instance)`);
  if (config.auth.mode === 'external') lines.push(`  Tokens:      from the external provider ${config.auth.issuer} (AUTH_MODE=external)`);
  else if (facts.anonKey !== null) lines.push(`  apikey:      ${facts.anonKey} (AUTH_ANON_KEY, the public client key for /auth/v1)`);
  else lines.push('  apikey:      `npm run keys` shows AUTH_ANON_KEY, the client key for /auth/v1');
  lines.push('');
  if (facts.superAdmins > 0) {
    lines.push(`Super admin: ${facts.superAdmins === 1 ? 'one exists' : `${facts.superAdmins} exist`}. Sign in: POST ${local}/auth/v1/token?grant_type=password`);
  } else if (config.auth.mode === 'embedded') {
    lines.push(
      'No super admin exists yet. Two ways to get a first user:',
      '  - restart with BOOTSTRAP_SUPER_ADMIN_EMAIL and BOOTSTRAP_SUPER_ADMIN_PASSWORD set: a super admin is created;',
      '  - or run `npm run demo` in another shell, beside the service: a demo enterprise with a client admin,',
      '    assessors and reviewers (it prints their passwords and commands for this service, with its apikey).',
    );
  } else {
    lines.push('No super admin exists yet: restart with BOOTSTRAP_SUPER_ADMIN_EMAIL and BOOTSTRAP_SUPER_ADMIN_PASSWORD set.');
  }
  lines.push('');
  return `${lines.join('\n')}\n`;
}

function describeDatabase(config: Config): string {
  switch (config.database.kind) {
    case 'postgres':
      return redactUrl(config.database.url);
    case 'embedded-memory':
      return 'embedded, in memory (DATABASE_URL=memory://): everything is gone at exit';
    case 'embedded-dir':
      return `embedded, in ${config.database.dataDir} (DATA_DIR)`;
  }
}

/** The address a person on this machine uses to reach the service (a wildcard listener: 127.0.0.1). */
export function localUrl(address: string | { address: string; port: number } | null, config: Config): string {
  const host = address !== null && typeof address === 'object' && /^[\d.:]+$/.test(config.host) ? address.address : config.host;
  const port = address !== null && typeof address === 'object' ? address.port : config.port;
  return `http://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : urlHost(host)}:${port}`;
}

/** After listen: the banner on stdout, from what the running service knows. */
export async function printStartupBanner(
  deps: { config: Config; db: Kysely<DB>; anonKey: string | null; address: string | { address: string; port: number } | null },
  write: (text: string) => void = (text) => process.stdout.write(text),
): Promise<void> {
  const { config } = deps;
  const listening =
    deps.address !== null && typeof deps.address === 'object'
      ? { host: deps.address.address, port: deps.address.port }
      : { host: config.host, port: config.port };
  // The listening address is what the OS reports; keep the configured host name when it is a name.
  if (!/^[\d.:]+$/.test(config.host)) listening.host = config.host;
  const superAdmins = await countActiveSuperAdmins(deps.db).catch(() => -1);
  // Keys are written to an interactive terminal only, never to an output that may be collected (key-notice.ts).
  const anonKey = process.stdout.isTTY === true ? deps.anonKey : null;
  write(formatStartupBanner(config, { listening, superAdmins: Math.max(superAdmins, 0), anonKey }));
}
