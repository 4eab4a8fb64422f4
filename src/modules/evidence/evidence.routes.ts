import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { create as contentDisposition } from 'content-disposition';
import parseRange from 'range-parser';
import { Readable } from 'node:stream';
import { callerOf } from '../../platform/auth/principal.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { App } from '../../platform/module.js';
import { downloadEvidenceSchema, listEvidenceSchema, removeEvidenceSchema, uploadEvidenceSchema } from './evidence.schemas.js';
import type { EvidenceService } from './evidence.service.js';
import type { ByteRange } from './storage/evidence-store.js';

/** The one Range a download serves: a single satisfiable range; several, or none, serve the whole file. */
function rangeFrom(header: string | undefined) {
  return (size: number): ByteRange | null => {
    if (header === undefined || size === 0) return null;
    const ranges = parseRange(size, header, { combine: true });
    if (ranges === -1) throw new AppError('RANGE_NOT_SATISFIABLE', `The file has ${size} bytes: the range asked for lies past its end`, { size });
    if (ranges === -2 || ranges.type !== 'bytes' || ranges.length !== 1) return null;
    return { start: ranges[0]!.start, end: ranges[0]!.end };
  };
}

/**
 * Evidence files (issue 48). The upload's multipart parser lives in a plugin of its own, so that no other
 * route of the API accepts multipart bodies; it streams the file part to the service, which reads it once.
 */
export async function registerEvidenceRoutes(app: App, service: EvidenceService, maxFileBytes: number): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get('/evidence', { schema: listEvidenceSchema }, async (request) => service.list(callerOf(request), request.query));

  api.get('/evidence/:evidence_id/content', { schema: downloadEvidenceSchema }, async (request, reply) => {
    const { file, range, content } = await service.download(callerOf(request), request.params.evidence_id, rangeFrom(request.headers.range));
    reply
      .header('content-type', file.media_type)
      .header('content-disposition', contentDisposition(file.name))
      .header('x-content-type-options', 'nosniff')
      .header('accept-ranges', 'bytes')
      .header('cache-control', 'private, no-store')
      .header('repr-digest', `sha-256=:${Buffer.from(file.sha256, 'hex').toString('base64')}:`);
    if (range !== null) {
      reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${file.size_bytes}`).header('content-length', range.end - range.start + 1);
    } else {
      reply.header('content-length', file.size_bytes);
    }
    return reply.send(Readable.from(content));
  });

  api.delete('/evidence/:evidence_id', { schema: removeEvidenceSchema }, async (request) => {
    await service.remove(callerOf(request), request.params.evidence_id);
    return { message: 'Evidence file removed' };
  });

  await api.register(async (scoped) => {
    // One file part and nothing else; the size limit is the service's (it knows the quota), busboy's a bound above it.
    await scoped.register(multipart, { limits: { files: 1, fields: 0, parts: 1, fileSize: maxFileBytes + 1, headerPairs: 100 } });
    // Documented, not validated: the parser streams the part to the service, which checks it as it reads.
    const body = { content: { 'multipart/form-data': { schema: { description: 'One part named `file`: the file, with its name' } } } };
    scoped.withTypeProvider<TypeBoxTypeProvider>().post('/evidence', { schema: { ...uploadEvidenceSchema, body } }, async (request, reply) => {
      if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'An evidence file is sent as multipart/form-data, in a part named file');
      const part = await request.file();
      if (part === undefined || part.fieldname !== 'file') {
        throw new AppError('VALIDATION_ERROR', 'Request body failed validation', { fields: [{ field: 'file', message: 'must be a file part named file' }] });
      }
      const data = await service.upload(callerOf(request), request.query, { fileName: part.filename, content: part.file });
      return reply.code(201).send({ data, message: 'Evidence file attached' });
    });
  });
}
