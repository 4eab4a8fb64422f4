import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sessionHeaders } from '../support/api.js';
import { createTestContext } from '../support/app.js';
import { createEnterprise, createUser } from '../support/factories.js';
import { appendAuditEntries } from '../support/governance-factories.js';
import { parseCsv } from './csv-parse.js';

const at = (iso: string) => new Date(iso);

/** GET /api/v1/audit?entity_id= and its export: every entry about one record, and nothing else. */
describe('audit trail by record (entity_id)', async () => {
  const ctx = await createTestContext();
  const headers = sessionHeaders(ctx);
  const enterprise = await createEnterprise(ctx);
  const other = await createEnterprise(ctx);
  const admin = await createUser(ctx, { role: 'admin', enterpriseId: enterprise.id });
  const reviewer = await createUser(ctx, { role: 'reviewer', enterpriseId: enterprise.id });
  const otherAdmin = await createUser(ctx, { role: 'admin', enterpriseId: other.id });
  const bra = randomUUID();
  const control = randomUUID();
  const ids = await appendAuditEntries(ctx, enterprise.id, [
    { createdAt: at('2026-02-01T09:00:00.000Z'), action: 'create', entityType: 'bra', entityId: bra, user: admin },
    { createdAt: at('2026-02-01T10:00:00.000Z'), action: 'create', entityType: 'control', entityId: control, user: admin },
    { createdAt: at('2026-02-02T10:00:00.000Z'), action: 'update', entityType: 'bra', entityId: bra, user: admin },
    { createdAt: at('2026-02-03T10:00:00.000Z'), action: 'update', entityType: 'control', entityId: control, user: admin },
    { createdAt: at('2026-02-04T10:00:00.000Z'), action: 'approve', entityType: 'bra', entityId: bra, user: admin },
  ]);
  // Another enterprise's entry about a record with the same id is never part of this trail.
  await appendAuditEntries(ctx, other.id, [{ createdAt: at('2026-02-02T11:00:00.000Z'), action: 'update', entityType: 'bra', entityId: bra, user: otherAdmin }]);

  const get = async (url: string, user = admin) => ctx.app.inject({ method: 'GET', url: `/api/v1/audit${url}`, headers: await headers(user) });

  it('lists every entry about one record, newest first, with an exact total', async () => {
    const response = await get(`?entity_id=${bra}`, reviewer);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data.map((entry: { id: string }) => entry.id)).toEqual([ids[4], ids[2], ids[0]]);
    expect(response.json().pagination).toMatchObject({ total: 3, total_is_estimate: false });
    const combined = await get(`?entity_id=${control}&action_type=update`);
    expect(combined.json().data.map((entry: { id: string }) => entry.id)).toEqual([ids[3]]);
  });

  it('the export takes the same filter', async () => {
    const response = await get(`/export?format=csv&entity_id=${control}`);
    expect(response.statusCode, response.body).toBe(200);
    const [header, ...rows] = parseCsv(response.body);
    const idColumn = header!.indexOf('id');
    expect(rows.map((row) => row[idColumn])).toEqual([ids[3], ids[1]]);
  });

  it("another enterprise's admin sees only its own entries about that id", async () => {
    const response = await get(`?entity_id=${bra}`, otherAdmin);
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toHaveLength(1);
    expect(response.json().data[0].user_id).toBe(otherAdmin.id);
  });

  it('a malformed entity_id is a malformed query: 400 BAD_REQUEST (D2)', async () => {
    const response = await get('?entity_id=not-a-uuid');
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('BAD_REQUEST');
  });
});
