import { primaryOnly } from '../platform/db/read-routing.js';
import type { Config } from '../config.js';
import { pino } from 'pino';
import { moduleServices, prepareModuleMail } from '../modules/index.js';
import { createPrincipalResolver } from '../platform/auth/principal-resolver.js';
import { linkExternalSubject } from '../modules/identity/identity.service.js';
import { createPasswordHasher } from '../modules/identity/passwords.js';
import { createOidcClients } from '../modules/identity/sso/oidc-client.js';
import { createSamlClients } from '../modules/identity/sso/saml-client.js';
import { createProviderService } from '../modules/identity/provider/provider.service.js';
import { loadAuthSecrets, type AuthSecrets } from '../platform/auth/secrets.js';
import { createTokenVerifier } from '../platform/auth/token-verifier.js';
import type { Database } from '../platform/db/engine.js';
import { createMailDelivery } from '../platform/mail/delivery.js';
import { createMailer } from '../platform/mail/mailer.js';
import type { DemoContext, DemoCredential, DemoServices, DemoStep } from './demo-context.js';
import { DEMO_ENTERPRISE, DEMO_INVITEE, DEMO_MEMBERS, DEMO_SUPER_ADMIN, assignmentLabels } from './demo-data.js';
import { findActiveUsersByEmail, findEnterpriseByName } from './demo.repository.js';
import { actionsStep } from './steps/actions.step.js';
import { brasStep } from './steps/bras.step.js';
import { catalogueStep } from './steps/catalogue.step.js';
import { clientAdminStep } from './steps/client-admin.step.js';
import { controlRetestsStep } from './steps/control-retests.step.js';
import { continuityStep } from './steps/continuity.step.js';
import { controlsStep } from './steps/controls.step.js';
import { enterpriseStep } from './steps/enterprise.step.js';
import { governanceStep } from './steps/governance.step.js';
import { invitationStep } from './steps/invitation.step.js';
import { organisationStep } from './steps/organisation.step.js';
import { passwordsStep } from './steps/passwords.step.js';
import { organisationVersionsStep } from './steps/organisation-versions.step.js';
import { safeClientsStep } from './steps/safe-clients.step.js';
import { starterLibraryStep } from './steps/starter-library.step.js';
import { platformAdminStep } from './steps/platform-admin.step.js';
import { reportingStep } from './steps/reporting.step.js';
import { reviewCommentsStep } from './steps/review-comments.step.js';
import { teamStep } from './steps/team.step.js';
import { webhooksStep } from './steps/webhooks.step.js';

/**
 * The demo, in order. The next wave's domain modules append their steps here (BRAs with scenarios and
 * ratings, controls with test results, mitigation actions, appetite overrides), acting as the people
 * created above; the report prints only the credentials and the notes the steps leave.
 */
export const DEMO_STEPS: readonly DemoStep[] = [
  platformAdminStep,
  enterpriseStep,
  clientAdminStep,
  organisationStep,
  catalogueStep,
  teamStep,
  controlsStep,
  controlRetestsStep,
  starterLibraryStep,
  passwordsStep,
  invitationStep,
  brasStep,
  reviewCommentsStep,
  actionsStep,
  continuityStep,
  governanceStep,
  safeClientsStep,
  organisationVersionsStep,
  reportingStep,
  webhooksStep,
];

export type DemoResult =
  | { outcome: 'created'; enterprise: { id: string; name: string }; credentials: DemoCredential[]; notes: string[]; anonKey: string }
  | { outcome: 'exists'; enterprise: { id: string; name: string; created_at: Date }; credentials: DemoCredential[]; notes: string[]; anonKey: string };

/** The demo cannot run here, and nothing was changed: said plainly, not as a crash. */
export class DemoRefusal extends Error {
  override name = 'DemoRefusal';
}

