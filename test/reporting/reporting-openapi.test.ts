import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';

/** The reporting routes and the removal of control links in the OpenAPI document, with their examples. */
describe('OpenAPI document: reporting', async () => {
  const ctx = await createTestContext();
  const document = (await ctx.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  const operation = (method: string, path: string) => document.paths[path]?.[method];

  it.each([
    ['get', '/api/v1/risk-register', 'reporting.register', 'application/json'],
    ['get', '/api/v1/risk-register/export', 'reporting.register.export', 'text/csv'],
    ['get', '/api/v1/dashboard', 'reporting.dashboard', 'application/json'],
    ['get', '/api/v1/bras/{bra_id}/report', 'reporting.bra_report', 'application/pdf'],
  ])('%s %s is %s, described, tagged reporting, with its 200 as %s', (method, path, operationId, media) => {
    const op = operation(method, path);
    expect(op, path).toBeDefined();
    expect(op).toMatchObject({ operationId, tags: ['reporting'], summary: expect.any(String), description: expect.any(String) });
    expect(op.responses['200'].content[media]).toBeDefined();
    for (const status of ['400', '401', '403', '429', '500']) expect(op.responses[status], `${path} ${status}`).toBeDefined();
  });

  it('the register and the dashboard answers carry examples with their figures', () => {
    const register = JSON.stringify(operation('get', '/api/v1/risk-register').responses['200'].content['application/json'].example);
    for (const field of ['above_appetite', 'control_effectiveness', 'appetite_threshold', 'overdue_actions', 'Cyber intrusion and data theft']) expect(register).toContain(field);
    const dashboard = JSON.stringify(operation('get', '/api/v1/dashboard').responses['200'].content['application/json'].example);
    for (const field of ['bras_by_status', 'within_appetite_percentage', 'heat_maps', 'untested_over_12_months', 'trend']) expect(dashboard).toContain(field);
    expect(document.tags.map((t: { name: string }) => t.name)).toContain('reporting');
  });

  it('control links name their scenario, can be removed, and each get-BRA scenario lists its controls and effectiveness', () => {
    const link = operation('post', '/api/v1/bras/{bra_id}/controls');
    expect(JSON.stringify(link.requestBody)).toContain('bra_risk_scenario_id');
    expect(operation('delete', '/api/v1/bras/{bra_id}/controls/{link_id}')).toMatchObject({ operationId: 'bras.control.unlink', tags: ['bras'] });
    const detail = JSON.stringify(operation('get', '/api/v1/bras/{bra_id}').responses['200']);
    expect(detail).toContain('"control_effectiveness"');
    expect(detail).toContain('"justification"');
  });
});
