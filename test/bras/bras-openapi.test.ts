import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';

/** STYLE: the route schemas are the OpenAPI document; every BRA route is described with operationId bras.*. */
describe('OpenAPI document: BRA routes', async () => {
  const ctx = await createTestContext();
  const document = (await ctx.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  const operation = (method: string, path: string) => document.paths[path]?.[method];

  const ROUTES = [
    ['get', '/api/v1/bras', 'bras.list'],
    ['post', '/api/v1/bras', 'bras.create'],
    ['get', '/api/v1/bras/{bra_id}', 'bras.get'],
    ['patch', '/api/v1/bras/{bra_id}', 'bras.update'],
    ['post', '/api/v1/bras/{bra_id}/submit', 'bras.submit'],
    ['post', '/api/v1/bras/{bra_id}/return', 'bras.return'],
    ['post', '/api/v1/bras/{bra_id}/approve', 'bras.approve'],
    ['post', '/api/v1/bras/{bra_id}/cancel', 'bras.cancel'],
    ['get', '/api/v1/bras/{bra_id}/scenarios', 'bras.scenario.list'],
    ['post', '/api/v1/bras/{bra_id}/scenarios', 'bras.scenario.add'],
    ['patch', '/api/v1/bras/{bra_id}/scenarios/{link_id}', 'bras.scenario.update'],
    ['get', '/api/v1/bras/{bra_id}/ratings', 'bras.rating.list'],
    ['post', '/api/v1/bras/{bra_id}/ratings', 'bras.rating.create'],
    ['get', '/api/v1/bras/{bra_id}/controls', 'bras.control.list'],
    ['post', '/api/v1/bras/{bra_id}/controls', 'bras.control.link'],
    ['get', '/api/v1/bras/{bra_id}/snapshots', 'bras.snapshot.list'],
    ['get', '/api/v1/bras/{bra_id}/snapshots/{snapshot_id}', 'bras.snapshot.get'],
    ['post', '/api/v1/bras/{bra_id}/scenarios/bulk', 'bras.scenario.bulk_add'],
    ['get', '/api/v1/bras/{bra_id}/comments', 'bras.comment.list'],
    ['post', '/api/v1/bras/{bra_id}/comments', 'bras.comment.create'],
  ] as const;

  it.each(ROUTES)('%s %s is %s, with a summary, a success schema and the error responses', (method, path, operationId) => {
    const op = operation(method, path);
    expect(op, `${method} ${path}`).toBeDefined();
    expect(op.operationId).toBe(operationId);
    expect(op.summary).toEqual(expect.any(String));
    expect(op.tags).toEqual(['bras']);
    const success = op.responses[method === 'post' && !/submit|return|approve|cancel/.test(path) ? '201' : '200'];
    expect(success, `${method} ${path}`).toBeDefined();
    expect(JSON.stringify(success)).toContain('"data"');
    for (const status of ['400', '401', '403', '429', '500']) expect(op.responses[status], `${path} ${status}`).toBeDefined();
    if (path.includes('{bra_id}')) expect(op.responses['404'], `${path} 404`).toBeDefined();
    if (method !== 'get') expect(op.responses['422'], `${path} 422`).toBeDefined();
    if (method !== 'get') expect(op.requestBody, `${method} ${path}`).toBeDefined();
  });

  it('describes the fields of the BRA, its scenarios, controls and summary', () => {
    const detail = JSON.stringify(operation('get', '/api/v1/bras/{bra_id}').responses['200']);
    for (const field of ['legal_entity', 'business_unit', 'scenarios', 'inherent_rating', 'residual_rating', 'controls', 'total_effectiveness', 'risks_above_appetite', 'completion_percentage']) {
      expect(detail).toContain(`"${field}"`);
    }
    expect(detail).toContain('"description"');
    const create = operation('post', '/api/v1/bras').requestBody.content['application/json'].schema;
    expect(create.required).toEqual(expect.arrayContaining(['name', 'legal_entity_id', 'period', 'assessor']));
    expect(create.additionalProperties).toBe(false);
  });

  it('describes comments, bulk scenarios and the get-BRA\'s new members, with examples', () => {
    const detail = JSON.stringify(operation('get', '/api/v1/bras/{bra_id}').responses['200']);
    for (const field of ['applicable_threshold', 'above_appetite', 'scenarios_above_appetite', 'current_appetite_breaches', 'approved_by_user', 'cancelled_by_user', 'comment_count', 'latest_verdicts']) {
      expect(detail).toContain(`"${field}"`);
    }
    expect(JSON.stringify(operation('get', '/api/v1/bras/{bra_id}/snapshots').responses['200'])).toContain('"created_by_user"');
    for (const [method, path] of [['post', '/api/v1/bras/{bra_id}/comments'], ['post', '/api/v1/bras/{bra_id}/scenarios/bulk']] as const) {
      const media = operation(method, path).requestBody.content['application/json'];
      expect(media.example ?? media.examples ?? media.schema.examples, path).toBeDefined();
      const answer = operation(method, path).responses['201'].content['application/json'];
      expect(answer.example ?? answer.examples, path).toBeDefined();
    }
    const comments = operation('get', '/api/v1/bras/{bra_id}/comments');
    expect(comments.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['page', 'page_size']));
    expect(JSON.stringify(comments.responses['200'])).toContain('"pagination"');
  });
});