export class DemoStepError extends Error {
  override name = 'DemoStepError';
  constructor(
    readonly step: string,
    override readonly cause: unknown,
  ) {
    super(`Demo step "${step}" failed: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

export interface DemoOptions {
  /** The provider's keys; loaded from the database (as the service does) when not given. */
  secrets?: AuthSecrets;
  log?: (message: string) => void;
  steps?: readonly DemoStep[];
}

/**
 * Creates the demo enterprise on an open, migrated database, through the domain services. Running it
 * again finds the enterprise by name and changes nothing.
 */
export async function runDemo(database: Database, config: Config, options: DemoOptions = {}): Promise<DemoResult> {
  const { db } = database;
  const log = options.log ?? (() => undefined);
  if (config.auth.mode !== 'embedded') {
    throw new DemoRefusal('The demo sets passwords through the embedded identity provider: run it with AUTH_MODE=embedded.');
  }
  const secrets = options.secrets ?? (await loadAuthSecrets(db, config, log));

  const existing = await findEnterpriseByName(db, DEMO_ENTERPRISE.name);
  if (existing !== undefined) {
    return { outcome: 'exists', enterprise: existing, credentials: await existingCredentials(database), notes: [], anonKey: secrets.anonKey };
  }
  // The demo's own super admin may remain from an earlier, interrupted run: it is reused, not a collision.
  const taken = (await findActiveUsersByEmail(db, [DEMO_SUPER_ADMIN, ...DEMO_MEMBERS, DEMO_INVITEE].map((person) => person.email))).filter(
    (user) => !(user.is_super_admin && user.email.toLowerCase() === DEMO_SUPER_ADMIN.email.toLowerCase()),
  );
  if (taken.length > 0) {
    throw new DemoRefusal(
      `These demo e-mail addresses already belong to active users, so the demo would collide with them: ${taken.map((user) => user.email).join(', ')}.`,
    );
  }

  // A step's lines come under its title; a step with nothing to add is one line, never a bare heading.
  let lines: string[] = [];
  const mailer = createMailer(config.mail);
  const context = newContext(database, config, secrets, (line) => lines.push(line), mailer);
  try {
    for (const step of options.steps ?? DEMO_STEPS) {
      lines = [];
      try {
        await step.run(context);
      } catch (error) {
        throw new DemoStepError(step.title, error);
      }
      if (lines.length === 0) log(`- ${step.title}: done`);
      else for (const line of [`- ${step.title}`, ...lines]) log(line);
    }
  } finally {
    mailer.close();
  }
  const enterpriseId = context.enterpriseId as string;
  return {
    outcome: 'created',
    enterprise: { id: enterpriseId, name: DEMO_ENTERPRISE.name },
    credentials: context.credentials,
    notes: context.notes,
    anonKey: secrets.anonKey,
  };
}

function newContext(
  database: Database,
  config: Config,
  secrets: AuthSecrets,
  log: (message: string) => void,
  mailer: ReturnType<typeof createMailer>,
): DemoContext {
  const { db } = database;
  const principals = createPrincipalResolver(db, config.auth.mode, linkExternalSubject);
  const silent = pino({ level: 'silent' });
  // The demo delivers its mail itself, at the end of the step that queues it (no background rounds).
  const mail = createMailDelivery({ db, mailer, prepare: prepareModuleMail(db, config), log: silent, domain: new URL(config.publicUrl).hostname });
  const quiet = { ...mail, wake: () => undefined };
  const services: DemoServices = {
    // The demo streams no export, the one service work that logs off a request: nothing to show.
    ...moduleServices(db, { config, principals, log: silent, mail: quiet, reads: primaryOnly() }),
    provider: createProviderService({
      db,
      secrets,
      tokenClaims: { issuer: config.auth.issuer, audience: config.auth.audience },
      verify: createTokenVerifier(config, secrets),
      principals,
      // The demo signs nobody in: there are no refused attempts to report.
      monitor: { authFailure: () => undefined },
      passwords: createPasswordHasher(),
      redirectUrls: config.auth.redirectUrls,
      wakeMail: () => undefined,
      log: silent,
      publicUrl: config.publicUrl,
      oidc: createOidcClients(config.sso),
      saml: createSamlClients(config),
    }),
  };
  return {
    db,
    config,
    secrets,
    services,
    mail: quiet,
    actors: { superAdmin: null, clientAdmin: null },
    enterpriseId: null,
    legalEntities: new Map(),
    people: new Map(),
    credentials: [],
    notes: [],
    log,
  };
}

/** On a second run: the demo people who are still active, with the passwords the demo gave them. */
async function existingCredentials(database: Database): Promise<DemoCredential[]> {
  const people = [DEMO_SUPER_ADMIN, ...DEMO_MEMBERS];
  const active = await findActiveUsersByEmail(
    database.db,
    people.map((person) => person.email),
  );
  const activeEmails = new Set(active.map((user) => user.email.toLowerCase()));
  return people
    .filter((person) => activeEmails.has(person.email.toLowerCase()))
    .map((person) => ({
      role: person.role,
      email: person.email,
      fullName: person.fullName,
      password: person.password,
      assignments: assignmentLabels(person),
    }));
}
