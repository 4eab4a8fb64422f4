import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { callerOf } from '../../platform/auth/principal.js';
import type { App, Platform } from '../../platform/module.js';
import { checkpointKeySource } from '../../platform/audit/checkpoint-key.js';
import { startCheckpointSchedule } from './checkpoint-schedule.js';
import {
  createCheckpointSchema,
  exportAuditSchema,
  listCheckpointsSchema,
  searchAuditSchema,
  verifyAuditSchema,
  verifyCheckpointSchema,
} from './audit-trail.schemas.js';
import { createAuditTrailService } from './audit-trail.service.js';
import { createCheckpointsService } from './checkpoints.service.js';

/** The audit trail (4.6, D7.5, D7.6): search, export, chain verification and signed checkpoints. */
export function registerAuditTrailRoutes(app: App, platform: Platform): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = platform.database;
  const checkpoints = createCheckpointsService({ db, keys: checkpointKeySource(platform.config) });
  const trail = createAuditTrailService({
    db,
    checkpoints,
    onExportError: (error) => api.log.error({ err: error }, 'audit export failed while streaming'),
  });
  startCheckpointSchedule(api, checkpoints, platform.config.audit.checkpointIntervalMinutes);

  api.get('/audit', { schema: searchAuditSchema }, async (request) => trail.search(callerOf(request), request.query));

  api.get('/audit/export', { schema: exportAuditSchema }, async (request, reply) => {
    const file = await trail.export(callerOf(request), request.query);
    return reply
      .header('content-type', file.contentType)
      .header('content-disposition', `attachment; filename="${file.fileName}"`)
      .header('cache-control', 'no-store')
      .send(file.stream as never); // a stream: the response schema documents the file, the bytes come from the cursor
  });

  api.get('/audit/verify', { schema: verifyAuditSchema }, async (request) => ({ data: await trail.verify(callerOf(request)) }));

  api.post('/audit/verify', { schema: verifyCheckpointSchema }, async (request) => ({
    data: await trail.verify(callerOf(request), request.body),
  }));

  api.get('/audit/checkpoints', { schema: listCheckpointsSchema }, async (request) =>
    checkpoints.list(callerOf(request), request.query),
  );

  api.post('/audit/checkpoints', { schema: createCheckpointSchema }, async (request, reply) => {
    const data = await checkpoints.create(callerOf(request));
    return reply.code(201).send({ data, message: 'Checkpoint signed' });
  });
}
