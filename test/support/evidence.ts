import type { LightMyRequestResponse } from 'fastify';
import type { TestContext } from './app.js';
import type { Caller, Call } from './cast.js';

/** A minimal PDF: its signature is what the service reads. */
export const PDF = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
/** The first bytes of an ELF executable. */
export const ELF = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00]), Buffer.alloc(120)]);
/** An empty zip archive (end of central directory only). */
export const ZIP = Buffer.from([0x50, 0x4b, 0x05, 0x06, ...Array(18).fill(0)]);

/** A multipart/form-data body with one part, as a browser's FormData sends it. */
export async function multipart(content: Buffer, fileName: string, claimedType = 'application/octet-stream', field = 'file') {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(content)], { type: claimedType }), fileName);
  const encoded = new Response(form);
  return { body: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type')! };
}

/** POST /evidence as `who`: a file attached to a record. */
export async function upload(call: Call, who: Caller, record: { record_type: string; record_id: string }, content: Buffer, fileName: string, claimedType?: string): Promise<LightMyRequestResponse> {
  const { body, contentType } = await multipart(content, fileName, claimedType);
  return call(who, 'POST', `/evidence?record_type=${record.record_type}&record_id=${record.record_id}`, body, { 'content-type': contentType });
}

/** Rows of the evidence tables of an enterprise: a refused upload must leave these as they were. */
export async function evidenceRows(ctx: TestContext, enterpriseId: string) {
  const count = async (table: 'evidence_files' | 'evidence_blobs') =>
    Number((await ctx.db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n')).where('enterprise_id', '=', enterpriseId).executeTakeFirstOrThrow()).n);
  return { files: await count('evidence_files'), blobs: await count('evidence_blobs') };
}
