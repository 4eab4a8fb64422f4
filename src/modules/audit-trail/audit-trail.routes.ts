import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { callerOf } from '../../platform/auth/principal.js';
import { termsOf, created } from '../../platform/http/conditional/answers.js';
import { sendDownload } from '../../platform/http/download.js';
import type { App } from '../../platform/module.js';
import {
  createCheckpointSchema,
  exportAuditSchema,
  listCheckpointsSchema,
  searchAuditSchema,
  verifyAuditSchema,
  verifyCheckpointSchema,
} from './audit-trail.schemas.js';
import type { AuditTrailService } from './audit-trail.service.js';
import type { CheckpointsService } from './checkpoints.service.js';

export interface AuditTrailServices {
  trail: AuditTrailService;
  checkpoints: CheckpointsService;
}

/** The audit trail (4.6, D7.5, D7.6): search, export, chain verification and signed checkpoints. */
export function registerAuditTrailRoutes(app: App, { trail, checkpoints }: AuditTrailServices): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get('/audit', { schema: searchAuditSchema }, async (request) => trail.search(callerOf(request), request.query));

  api.get('/audit/export', { schema: exportAuditSchema }, async (request, reply) => {
    const file = await trail.export(callerOf(request), request.query);
    return sendDownload(reply, file, file.stream);
  });

  api.get('/audit/verify', { schema: verifyAuditSchema }, async (request) => ({
    data: await trail.verify(callerOf(request), undefined, { evidence: request.query.evidence === true }),
  }));

  api.post('/audit/verify', { schema: verifyCheckpointSchema }, async (request) => ({
    data: await trail.verify(callerOf(request), request.body),
  }));

  api.get('/audit/checkpoints', { schema: listCheckpointsSchema }, async (request) =>
    checkpoints.list(callerOf(request), request.query),
  );

  api.post('/audit/checkpoints', { schema: createCheckpointSchema, config: { idempotent: true } }, async (request, reply) =>
    created(reply, await checkpoints.create(callerOf(request), termsOf(request)), 'Checkpoint signed'));
}
