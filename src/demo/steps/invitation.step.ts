import { NO_TERMS } from '../../platform/versions/change-terms.js';
import { need, type DemoContext, type DemoStep, clientAdminOf } from '../demo-context.js';
import { DEMO_INVITEE } from '../demo-data.js';

/**
 * Onboarding by e-mail: the client admin invites one more reviewer, who has no password yet. The outbox is
 * then delivered: this invitation goes out (to DATA_DIR/mail as an .eml file without SMTP_URL), and the
 * invitations of the people whose passwords the demo set are dropped, their purpose done.
 */
export const invitationStep: DemoStep = {
  title: 'An invitation by e-mail',
  async run(context: DemoContext) {
    const { clientAdmin, enterpriseId } = clientAdminOf(context);
    const entity = need(context.legalEntities.get(DEMO_INVITEE.legalEntity), `legal entity ${DEMO_INVITEE.legalEntity}`);
    const user = await context.services.admin.users.create(clientAdmin, enterpriseId, {
      email: DEMO_INVITEE.email,
      full_name: DEMO_INVITEE.fullName,
      role: DEMO_INVITEE.role,
    }, NO_TERMS);
    await context.services.admin.entityRoles.create(clientAdmin, user.user_id, { legal_entity_id: entity.id }, NO_TERMS);
    const delivered = await context.mail.deliverDue();
    if (delivered.failed > 0) {
      context.notes.push(`The invitation of ${DEMO_INVITEE.email} could not be sent yet (${context.mail.destination}); the service retries it.`);
      return;
    }
    context.notes.push(
      `${DEMO_INVITEE.fullName} (${DEMO_INVITEE.email}, reviewer) is invited and has no password yet: the invitation mail went to ` +
        `${context.mail.destination}. Its link signs them in (GET /auth/v1/verify), then PUT /auth/v1/user sets a password.`,
    );
  },
};
