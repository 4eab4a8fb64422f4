import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import { recordChange } from '../../../platform/audit/record-change.js';
import { sameAssignments, type Caller, type EntityAssignment } from '../../../platform/auth/principal.js';
import type { PrincipalResolver } from '../../../platform/auth/principal-resolver.js';
import { diffFields, fromTo } from '../../../platform/changes/field-diff.js';
import { lockForChange, updateVersioned, type RecordLookup } from '../../../platform/changes/versioned-change.js';
import type { DB, Executor } from '../../../platform/db/schema.js';
import { inTransaction, joinWork } from '../../../platform/db/transaction.js';
import { invalidState, notFound } from '../../../platform/errors/app-error.js';
import { loadPage, pageRequest } from '../../../platform/http/pagination.js';
import type { MailDelivery } from '../../../platform/mail/delivery.js';
import type { ChangeTerms } from '../../../platform/versions/change-terms.js';
import { versioned, versionState, type Versioned } from '../../../platform/versions/resource-state.js';
import { createIdentityService } from '../identity.service.js';
import { requireIntegrationAdmin } from '../integrations.policy.js';
import type { CreateServiceAccountBody, ListServiceAccountsQuery, ServiceAccountView, UpdateServiceAccountBody } from './service-accounts.schemas.js';
import {
  countServiceAccounts,
  findServiceAccount,
  insertServiceAccount,
  listServiceAccounts,
  lockServiceAccount,
  replaceAssignments,
  updateServiceAccount,
  type ServiceAccountRow,
} from './service-accounts.repository.js';
import { revokeAccountTokens } from './tokens.repository.js';

export interface ServiceAccountsServiceDeps {
  db: Executor;
  principals: Pick<PrincipalResolver, 'invalidateUser'>;
  mail: Pick<MailDelivery, 'wake'>;
}

/**
 * The address of a service account's identity: `users` needs one, and `.invalid` (RFC 2606) is never
 * delivered, so no invitation or recovery mail can reach anyone for it.
 */
export const SERVICE_ACCOUNT_EMAIL_DOMAIN = 'service-accounts.invalid';

const presentAccount = (row: ServiceAccountRow): ServiceAccountView => ({
  id: row.id,
  name: row.name,
  description: row.description,
  role: row.role,
  active: row.active,
  entity_assignments: row.entity_assignments,
  live_tokens: row.live_tokens,
  last_used_at: row.last_used_at === null ? null : new Date(row.last_used_at),
  created_by: row.created_by,
  created_at: row.created_at,
  updated_at: row.updated_at,
  deactivated_at: row.deactivated_at,
});

const assignmentsOf = (input: CreateServiceAccountBody['entity_assignments']): EntityAssignment[] =>
  (input ?? []).map((a) => ({ legal_entity_id: a.legal_entity_id, business_unit_id: a.business_unit_id ?? null }));

export const oneAccount = (trx: Transaction<DB>, enterpriseId: string, id: string): RecordLookup<ServiceAccountRow> => ({
  noun: 'Service account',
  lock: () => lockServiceAccount(trx, enterpriseId, id),
});

type Editable = { name: string; description: string | null; role: ServiceAccountRow['role'] };

/**
 * Service accounts: identities of an enterprise's integrations, with a role and entity assignments, which
 * their tokens (tokens.service.ts) act with. Each is an identity too (made by the identity service), so the
 * records it creates and its audit entries name it like any user.
 */
