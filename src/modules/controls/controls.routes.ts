import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { callerOf } from '../../platform/auth/principal.js';
import { answer, answerMessage, termsOf, created } from '../../platform/http/conditional/answers.js';
import type { App } from '../../platform/module.js';
import {
  archiveKeyControlSchema,
  archiveSubControlSchema,
  createKeyControlSchema,
  createSubControlSchema,
  effectivenessSchema,
  getSubControlSchema,
  heatMapSchema,
  listKeyControlsSchema,
  listSubControlsSchema,
  listTestsSchema,
  recordTestSchema,
  updateKeyControlSchema,
  updateSubControlSchema,
} from './controls.schemas.js';
import type { EffectivenessService } from './effectiveness/effectiveness.service.js';
import type { KeyControlsService } from './library/key-controls.service.js';
import type { SubControlTestsService } from './library/sub-control-tests.service.js';
import type { SubControlsService } from './library/sub-controls.service.js';

export interface ControlServices {
  keyControls: KeyControlsService;
  subControls: SubControlsService;
  tests: SubControlTestsService;
  effectiveness: EffectivenessService;
}

/** Control assurance (4.3, D7.1, D7.2), inside the /api/v1 gate. */
export function registerControlRoutes(app: App, { keyControls, subControls, tests, effectiveness }: ControlServices): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get('/controls/key-controls', { schema: listKeyControlsSchema }, async (request) =>
    keyControls.list(callerOf(request), request.query),
  );

  api.post('/controls/key-controls', { schema: createKeyControlSchema, config: { idempotent: true } }, async (request, reply) =>
    created(reply, await keyControls.create(callerOf(request), request.body, termsOf(request)), 'Key control created'));

  api.patch('/controls/key-controls/:key_control_id', { schema: updateKeyControlSchema, config: { ifMatch: true } }, async (request) =>
    answer(request, await keyControls.update(callerOf(request), request.params.key_control_id, request.body, termsOf(request)), 'Key control updated'),
  );

  api.post('/controls/key-controls/:key_control_id/archive', { schema: archiveKeyControlSchema, config: { ifMatch: true } }, async (request) => {
    const result = await keyControls.archive(callerOf(request), request.params.key_control_id, termsOf(request));
    return answerMessage(request, result, result.data.alreadyArchived ? 'Key control was already archived' : 'Key control and its sub-controls archived');
  });

  api.get('/controls/sub-controls', { schema: listSubControlsSchema }, async (request) => subControls.list(callerOf(request), request.query));

  api.post('/controls/sub-controls', { schema: createSubControlSchema, config: { idempotent: true } }, async (request, reply) =>
    created(reply, await subControls.create(callerOf(request), request.body, termsOf(request)), 'Sub-control created'));

  api.get('/controls/sub-controls/:sub_control_id', { schema: getSubControlSchema, config: { etag: true } }, async (request) =>
    answer(request, await subControls.detail(callerOf(request), request.params.sub_control_id), 'Sub-control'),
  );

  api.post('/controls/sub-controls/:sub_control_id/tests', { schema: recordTestSchema, config: { ifMatch: true, idempotent: true } }, async (request, reply) => {
    const result = await tests.record(callerOf(request), request.params.sub_control_id, request.body, termsOf(request));
    return reply.code(201).send(answer(request, result, 'Test recorded'));
  });

  api.get('/controls/sub-controls/:sub_control_id/tests', { schema: listTestsSchema }, async (request) =>
    tests.list(callerOf(request), request.params.sub_control_id, request.query),
  );

  api.patch('/controls/sub-controls/:sub_control_id', { schema: updateSubControlSchema, config: { ifMatch: true } }, async (request) =>
    answer(request, await subControls.recordTestResults(callerOf(request), request.params.sub_control_id, request.body, termsOf(request)), 'Sub-control updated'),
  );

  api.post('/controls/sub-controls/:sub_control_id/archive', { schema: archiveSubControlSchema, config: { ifMatch: true } }, async (request) => {
    const result = await subControls.archive(callerOf(request), request.params.sub_control_id, termsOf(request));
    return answerMessage(request, result, result.data.alreadyArchived ? 'Sub-control was already archived' : 'Sub-control archived');
  });

  api.get('/controls/effectiveness', { schema: effectivenessSchema }, async (request) => ({
    data: await effectiveness.summary(callerOf(request), request.query),
    message: 'Effectiveness summary',
  }));

  api.get('/controls/heat-map', { schema: heatMapSchema }, async (request) => ({
    data: await effectiveness.heatMap(callerOf(request), request.query),
    message: 'Control heat map',
  }));
}
