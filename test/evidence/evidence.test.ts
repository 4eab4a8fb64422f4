import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { auditEntries } from '../support/audit.js';
import { addScenarioLink, createBra } from '../support/bras-factories.js';
import { cast } from '../support/cast.js';
import { createSubControl } from '../support/controls-factories.js';
import { insertAction } from '../support/actions-factories.js';
import { ELF, PDF, ZIP, evidenceRows, upload } from '../support/evidence.js';
import { CHUNK_BYTES } from '../../src/modules/evidence/storage/postgres-store.js';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Evidence files (issue 48), on the PostgreSQL store: upload, list, download, ranges, refusals, removal, scope. */
describe('evidence files', async () => {
  const ctx = await createTestContext();
  const world = await cast(ctx);
  const { call, enterprise, entity, admin, assessor, reviewer, outsideAssessor, otherAdmin } = world;
  const draft = await createBra(ctx, { enterpriseId: enterprise.id, legalEntityId: entity.id, createdBy: assessor.id });
  const onDraft = { record_type: 'bra', record_id: draft.id };
  const download = (who: Parameters<typeof call>[0], id: string, headers: Record<string, string> = {}) => call(who, 'GET', `/evidence/${id}/content`, undefined, headers);
  const list = (who: Parameters<typeof call>[0], record: { record_type: string; record_id: string }) =>
    call(who, 'GET', `/evidence?record_type=${record.record_type}&record_id=${record.record_id}`);

  it('an assessor attaches a PDF to a BRA they may change: the type read from the content, the hash, the audit entry with it', async () => {
    const response = await upload(call, assessor, onDraft, PDF, 'Q3 sign-off.pdf', 'text/plain');
    expect(response.statusCode, response.body).toBe(201);
    const file = response.json().data;
    expect(file).toMatchObject({ record_type: 'bra', record_id: draft.id, name: 'Q3 sign-off.pdf', media_type: 'application/pdf', size_bytes: PDF.length, sha256: sha256(PDF), created_by: assessor.id });
    const [entry] = await auditEntries(ctx, { entityId: file.id });
    expect(entry).toMatchObject({ action_type: 'create', entity_type: 'evidence_file', user_id: assessor.id });
    expect(entry!.action_details).toMatchObject({ record_type: 'bra', record_id: draft.id, sha256: sha256(PDF), size_bytes: PDF.length, media_type: 'application/pdf' });
    const listed = await list(reviewer, onDraft);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json()).toEqual({ data: [file], abilities: { attach: false, remove: false } });
    expect((await list(assessor, onDraft)).json().abilities).toEqual({ attach: true, remove: true });
  });

  it('a reader downloads the bytes as stored: attachment, nosniff, the stored type, the SHA-256 in Repr-Digest', async () => {
    const file = (await upload(call, admin, onDraft, PDF, 'report «final».pdf')).json().data;
    const response = await download(reviewer, file.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.rawPayload.equals(PDF)).toBe(true);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="report \?final\?\.pdf"; filename\*=UTF-8''report%20%C2%ABfinal%C2%BB\.pdf$/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['accept-ranges']).toBe('bytes');
    expect(response.headers['repr-digest']).toBe(`sha-256=:${createHash('sha256').update(PDF).digest('base64')}:`);
  });

  it('a file over several chunks comes back whole and by ranges across chunk boundaries; a range past the end is 416', async () => {
    const text = Buffer.from(Array.from({ length: CHUNK_BYTES * 2 + 1000 }, (_, index) => String.fromCharCode(97 + (index % 26))).join(''));
    const file = (await upload(call, assessor, onDraft, text, 'ledger.csv')).json().data;
    expect(file).toMatchObject({ media_type: 'text/csv; charset=utf-8', size_bytes: text.length, sha256: sha256(text) });
    expect((await ctx.db.selectFrom('evidence_blobs').select('seq').where('blob_key', '=', (await ctx.db.selectFrom('evidence_files').select('storage_key').where('id', '=', file.id).executeTakeFirstOrThrow()).storage_key).execute()).length).toBe(3);
    expect((await download(assessor, file.id)).rawPayload.equals(text)).toBe(true);
    const start = CHUNK_BYTES - 10;
    const end = CHUNK_BYTES * 2 + 5;
    const ranged = await download(assessor, file.id, { range: `bytes=${start}-${end}` });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.headers['content-range']).toBe(`bytes ${start}-${end}/${text.length}`);
    expect(ranged.rawPayload.equals(text.subarray(start, end + 1))).toBe(true);
    const suffix = await download(assessor, file.id, { range: 'bytes=-7' });
    expect(suffix.rawPayload.equals(text.subarray(text.length - 7))).toBe(true);
    expect((await download(assessor, file.id, { range: 'bytes=0-1,5-6' })).statusCode).toBe(200);
    const past = await download(assessor, file.id, { range: `bytes=${text.length + 10}-` });
    expect(past.statusCode).toBe(416);
    expect(past.json()).toMatchObject({ code: 'RANGE_NOT_SATISFIABLE' });
  });

  it('refuses executables, archives and unknown binary content (415), whatever the name or claimed type, and keeps nothing', async () => {
    const before = await evidenceRows(ctx, enterprise.id);
    for (const [content, name] of [
      [ELF, 'evidence.pdf'],
      [ZIP, 'bundle.zip'],
      [Buffer.concat([Buffer.from([0, 1, 2, 3, 255, 254]), randomBytes(4000)]), 'data.txt'],
    ] as const) {
      const response = await upload(call, assessor, onDraft, content, name, 'application/pdf');
      expect(response.statusCode, `${name}: ${response.body}`).toBe(415);
      expect(response.json().code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
    expect(await evidenceRows(ctx, enterprise.id)).toEqual(before);
  });

  it('a body that is not multipart is 415; a part not named file is 422', async () => {
    const json = await call(assessor, 'POST', `/evidence?record_type=bra&record_id=${draft.id}`, { file: 'x' });
    expect(json.statusCode).toBe(415);
    const form = new FormData();
    form.append('attachment', new Blob([PDF]), 'a.pdf');
    const encoded = new Response(form);
    const wrong = await call(assessor, 'POST', `/evidence?record_type=bra&record_id=${draft.id}`, Buffer.from(await encoded.arrayBuffer()), { 'content-type': encoded.headers.get('content-type')! });
    expect(wrong.statusCode, wrong.body).toBe(422);
  });

  it('keeps to the rules of the record: another entity’s assessor is refused as for the BRA, another enterprise does not find it', async () => {
    const file = (await upload(call, assessor, onDraft, PDF, 'scoped.pdf')).json().data;
    expect((await list(outsideAssessor, onDraft)).statusCode).toBe(403);
    expect((await download(outsideAssessor, file.id)).statusCode).toBe(403);
    expect((await upload(call, outsideAssessor, onDraft, PDF, 'x.pdf')).statusCode).toBe(403);
    expect((await upload(call, reviewer, onDraft, PDF, 'x.pdf')).statusCode).toBe(403);
    const foreign = await list(otherAdmin, onDraft);
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toMatchObject({ code: 'INVALID_REFERENCE', details: { field: 'record_id' } });
    expect((await download(otherAdmin, file.id)).statusCode).toBe(404);
    expect((await call(otherAdmin, 'DELETE', `/evidence/${file.id}`)).statusCode).toBe(404);
    expect((await upload(call, otherAdmin, onDraft, PDF, 'x.pdf')).statusCode).toBe(400);
    expect((await list(assessor, { record_type: 'bra', record_id: randomUUID() })).statusCode).toBe(400);
  });

  it('removal: gone from the list and the downloads, audited as a delete, the content kept; a second removal is 404', async () => {
    const file = (await upload(call, assessor, onDraft, PDF, 'superseded.pdf')).json().data;
    const blobsBefore = (await evidenceRows(ctx, enterprise.id)).blobs;
    const removed = await call(assessor, 'DELETE', `/evidence/${file.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await list(assessor, onDraft)).json().data.map((listed: { id: string }) => listed.id)).not.toContain(file.id);
    expect((await download(assessor, file.id)).statusCode).toBe(404);
    expect((await call(assessor, 'DELETE', `/evidence/${file.id}`)).statusCode).toBe(404);
    expect((await evidenceRows(ctx, enterprise.id)).blobs).toBe(blobsBefore);
    const entries = await auditEntries(ctx, { entityId: file.id });
    expect(entries.map((entry) => entry.action_type)).toEqual(['create', 'delete']);
    expect(entries[1]!.action_details).toMatchObject({ sha256: sha256(PDF), name: 'superseded.pdf' });
  });

  it('a BRA past in-progress keeps its evidence as it is: attaching and removing are 409, reading goes on', async () => {
    const approved = await createBra(ctx, { enterpriseId: enterprise.id, legalEntityId: entity.id, createdBy: assessor.id });
    const file = (await upload(call, assessor, { record_type: 'bra', record_id: approved.id }, PDF, 'approved.pdf')).json().data;
    await ctx.db.updateTable('bras').set({ status: 'approved' }).where('id', '=', approved.id).execute();
    const refused = await upload(call, admin, { record_type: 'bra', record_id: approved.id }, PDF, 'late.pdf');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('INVALID_STATE');
    expect((await call(admin, 'DELETE', `/evidence/${file.id}`)).statusCode).toBe(409);
    expect((await download(reviewer, file.id)).statusCode).toBe(200);
    expect((await list(admin, { record_type: 'bra', record_id: approved.id })).json().abilities).toEqual({ attach: false, remove: false });
  });

  it("the audit trail's verification, asked to, finds a file whose content was swapped under the service", async () => {
    const file = (await upload(call, assessor, onDraft, PDF, 'board minutes.pdf')).json().data;
    const clean = await call(reviewer, 'GET', '/audit/verify?evidence=true');
    expect(clean.statusCode, clean.body).toBe(200);
    expect(clean.json().data.evidence.files_checked).toBeGreaterThan(0);
    expect(clean.json().data.evidence.altered).toEqual([]);
    expect((await call(reviewer, 'GET', '/audit/verify')).json().data.evidence).toBeUndefined();
    // The owner of the database, not the service, rewrites the stored bytes.
    const { storage_key } = await ctx.db.selectFrom('evidence_files').select('storage_key').where('id', '=', file.id).executeTakeFirstOrThrow();
    const forged = Buffer.from('%PDF-1.7\nforged minutes\n%%EOF\n');
    await ctx.db.updateTable('evidence_blobs').set({ data: forged }).where('blob_key', '=', storage_key).execute();
    const verdict = (await call(reviewer, 'GET', '/audit/verify?evidence=true')).json().data;
    expect(verdict.valid).toBe(true);
    expect(verdict.evidence.altered).toEqual([{ id: file.id, name: 'board minutes.pdf', recorded_sha256: sha256(PDF), stored_sha256: sha256(forged) }]);
  });

  it('attaches to a scenario of a BRA, a mitigation action and a control test, each under its record’s rules', async () => {
    const link = await addScenarioLink(ctx, draft);
    const scenario = await upload(call, assessor, { record_type: 'bra_scenario', record_id: link.id }, PDF, 'scenario.pdf');
    expect(scenario.statusCode, scenario.body).toBe(201);
    expect((await list(outsideAssessor, { record_type: 'bra_scenario', record_id: link.id })).statusCode).toBe(403);

    const action = await insertAction(ctx, { enterpriseId: enterprise.id, braId: draft.id, status: 'in_progress', owner: 'Ops' });
    expect((await upload(call, assessor, { record_type: 'mitigation_action', record_id: action.id }, PDF, 'done.pdf')).statusCode).toBe(201);
    expect((await upload(call, reviewer, { record_type: 'mitigation_action', record_id: action.id }, PDF, 'done.pdf')).statusCode).toBe(403);
    expect((await list(outsideAssessor, { record_type: 'mitigation_action', record_id: action.id })).statusCode).toBe(403);
    await call(admin, 'POST', `/mitigation-actions/${action.id}/archive`);
    expect((await upload(call, assessor, { record_type: 'mitigation_action', record_id: action.id }, PDF, 'late.pdf')).statusCode).toBe(409);

    const subControl = await createSubControl(ctx, enterprise.id);
    const test = await ctx.db
      .insertInto('sub_control_tests')
      .values({ enterprise_id: enterprise.id, sub_control_id: subControl.id, source: 'test', tod: 'B', toe: '2', total_effectiveness: 'Effective', recorded_by: assessor.id })
      .returning('id')
      .executeTakeFirstOrThrow();
    const onTest = { record_type: 'sub_control_test', record_id: test.id };
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]), Buffer.alloc(64)]);
    const attached = await upload(call, assessor, onTest, png, 'screenshot.png');
    expect(attached.statusCode, attached.body).toBe(201);
    expect(attached.json().data.media_type).toBe('image/png');
    expect((await list(outsideAssessor, onTest)).statusCode).toBe(200);
    expect((await upload(call, reviewer, onTest, PDF, 'x.pdf')).statusCode).toBe(403);
  });
});

describe('evidence limits', async () => {
  const MIB = 1024 * 1024;
  const ctx = await createTestContext({ env: { EVIDENCE_MAX_FILE_MB: '1', EVIDENCE_QUOTA_MB: '2' } });
  const { call, enterprise, entity, assessor } = await cast(ctx);
  const bra = await createBra(ctx, { enterpriseId: enterprise.id, legalEntityId: entity.id, createdBy: assessor.id });
  const record = { record_type: 'bra', record_id: bra.id };
  const text = (bytes: number) => Buffer.alloc(bytes, 'a');

  it('a file over the size limit is 413 and leaves nothing in either table', async () => {
    const before = await evidenceRows(ctx, enterprise.id);
    const response = await upload(call, assessor, record, text(MIB + 1), 'big.txt');
    expect(response.statusCode, response.body).toBe(413);
    expect(response.json().code).toBe('PAYLOAD_TOO_LARGE');
    expect(await evidenceRows(ctx, enterprise.id)).toEqual(before);
    expect((await upload(call, assessor, record, text(MIB), 'exact.txt')).statusCode).toBe(201);
  });

  it("the enterprise's quota counts every file, removed ones too: past it, 413 and nothing kept", async () => {
    const second = (await upload(call, assessor, record, text(MIB - 10), 'second.txt')).json().data;
    expect((await call(assessor, 'DELETE', `/evidence/${second.id}`)).statusCode).toBe(200);
    const before = await evidenceRows(ctx, enterprise.id);
    const response = await upload(call, assessor, record, text(100), 'over.txt');
    expect(response.statusCode, response.body).toBe(413);
    expect(response.json().error).toMatch(/quota/);
    expect(await evidenceRows(ctx, enterprise.id)).toEqual(before);
  });
});
