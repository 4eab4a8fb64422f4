import { describe, expect, it } from 'vitest';
import { sessionHeaders } from '../support/api.js';
import { createTestContext } from '../support/app.js';
import { createKeyControl } from '../support/controls-factories.js';
import { createEnterprise, createUser } from '../support/factories.js';

// Interface 3.5, transcribed here independently of the service's matrix: ToD row, ToE column, label.
const MATRIX: Record<string, string[]> = {
  A: ['Highly Effective', 'Highly Effective', 'Effective', 'Moderately Effective', 'Less Effective'],
  B: ['Highly Effective', 'Effective', 'Effective', 'Moderately Effective', 'Less Effective'],
  C: ['Effective', 'Effective', 'Moderately Effective', 'Less Effective', 'Not Effective'],
  D: ['Moderately Effective', 'Moderately Effective', 'Less Effective', 'Not Effective', 'Not Effective'],
  E: ['Less Effective', 'Less Effective', 'Not Effective', 'Not Effective', 'Not Effective'],
};
const CELLS = Object.entries(MATRIX).flatMap(([tod, labels]) => labels.map((label, i) => [tod, String(i + 1), label] as const));

/** Every cell of 3.5 through the HTTP API: on creation, on a change of test results, and in the heat map. */
describe('total effectiveness through the API (3.5)', async () => {
  const ctx = await createTestContext();
  const enterprise = await createEnterprise(ctx);
  const admin = await createUser(ctx, { role: 'admin', enterpriseId: enterprise.id });
  const assessor = await createUser(ctx, { role: 'assessor', enterpriseId: enterprise.id });
  const keyControl = await createKeyControl(ctx, enterprise.id);
  const headersOf = sessionHeaders(ctx);

  it.each(CELLS)('POST with ToD %s and ToE %s gives %s', async (tod, toe, label) => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/controls/sub-controls',
      headers: await headersOf(admin),
      payload: { key_control_id: keyControl.id, name: `Cell ${tod}${toe}`, tod, toe },
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().data).toMatchObject({ tod, toe, total_effectiveness: label });
  });

  it.each(CELLS)('PATCH to ToD %s and ToE %s gives %s', async (tod, toe, label) => {
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/controls/sub-controls',
      headers: await headersOf(admin),
      payload: { key_control_id: keyControl.id, name: `Patched ${tod}${toe}` },
    });
    const response = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/v1/controls/sub-controls/${created.json().data.id}`,
      headers: await headersOf(assessor),
      payload: { tod, toe },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({ tod, toe, total_effectiveness: label });
  });

  it('the heat map labels each of the 25 cells as 3.5 does and counts the two sub-controls each case above created in it', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/v1/controls/heat-map', headers: await headersOf(admin) });
    expect(response.statusCode, response.body).toBe(200);
    const map = response.json().data;
    for (const [tod, toe, label] of CELLS) expect(map.data[tod][toe], `${tod}${toe}`).toEqual({ count: 2, effectiveness: label, filter: { tod, toe } });
    expect(map.total_assessed).toBe(50);
  });
});
