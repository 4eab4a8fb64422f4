import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { auditEntries } from '../support/audit.js';
import { calls } from '../support/cast.js';
import { createKeyControl, createSubControl } from '../support/controls-factories.js';
import { createEnterprise, createUser } from '../support/factories.js';

const failureOf = async (statement: Promise<unknown>) => {
  try {
    await statement;
    return null;
  } catch (error) {
    return error as { code?: string };
  }
};

/** Tests as records: a retest keeps the one before, every way of entering a result is in the history. */
describe('sub-control test history', async () => {
  const ctx = await createTestContext();
  const enterprise = await createEnterprise(ctx);
  const other = await createEnterprise(ctx);
  const admin = await createUser(ctx, { role: 'admin', enterpriseId: enterprise.id });
  const assessor = await createUser(ctx, { role: 'assessor', enterpriseId: enterprise.id });
  const reviewer = await createUser(ctx, { role: 'reviewer', enterpriseId: enterprise.id });
  const otherAdmin = await createUser(ctx, { role: 'admin', enterpriseId: other.id });
  const superAdmin = await createUser(ctx, { role: 'super_admin' });
  const keyControl = await createKeyControl(ctx, enterprise.id);

  const { call } = calls(ctx);
  const firstTest = {
    tod: 'B',
    toe: '3',
    testing_date: '2026-05-04',
    tested_by: 'Internal Audit',
    evidence_notes: 'First sample of 25',
    tod_justification: 'Design documented',
    toe_justification: 'Three late sign-offs',
  };
  const secondTest = { tod: 'A', toe: '1', testing_date: '2026-11-02', tested_by: 'External Audit', evidence_notes: 'Second sample of 40' };

  it('two tests in a row leave two records, newest first, and the current result holds the second test only', async () => {
    const sub = await createSubControl(ctx, enterprise.id, { keyControlId: keyControl.id });
    const first = await call(assessor, 'POST', `/controls/sub-controls/${sub.id}/tests`, firstTest);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().data).toMatchObject({
      ...firstTest,
      source: 'test',
      total_effectiveness: 'Effective',
      recorded_by: assessor.id,
      recorded_by_user: { id: assessor.id, full_name: assessor.fullName },
    });
    const second = await call(admin, 'POST', `/controls/sub-controls/${sub.id}/tests`, secondTest);
    expect(second.statusCode, second.body).toBe(201);

    const history = await call(reviewer, 'GET', `/controls/sub-controls/${sub.id}/tests`);
    expect(history.statusCode, history.body).toBe(200);
    const records = history.json().data;
    expect(records.map((record: { evidence_notes: string }) => record.evidence_notes)).toEqual(['Second sample of 40', 'First sample of 25']);
    expect(records[0]).toMatchObject({ ...secondTest, total_effectiveness: 'Highly Effective', tod_justification: null, recorded_by: admin.id });
    expect(records[1]).toMatchObject({ ...firstTest, recorded_by: assessor.id });
    expect(history.json().pagination).toMatchObject({ total: 2, page: 1 });

    const [current] = (await call(reviewer, 'GET', '/controls/sub-controls')).json().data.filter((row: { id: string }) => row.id === sub.id);
    // The second test replaced the whole result: no evidence or justification of the first stays beside its date.
    expect(current).toMatchObject({
      ...secondTest,
      total_effectiveness: 'Highly Effective',
      tod_justification: null,
      toe_justification: null,
    });
  });

  it("the sub-control's detail shows its previous result next to the current one", async () => {
    const sub = await createSubControl(ctx, enterprise.id, { keyControlId: keyControl.id });
    const untested = await call(reviewer, 'GET', `/controls/sub-controls/${sub.id}`);
    expect(untested.statusCode, untested.body).toBe(200);
    expect(untested.json().data).toMatchObject({ id: sub.id, tests_count: 0, latest_test: null, previous_result: null });

    await call(assessor, 'POST', `/controls/sub-controls/${sub.id}/tests`, firstTest);
    await call(assessor, 'POST', `/controls/sub-controls/${sub.id}/tests`, secondTest);
    const detail = (await call(reviewer, 'GET', `/controls/sub-controls/${sub.id}`)).json().data;
    expect(detail).toMatchObject({ tod: 'A', toe: '1', evidence_notes: 'Second sample of 40', tests_count: 2 });
    expect(detail.latest_test).toMatchObject({ evidence_notes: 'Second sample of 40', total_effectiveness: 'Highly Effective' });
    expect(detail.previous_result).toMatchObject({ tod: 'B', toe: '3', evidence_notes: 'First sample of 25', total_effectiveness: 'Effective' });
  });

  it('a PATCH of toe appends a record of the resulting state; a PATCH of the notes alone appends none', async () => {
    const sub = await createSubControl(ctx, enterprise.id, { keyControlId: keyControl.id });
    await call(assessor, 'POST', `/controls/sub-controls/${sub.id}/tests`, firstTest);
    const patched = await call(assessor, 'PATCH', `/controls/sub-controls/${sub.id}`, { toe: '5' });
    expect(patched.statusCode, patched.body).toBe(200);
    const notesOnly = await call(assessor, 'PATCH', `/controls/sub-controls/${sub.id}`, { evidence_notes: 'Clarified the sample' });
    expect(notesOnly.statusCode, notesOnly.body).toBe(200);

    const records = (await call(admin, 'GET', `/controls/sub-controls/${sub.id}/tests`)).json().data;
    expect(records).toHaveLength(2);
    expect(records[0]).toMatchObject({ source: 'update', tod: 'B', toe: '5', total_effectiveness: 'Less Effective', recorded_by: assessor.id });
    expect(records[1]).toMatchObject({ source: 'test', toe: '3' });

    const dated = await call(assessor, 'PATCH', `/controls/sub-controls/${sub.id}`, { testing_date: '2026-11-20' });
    expect(dated.statusCode).toBe(200);
    const afterDate = (await call(admin, 'GET', `/controls/sub-controls/${sub.id}/tests`)).json().data;
    expect(afterDate).toHaveLength(3);
    expect(afterDate[0]).toMatchObject({ source: 'update', testing_date: '2026-11-20', evidence_notes: 'Clarified the sample' });
  });

  it('a sub-control created with a result starts its history with that result', async () => {
    const created = await call(admin, 'POST', '/controls/sub-controls', { key_control_id: keyControl.id, name: `Seeded ${randomUUID()}`, tod: 'C', toe: '2' });
    expect(created.statusCode, created.body).toBe(201);
    const records = (await call(admin, 'GET', `/controls/sub-controls/${created.json().data.id}/tests`)).json().data;
    expect(records).toEqual([expect.objectContaining({ source: 'create', tod: 'C', toe: '2', total_effectiveness: 'Effective' })]);
  });

  it('pages the history newest first', async () => {
    const sub = await createSubControl(ctx, enterprise.id, { keyControlId: keyControl.id });
    for (const evidence of ['one', 'two', 'three']) {
      await call(assessor, 'POST', `/controls/sub-controls/${sub.id}/tests`, { ...secondTest, evidence_notes: evidence });
    }
    const page2 = (await call(admin, 'GET', `/controls/sub-controls/${sub.id}/tests?page=2&page_size=2`)).json();
    expect(page2.data.map((record: { evidence_notes: string }) => record.evidence_notes)).toEqual(['one']);
    expect(page2.pagination).toMatchObject({ total: 3, total_pages: 2, has_prev: true, has_next: false });
  });

  it('each test writes one update / control entry naming the test record', async () => {
    const sub = await createSubControl(ctx, enterprise.id, { keyControlId: keyControl.id });
    const recorded = (await call(assessor, 'POST', `/controls/sub-controls/${sub.id}/tests`, firstTest)).json().data;
    const entries = await auditEntries(ctx, { entityId: sub.id });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ action_type: 'update', entity_type: 'control', user_id: assessor.id });
    expect(entries[0]!.action_details).toMatchObject({
      operation: 'controls.sub_control.test.record',
      control_kind: 'sub_control',
      test_id: recorded.id,
      changes: { tod: { from: null, to: 'B' }, toe: { from: null, to: '3' } },
    });
  });

  it('reviewers and super admins cannot record a test (D5); an archived sub-control cannot be tested (409)', async () => {
    const sub = await createSubControl(ctx, enterprise.id, { keyControlId: keyControl.id });
    expect((await call(reviewer, 'POST', `/controls/sub-controls/${sub.id}/tests`, firstTest)).statusCode).toBe(403);
    expect((await call(superAdmin, 'POST', `/controls/sub-controls/${sub.id}/tests`, firstTest)).statusCode).toBe(403);
    const archived = await createSubControl(ctx, enterprise.id, { keyControlId: keyControl.id, archived: true });
    const refused = await call(admin, 'POST', `/controls/sub-controls/${archived.id}/tests`, firstTest);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('INVALID_STATE');
  });

  it('a test is complete: a missing field, a computed total or an unknown field is 422, and nothing is recorded', async () => {
    const sub = await createSubControl(ctx, enterprise.id, { keyControlId: keyControl.id });
    const { evidence_notes: _dropped, ...noEvidence } = secondTest;
    for (const body of [noEvidence, { ...secondTest, total_effectiveness: 'Effective' }, { ...secondTest, tod: 'F' }, { ...secondTest, tested_by: '  ' }]) {
      const response = await call(admin, 'POST', `/controls/sub-controls/${sub.id}/tests`, body);
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json().code).toBe('VALIDATION_ERROR');
    }
    expect((await call(admin, 'GET', `/controls/sub-controls/${sub.id}/tests`)).json().pagination.total).toBe(0);
  });

  it("another enterprise's sub-control is 404 for the test, its history and its detail", async () => {
    const sub = await createSubControl(ctx, enterprise.id, { keyControlId: keyControl.id });
    await call(admin, 'POST', `/controls/sub-controls/${sub.id}/tests`, firstTest);
    for (const [method, url, payload] of [
      ['POST', `/controls/sub-controls/${sub.id}/tests`, firstTest],
      ['GET', `/controls/sub-controls/${sub.id}/tests`, undefined],
      ['GET', `/controls/sub-controls/${sub.id}`, undefined],
    ] as const) {
      const response = await call(otherAdmin, method, url, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.body).not.toContain('First sample');
    }
    expect((await call(admin, 'GET', `/controls/sub-controls/${randomUUID()}/tests`)).statusCode).toBe(404);
  });

  it("the history is append-only: the service's role cannot change or delete a record, and neither can the owner", async () => {
    const sub = await createSubControl(ctx, enterprise.id, { keyControlId: keyControl.id });
    await call(admin, 'POST', `/controls/sub-controls/${sub.id}/tests`, firstTest);
    const asService = ctx.database.db;
    const update = await failureOf(sql`update sub_control_tests set evidence_notes = 'rewritten' where sub_control_id = ${sub.id}`.execute(asService));
    const remove = await failureOf(sql`delete from sub_control_tests where sub_control_id = ${sub.id}`.execute(asService));
    const truncate = await failureOf(sql`truncate sub_control_tests`.execute(asService));
    for (const failure of [update, remove, truncate]) expect(failure?.code).toBe('42501');
    const ownerUpdate = await failureOf(sql`update sub_control_tests set evidence_notes = 'rewritten' where sub_control_id = ${sub.id}`.execute(ctx.db));
    expect(ownerUpdate?.code).toBe('42501');
    const [record] = (await call(admin, 'GET', `/controls/sub-controls/${sub.id}/tests`)).json().data;
    expect(record.evidence_notes).toBe('First sample of 25');
  });
});
