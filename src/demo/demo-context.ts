import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Caller } from '../platform/auth/principal.js';
import type { AuthSecrets } from '../platform/auth/secrets.js';
import type { ProviderService } from '../modules/identity/provider/provider.service.js';
import type { DB } from '../platform/db/schema.js';
import type { MailDelivery } from '../platform/mail/delivery.js';
import type { ModuleServices } from '../modules/index.js';
import type { DemoPerson, DemoRole } from './demo-data.js';

/**
 * The services the steps act through: every module's, built from the module list as the app builds them
 * for its routes (`services.bras.transitions.approve`), and the embedded identity provider's.
 */
export type DemoServices = ModuleServices & { provider: ProviderService };

export interface DemoCredential {
  role: DemoRole;
  email: string;
  fullName: string;
  /** null: an account the demo did not create (an existing super admin), which keeps its own password. */
  password: string | null;
  /** "Legal entity" or "Legal entity / Business unit", for assessors and reviewers. */
  assignments: string[];
}

/**
 * What the steps share. Each step reads what earlier steps produced (the actors, the enterprise, the
 * legal entities, the people) and adds its own; `need` turns a missing prerequisite into a clear error.
 */
export interface DemoContext {
  db: Kysely<DB>;
  config: Config;
  secrets: AuthSecrets;
  services: DemoServices;
  /** The mail outbox: a step that queues mail delivers it (to DATA_DIR/mail without SMTP_URL). */
  mail: Pick<MailDelivery, 'deliverDue' | 'destination'>;
  actors: { superAdmin: Caller | null; clientAdmin: Caller | null };
  enterpriseId: string | null;
  legalEntities: Map<string, { id: string; businessUnits: Map<string, string> }>;
  /** By DemoPerson.key. */
  people: Map<string, { userId: string; person: DemoPerson }>;
  credentials: DemoCredential[];
  /** The BRA the continuity step rolled forward from the approved one (left in_progress, for review comments). */
  rolledForwardBraId?: string;
  /** Lines for the final report (things the reader should know, not progress). */
  notes: string[];
  log(message: string): void;
}

/**
 * One unit of the demo. Steps run in order, each through domain services. The next wave's modules
 * (BRAs with scenarios and ratings, controls with test results, mitigation actions, appetite overrides)
 * add their steps to DEMO_STEPS in run-demo.ts; they find the enterprise, its entities and the people
 * (as actors: `callerFor`) in the context.
 */
export interface DemoStep {
  title: string;
  run(context: DemoContext): Promise<void>;
}

export function need<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`Demo step order: ${what} is not there yet`);
  return value;
}

/** The actor for a service call: the person as the API would resolve them, from this machine. */
export function callerFor(
  user: { userId: string; email: string; fullName: string },
  role: Caller['role'],
  enterpriseId: string | null,
): Caller {
  return {
    userId: user.userId,
    email: user.email,
    fullName: user.fullName,
    role,
    enterpriseId,
    sessionId: null,
    entityAssignments: [],
    ip: '127.0.0.1',
    userAgent: 'risk-assurance-demo',
    // The demo calls services directly, through no route: its entries name no operation.
    operation: null,
  };
}

/** The client admin the demo acts as, and their enterprise: what most steps start from. */
export function clientAdminOf(context: DemoContext): { clientAdmin: Caller; enterpriseId: string } {
  return { clientAdmin: need(context.actors.clientAdmin, 'the client admin'), enterpriseId: need(context.enterpriseId, 'the enterprise') };
}

/**
 * A demo person as the API would resolve them, with their entity assignments: as their own role, or as the
 * role named (the assessor who creates a BRA).
 */
export function personCaller(context: DemoContext, key: string, enterpriseId: string, role?: Caller['role']): Caller {
  const entry = need(context.people.get(key), `demo person ${key}`);
  const caller = callerFor({ userId: entry.userId, email: entry.person.email, fullName: entry.person.fullName }, role ?? (entry.person.role as Caller['role']), enterpriseId);
  caller.entityAssignments = entry.person.assignments.map((assignment) => {
    const entity = need(context.legalEntities.get(assignment.legalEntity), `legal entity ${assignment.legalEntity}`);
    return {
      legal_entity_id: entity.id,
      business_unit_id: assignment.businessUnit === undefined ? null : need(entity.businessUnits.get(assignment.businessUnit), assignment.businessUnit),
    };
  });
  return caller;
}
