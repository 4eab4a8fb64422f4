import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { createBra } from '../support/bras-factories.js';
import { cast } from '../support/cast.js';
import { ELF, PDF, evidenceRows, upload } from '../support/evidence.js';
import { startS3Server } from '../support/s3-server.js';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const MIB = 1024 * 1024;

/** The S3 store (EVIDENCE_STORAGE=s3) against a local S3-compatible server: the same answers as the database store. */
describe('evidence files in S3-compatible storage', async () => {
  const s3 = await startS3Server();
  const ctx = await createTestContext({ env: { ...s3.env, EVIDENCE_MAX_FILE_MB: '12' } });
  const { call, enterprise, entity, assessor, reviewer, outsideAssessor } = await cast(ctx);
  const bra = await createBra(ctx, { enterpriseId: enterprise.id, legalEntityId: entity.id, createdBy: assessor.id });
  const record = { record_type: 'bra', record_id: bra.id };
  const keyOf = async (id: string) => (await ctx.db.selectFrom('evidence_files').select(['storage', 'storage_key']).where('id', '=', id).executeTakeFirstOrThrow());

  it('keeps the content as an object under the enterprise, outside the database, and serves it back whole and by range', async () => {
    // Over two of the multipart upload's 5 MiB parts.
    const big = Buffer.concat([Buffer.from('month,amount\n'), Buffer.alloc(11 * MIB, 'x')]);
    const response = await upload(call, assessor, record, big, 'ledger.csv');
    expect(response.statusCode, response.body).toBe(201);
    const file = response.json().data;
    expect(file).toMatchObject({ size_bytes: big.length, sha256: sha256(big), media_type: 'text/csv; charset=utf-8' });
    const stored = await keyOf(file.id);
    expect(stored.storage).toBe('s3');
    expect(await s3.objects()).toContain(`evidence/${enterprise.id}/${stored.storage_key}`);
    expect((await evidenceRows(ctx, enterprise.id)).blobs).toBe(0);
    const whole = await call(reviewer, 'GET', `/evidence/${file.id}/content`);
    expect(whole.statusCode).toBe(200);
    expect(sha256(whole.rawPayload)).toBe(sha256(big));
    const ranged = await call(reviewer, 'GET', `/evidence/${file.id}/content`, undefined, { range: `bytes=${5 * MIB - 3}-${5 * MIB + 4}` });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.rawPayload.equals(big.subarray(5 * MIB - 3, 5 * MIB + 5))).toBe(true);
    expect((await call(outsideAssessor, 'GET', `/evidence/${file.id}/content`)).statusCode).toBe(403);
  });

  it('a refused upload leaves no object: a refused type, and a file over the limit cut off half-way', async () => {
    const before = await s3.objects();
    expect((await upload(call, assessor, record, ELF, 'tool.pdf')).statusCode).toBe(415);
    const over = await upload(call, assessor, record, Buffer.alloc(13 * MIB, 'y'), 'too-big.txt');
    expect(over.statusCode, over.body).toBe(413);
    expect(await s3.objects()).toEqual(before);
    expect((await evidenceRows(ctx, enterprise.id)).files).toBe(1);
  });

  it("removal keeps the object, and the audit trail's verification finds an object replaced behind the service", async () => {
    const file = (await upload(call, assessor, record, PDF, 'minutes.pdf')).json().data;
    const { storage_key } = await keyOf(file.id);
    expect((await call(assessor, 'DELETE', `/evidence/${file.id}`)).statusCode).toBe(200);
    expect(await s3.objects()).toContain(`evidence/${enterprise.id}/${storage_key}`);
    expect((await call(reviewer, 'GET', '/audit/verify?evidence=true')).json().data.evidence.altered).toEqual([]);
    const forged = Buffer.from('%PDF-1.7\nforged\n%%EOF\n');
    await s3.overwrite(`evidence/${enterprise.id}/${storage_key}`, forged);
    const verdict = (await call(reviewer, 'GET', '/audit/verify?evidence=true')).json().data.evidence;
    expect(verdict.altered).toEqual([{ id: file.id, name: 'minutes.pdf', recorded_sha256: sha256(PDF), stored_sha256: sha256(forged) }]);
  });
});
