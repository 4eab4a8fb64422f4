import { NO_TERMS } from '../../platform/versions/change-terms.js';
import { need, type DemoContext, type DemoStep } from '../demo-context.js';
import { DEMO_LEGAL_ENTITIES } from '../demo-data.js';

/** Legal entities and their business units, created by the client admin (D5). */
export const organisationStep: DemoStep = {
  title: 'Legal entities and business units',
  async run(context: DemoContext) {
    const clientAdmin = need(context.actors.clientAdmin, 'the client admin');
    const legalEntities = context.services['legal-entities'];
    for (const entity of DEMO_LEGAL_ENTITIES) {
      const created = await legalEntities.create(clientAdmin, { name: entity.name, description: entity.description }, NO_TERMS);
      const businessUnits = new Map<string, string>();
      for (const unitName of entity.businessUnits) {
        const unit = await legalEntities.createBusinessUnit(clientAdmin, created.id, { name: unitName }, NO_TERMS);
        businessUnits.set(unitName, unit.id);
      }
      context.legalEntities.set(entity.name, { id: created.id, businessUnits });
      context.log(`  ${entity.name}: ${entity.businessUnits.join(', ')}`);
    }
  },
};
