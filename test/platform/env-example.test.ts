import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';

/** The variables loadConfig reads, found by handing it an environment that records every read. */
function variablesReadByConfig(): string[] {
  const read = new Set<string>();
  const env = new Proxy({} as Record<string, string | undefined>, {
    get(_target, name) {
      if (typeof name === 'string') read.add(name);
      return undefined;
    },
  });
  loadConfig(env);
  return [...read].sort();
}

const documented = (text: string): Map<string, string> =>
  new Map([...text.matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=(.*)$/gm)].map((match) => [match[1] as string, (match[2] as string).trim()]));

describe('.env.example documents the configuration (D1: every variable, its default, its meaning)', () => {
  const example = documented(readFileSync('.env.example', 'utf8'));

  it('lists every variable that config.ts reads, and no other', () => {
    const read = variablesReadByConfig();
    expect(read.length).toBeGreaterThan(15);
    expect([...example.keys()].sort()).toEqual(read);
  });

  it('shows the defaults that config.ts applies', () => {
    const defaults = loadConfig({});
    expect(example.get('PORT')).toBe(String(defaults.port));
    expect(example.get('HOST')).toBe(defaults.host);
    expect(example.get('DATA_DIR')).toBe(defaults.dataDir);
    expect(example.get('RATE_LIMIT_PER_MINUTE')).toBe(String(defaults.rateLimit.perMinute));
    expect(example.get('RATE_LIMIT_PER_HOUR')).toBe(String(defaults.rateLimit.perHour));
    expect(example.get('AUTH_MODE')).toBe(defaults.auth.mode);
    expect(example.get('AUTH_AUDIENCE')).toBe(defaults.auth.audience);
    expect(example.get('LOG_LEVEL')).toBe(defaults.logLevel);
    expect(example.get('PUBLIC_URL')).toBe(defaults.publicUrl);
    expect(example.get('PRICE_PROFESSIONAL_CENTS')).toBe(String(defaults.tierPricesCents.professional));
  });

  it('loads as a valid configuration when copied to .env unchanged', () => {
    const values = Object.fromEntries([...readFileSync('.env.example', 'utf8').matchAll(/^([A-Z][A-Z0-9_]*)=(.*)$/gm)].map((m) => [m[1], m[2]]));
    expect(() => loadConfig(values)).not.toThrow();
  });
});
