import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderSchema } from '../../packages/client/scripts/render-schema.mjs';
import { createTestContext } from '../support/app.js';

describe('the typed client (packages/client) is generated from the served OpenAPI document', async () => {
  const ctx = await createTestContext();

  it('schema.d.ts is exactly what `npm run client:generate` renders from GET /api/v1/openapi.json', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const committed = readFileSync('packages/client/src/schema.d.ts', 'utf8');
    const rendered = await renderSchema(document);
    // On failure: run `npm run client:generate` and commit packages/client/src/schema.d.ts.
    expect(committed === rendered, 'packages/client/src/schema.d.ts is stale: run `npm run client:generate`').toBe(true);
  });

  it('the rendering sees a change of the document (a route added to it appears in the types)', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const changed = structuredClone(document);
    changed.paths['/api/v1/drift-probe'] = { get: { operationId: 'drift.probe', responses: { '200': { description: 'ok' } } } };
    const rendered = await renderSchema(changed);
    expect(rendered).toContain('"/api/v1/drift-probe"');
    expect(rendered).not.toBe(readFileSync('packages/client/src/schema.d.ts', 'utf8'));
  });
});
