import type { Caller } from '../../platform/auth/principal.js';
import type { RequestConditions } from '../../platform/http/conditional/preconditions.js';
import { AppError } from '../../platform/http/errors.js';
import { need, type DemoContext, type DemoStep } from '../demo-context.js';

/** What a route declaring `ifMatch` hands the service, with the version it then serves (the answer's ETag). */
const changingAt = (caller: Caller, ifMatch: '*' | number): Caller & { conditions: RequestConditions } => ({
  ...caller,
  conditions: { ifMatch: ifMatch === '*' ? '*' : [String(ifMatch)], required: false, version: null },
});

/**
 * The organisation's upkeep is safe too: two client admins hold the same ETag of a business unit; the first
 * one's change applies, the second one's, made on the version it held, is refused (412) rather than
 * overwriting it.
 */
export const organisationVersionsStep: DemoStep = {
  title: 'Safe clients: the organisation\'s upkeep',
  async run(context: DemoContext) {
    const admin = need(context.actors.clientAdmin, 'the client admin');
    const service = context.services['legal-entities'];
    const [entityName, entity] = need([...context.legalEntities][0], 'a legal entity');
    const [unitName, unitId] = need([...entity.businessUnits][0], `a business unit of ${entityName}`);
    const described = changingAt(admin, '*');
    await service.updateBusinessUnit(described, unitId, { description: `${unitName} of ${entityName}` });
    const held = need(described.conditions.version, 'the version after the change');
    const first = changingAt(admin, held);
    await service.updateBusinessUnit(first, unitId, { description: `${unitName} of ${entityName}, reviewed by the risk committee` });
    context.log(`  ${unitName}: described on version ${held}, now version ${String(first.conditions.version)}`);
    try {
      await service.updateBusinessUnit(changingAt(admin, held), unitId, { name: `${unitName} (renamed)` });
      throw new Error('the stale rename was applied');
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'PRECONDITION_FAILED') throw error;
      context.log(`  a rename on version ${held}: refused, ${error.code} (current ETag ${String(error.details?.['current_etag'])})`);
    }
    context.notes.push(
      'Safe clients: PATCH and archive of /api/v1/legal-entities/{id}, /business-units/{id} and /risk-scenarios/{id} ' +
        'take If-Match (412 when stale) and answer the new ETag.',
    );
  },
};
