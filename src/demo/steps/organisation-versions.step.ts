import { AppError } from '../../platform/errors/app-error.js';
import { NO_TERMS } from '../../platform/versions/change-terms.js';
import { expectState } from '../../platform/versions/resource-state.js';
import { need, type DemoContext, type DemoStep } from '../demo-context.js';

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
    const described = await service.updateBusinessUnit(admin, unitId, { description: `${unitName} of ${entityName}` }, NO_TERMS);
    const held = described.state;
    const first = await service.updateBusinessUnit(
      admin,
      unitId,
      { description: `${unitName} of ${entityName}, reviewed by the risk committee` },
      { expected: expectState(held) },
    );
    context.log(`  ${unitName}: described on version ${held.version}, now version ${first.state.version}`);
    try {
      await service.updateBusinessUnit(admin, unitId, { name: `${unitName} (renamed)` }, { expected: expectState(held) });
      throw new Error('the stale rename was applied');
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'PRECONDITION_FAILED') throw error;
      context.log(`  a rename on version ${held.version}: refused, ${error.code} (current ETag ${String(error.details?.['current_etag'])})`);
    }
    context.notes.push(
      'Safe clients: PATCH and archive of /api/v1/legal-entities/{id}, /business-units/{id} and /risk-scenarios/{id} ' +
        'take If-Match (412 when stale) and answer the new ETag.',
    );
  },
};