export function createServiceAccountsService({ db, principals, mail }: ServiceAccountsServiceDeps) {
  async function readAccount(caller: Caller, id: string): Promise<ServiceAccountRow> {
    requireIntegrationAdmin(caller);
    const row = await findServiceAccount(db, caller.enterpriseId, id);
    if (row === undefined) throw notFound('Service account');
    return row;
  }

  return {
    readAccount,

    async create(caller: Caller, body: CreateServiceAccountBody, terms: ChangeTerms): Promise<ServiceAccountView> {
      requireIntegrationAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      return inTransaction(joinWork(db, terms.work), async ({ trx }) => {
        const identity = await createIdentityService({ db: trx, principals, mail }).createUser({
          email: `${randomUUID()}@${SERVICE_ACCOUNT_EMAIL_DOMAIN}`,
          full_name: body.name,
        });
        await insertServiceAccount(trx, enterpriseId, {
          id: identity.id,
          name: body.name,
          description: body.description || null,
          role: body.role,
          created_by: caller.userId,
        });
        const assignments = assignmentsOf(body.entity_assignments);
        await replaceAssignments(trx, enterpriseId, identity.id, assignments);
        await recordChange(trx, caller, {
          action: 'create',
          entityType: 'service_account',
          entityId: identity.id,
          details: { name: body.name, role: body.role, entity_assignments: assignments },
        });
        return presentAccount((await findServiceAccount(trx, enterpriseId, identity.id))!);
      });
    },

    async list(caller: Caller, query: ListServiceAccountsQuery) {
      requireIntegrationAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      const includeInactive = query.include_inactive === true;
      const page = await loadPage(
        pageRequest(query),
        () => countServiceAccounts(db, enterpriseId, includeInactive),
        (limit, offset) => listServiceAccounts(db, enterpriseId, includeInactive, limit, offset),
      );
      return { ...page, data: page.data.map(presentAccount) };
    },

    async get(caller: Caller, id: string): Promise<Versioned<ServiceAccountView>> {
      const row = await readAccount(caller, id);
      return versioned(presentAccount(row), versionState(row.row_version));
    },

    /** Assignments are replaced as a whole; the account's tokens act with the change from their next request. */
    async update(caller: Caller, id: string, body: UpdateServiceAccountBody, terms: ChangeTerms): Promise<Versioned<ServiceAccountView>> {
      requireIntegrationAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      const wanted: Partial<Editable> = {
        name: body.name,
        description: body.description === undefined ? undefined : body.description || null,
        role: body.role,
      };
      const assignments = body.entity_assignments === undefined ? undefined : assignmentsOf(body.entity_assignments);
      return inTransaction(db, async ({ trx }) => {
        const { row } = await updateVersioned(trx, caller, terms, {
          ...oneAccount(trx, enterpriseId, id),
          refuse: (before) => {
            if (!before.active) throw invalidState('The service account is deactivated');
          },
          diff: (before) => {
            const fields = diffFields<Editable>(before, wanted);
            const newAssignments = assignments !== undefined && !sameAssignments(before.entity_assignments, assignments) ? assignments : undefined;
            return Object.keys(fields.set).length === 0 && newAssignments === undefined ? null : { fields, newAssignments };
          },
          write: async (_before, { fields, newAssignments }) => {
            // Always an UPDATE of the row (its updated_at at least): the version moves with the assignments too.
            await updateServiceAccount(trx, enterpriseId, id, fields.set);
            if (newAssignments !== undefined) await replaceAssignments(trx, enterpriseId, id, newAssignments);
            return (await lockServiceAccount(trx, enterpriseId, id))!;
          },
          audit: (before, _after, { fields, newAssignments }) => ({
            entityType: 'service_account',
            entityId: id,
            details: {
              changes: {
                ...fromTo(fields),
                ...(newAssignments === undefined ? {} : { entity_assignments: { from: before.entity_assignments.map(({ legal_entity_id, business_unit_id }) => ({ legal_entity_id, business_unit_id })), to: newAssignments } }),
              },
            },
          }),
        });
        return versioned(presentAccount(row), versionState(row.row_version));
      });
    },

    /** Deactivation: every token revoked, the identity deactivated, the account kept for the audit trail. */
    async deactivate(caller: Caller, id: string, terms: ChangeTerms): Promise<void> {
      requireIntegrationAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      await inTransaction(db, async ({ trx }) => {
        const account = await lockForChange(oneAccount(trx, enterpriseId, id), terms);
        if (!account.active) throw invalidState('The service account is deactivated already');
        const at = new Date();
        await updateServiceAccount(trx, enterpriseId, id, { active: false, deactivated_at: at });
        const revoked = await revokeAccountTokens(trx, enterpriseId, id, caller.userId, at);
        await createIdentityService({ db: trx, principals, mail }).deactivate(id, at);
        await recordChange(trx, caller, {
          action: 'delete',
          entityType: 'service_account',
          entityId: id,
          details: { name: account.name, role: account.role, tokens_revoked: revoked },
        });
      });
    },
  };
}

export type ServiceAccountsService = ReturnType<typeof createServiceAccountsService>;
