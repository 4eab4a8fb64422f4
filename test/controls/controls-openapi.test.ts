import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';

const OPERATIONS = {
  'GET /api/v1/controls/key-controls': 'controls.key_control.list',
  'POST /api/v1/controls/key-controls': 'controls.key_control.create',
  'PATCH /api/v1/controls/key-controls/{key_control_id}': 'controls.key_control.update',
  'POST /api/v1/controls/key-controls/{key_control_id}/archive': 'controls.key_control.archive',
  'GET /api/v1/controls/sub-controls': 'controls.sub_control.list',
  'POST /api/v1/controls/sub-controls': 'controls.sub_control.create',
  'PATCH /api/v1/controls/sub-controls/{sub_control_id}': 'controls.sub_control.update',
  'POST /api/v1/controls/sub-controls/{sub_control_id}/archive': 'controls.sub_control.archive',
  'GET /api/v1/controls/effectiveness': 'controls.effectiveness',
  'GET /api/v1/controls/heat-map': 'controls.heat_map',
  'GET /api/v1/controls/sub-controls/{sub_control_id}': 'controls.sub_control.get',
  'POST /api/v1/controls/sub-controls/{sub_control_id}/tests': 'controls.sub_control.test.record',
  'GET /api/v1/controls/sub-controls/{sub_control_id}/tests': 'controls.sub_control.test.list',
  'GET /api/v1/controls/export': 'controls.library.export',
  'POST /api/v1/controls/import': 'controls.library.import',
};

/** The OpenAPI document describes every controls route (STYLE: the schemas are the document). */
describe('controls in the OpenAPI document', async () => {
  const ctx = await createTestContext();
  const document = (await ctx.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  const operation = (name: string) => {
    const [method, path] = name.split(' ') as [string, string];
    return document.paths[path]?.[method.toLowerCase()];
  };

  it.each(Object.entries(OPERATIONS))('%s is documented as %s with a summary, success and error responses', (name, operationId) => {
    const op = operation(name);
    expect(op, name).toBeDefined();
    expect(op.operationId).toBe(operationId);
    expect(op.summary).toEqual(expect.any(String));
    expect(op.tags).toEqual(['controls']);
    const statuses = Object.keys(op.responses);
    expect(statuses.some((status) => /^20[01]$/.test(status))).toBe(true);
    for (const status of ['400', '401', '403', '429', '500']) expect(statuses).toContain(status);
  });

  it('documents that sub-control bodies carry no total_effectiveness and ratings are enums', () => {
    for (const name of ['POST /api/v1/controls/sub-controls', 'PATCH /api/v1/controls/sub-controls/{sub_control_id}']) {
      const schema = operation(name).requestBody.content['application/json'].schema;
      expect(schema.additionalProperties).toBe(false);
      expect(Object.keys(schema.properties)).not.toContain('total_effectiveness');
      expect(JSON.stringify(schema.properties.tod)).toContain('"E"');
      expect(JSON.stringify(schema.properties.toe)).toContain('"5"');
    }
  });

  it('documents the import as a CSV or XLSX upload and the export as either file', () => {
    const upload = operation('POST /api/v1/controls/import').requestBody.content;
    expect(Object.keys(upload).sort()).toEqual(['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'text/csv']);
    const file = operation('GET /api/v1/controls/export').responses['200'].content;
    expect(Object.keys(file).sort()).toEqual(['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'text/csv']);
    const test = operation('POST /api/v1/controls/sub-controls/{sub_control_id}/tests').requestBody.content['application/json'];
    expect(test.schema.required).toEqual(expect.arrayContaining(['tod', 'toe', 'testing_date', 'tested_by', 'evidence_notes']));
  });

  it('documents the heat map with all 25 cells', () => {
    const data = operation('GET /api/v1/controls/heat-map').responses['200'].content['application/json'].schema.properties.data;
    const cells = data.properties.data.properties;
    expect(Object.keys(cells)).toEqual(['A', 'B', 'C', 'D', 'E']);
    for (const row of Object.values(cells) as Array<{ properties: object }>) expect(Object.keys(row.properties)).toEqual(['1', '2', '3', '4', '5']);
  });
});
