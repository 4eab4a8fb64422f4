import { NO_TERMS } from '../../platform/versions/change-terms.js';
import { need, type DemoContext, type DemoStep, clientAdminOf } from '../demo-context.js';
import { DEMO_MEMBERS } from '../demo-data.js';

/** Assessors and reviewers, added by the client admin, each with their entity assignments (D9.4). */
export const teamStep: DemoStep = {
  title: 'Assessors and reviewers with their entity assignments',
  async run(context: DemoContext) {
    const { clientAdmin, enterpriseId } = clientAdminOf(context);
    for (const person of DEMO_MEMBERS.filter((member) => member.role === 'assessor' || member.role === 'reviewer')) {
      const user = await context.services.admin.users.create(clientAdmin, enterpriseId, {
        email: person.email,
        full_name: person.fullName,
        role: person.role as 'assessor' | 'reviewer',
      }, NO_TERMS);
      for (const assignment of person.assignments) {
        const entity = need(context.legalEntities.get(assignment.legalEntity), `legal entity ${assignment.legalEntity}`);
        const businessUnitId =
          assignment.businessUnit === undefined
            ? undefined
            : need(entity.businessUnits.get(assignment.businessUnit), `business unit ${assignment.businessUnit}`);
        await context.services.admin.entityRoles.create(clientAdmin, user.user_id, {
          legal_entity_id: entity.id,
          ...(businessUnitId !== undefined ? { business_unit_id: businessUnitId } : {}),
        }, NO_TERMS);
      }
      context.people.set(person.key, { userId: user.user_id, person });
    }
  },
};
