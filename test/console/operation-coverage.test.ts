import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_ONLY_OPERATIONS, NOT_YET_ON_A_SCREEN } from '../../web/api-only-operations.js';
import { createTestContext } from '../support/app.js';

/**
 * Every operation of the served document is reached from the console, or is named in web/api-only-operations.ts
 * with its reason. A new operation without a screen fails here until someone decides which it is.
 */
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) out.push(path);
  }
  return out;
}

/** `api.GET('/api/v1/bras/{bra_id}', …)` and its siblings, as "GET /api/v1/bras/{bra_id}". */
export function operationsCalled(source: string): string[] {
  return [...source.matchAll(/\b(GET|POST|PUT|PATCH|DELETE)\(\s*['"`]([^'"`]+)['"`]/g)].map((match) => `${match[1]} ${match[2]}`);
}

describe('the console reaches every operation, or says why not', async () => {
  const ctx = await createTestContext();
  const document = (await ctx.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json() as {
    paths: Record<string, Record<string, unknown>>;
  };
  const served = Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method] !== undefined).map((method) => `${method.toUpperCase()} ${path}`),
  );
  const called = new Set(sourceFiles('web/src').flatMap((file) => operationsCalled(readFileSync(file, 'utf8'))));
  const listed = [...API_ONLY_OPERATIONS, ...NOT_YET_ON_A_SCREEN].map((entry) => entry.operation);

  it('reads the console\'s calls the way they are written', () => {
    expect(operationsCalled(`api.GET('/api/v1/me', {}); api.POST(\n  '/api/v1/bras/{bra_id}/submit', x)`)).toEqual([
      'GET /api/v1/me',
      'POST /api/v1/bras/{bra_id}/submit',
    ]);
    expect(served.length).toBeGreaterThan(50);
    expect(called.size).toBeGreaterThan(20);
  });

  it('every served operation is called by console code or listed with a reason', () => {
    const unreached = served.filter((operation) => !called.has(operation) && !listed.includes(operation));
    expect(unreached).toEqual([]);
  });

  it('the list names only operations that exist, that no screen calls, each once and with a reason', () => {
    expect(listed.filter((operation) => !served.includes(operation))).toEqual([]);
    expect(listed.filter((operation) => called.has(operation))).toEqual([]);
    expect(new Set(listed).size).toBe(listed.length);
    for (const entry of [...API_ONLY_OPERATIONS, ...NOT_YET_ON_A_SCREEN]) expect(entry.reason.length).toBeGreaterThan(20);
  });

  it('fewer than fifteen operations are API-only by design (machines, mail links, a sign-in’s browser legs)', () => {
    expect(API_ONLY_OPERATIONS.length).toBeLessThan(15);
  });
});
