import { randomUUID } from 'node:crypto';
import { recordChange } from '../../../platform/audit/record-change.js';
import { sameAssignments, type Caller } from '../../../platform/auth/principal.js';
import { updateVersioned } from '../../../platform/changes/versioned-change.js';
import type { Executor } from '../../../platform/db/schema.js';
import { inTransaction, joinWork } from '../../../platform/db/transaction.js';
import { notFound, validationError } from '../../../platform/errors/app-error.js';
import { loadPage, pageRequest } from '../../../platform/http/pagination.js';
import type { ChangeTerms } from '../../../platform/versions/change-terms.js';
import { versioned, versionState, type Versioned } from '../../../platform/versions/resource-state.js';
import { createMembersProvisioning, type MembersProvisioningDeps } from '../../admin/members-provisioning.service.js';
import { issueToken } from '../integration-tokens/integration-token.js';
import { requireIntegrationAdmin } from '../integrations.policy.js';
import { deriveRoles } from './protocol/role-derivation.js';
import { SCIM_PREFIX } from './protocol/scim.routes.js';
import { countGroups, findGroup, listGroups, lockGroup, memberIdsOf, replaceGroupAssignments, updateGroup, type GroupRow } from './scim-groups.repository.js';
import type { IssueScimTokenBody, ScimGroupView, ScimListQuery, UpdateGroupMappingBody } from './scim-settings.schemas.js';
import { countScimTokens, insertScimToken, listScimTokens, lockScimToken, revokeScimToken } from './scim-tokens.repository.js';

export interface ScimSettingsDeps extends MembersProvisioningDeps {
  db: Executor;
  publicUrl: string;
}

const presentGroup = (row: GroupRow): ScimGroupView => ({
  id: row.id,
  display_name: row.display_name,
  external_id: row.external_id,
  role: row.role,
  entity_assignments: row.entity_assignments,
  member_count: row.member_count,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

/** SCIM's settings in the API: the enterprise's SCIM tokens and the mapping of pushed groups (client admins, in person). */
export function createScimSettingsService({ db, publicUrl, ...deps }: ScimSettingsDeps) {
  return {
    async listTokens(caller: Caller, query: ScimListQuery) {
      requireIntegrationAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      return loadPage(pageRequest(query), () => countScimTokens(db, enterpriseId), (limit, offset) => listScimTokens(db, enterpriseId, limit, offset));
    },

    async issueToken(caller: Caller, body: IssueScimTokenBody, terms: ChangeTerms) {
      requireIntegrationAdmin(caller);
      const expiresAt = body.expires_at === undefined ? null : new Date(body.expires_at);
      if (expiresAt !== null && expiresAt.getTime() <= Date.now()) throw validationError([{ field: 'expires_at', message: 'must be in the future' }]);
      const issued = issueToken('scim', randomUUID());
      return inTransaction(joinWork(db, terms.work), async ({ trx }) => {
        const row = await insertScimToken(trx, caller.enterpriseId, { id: issued.id, name: body.name, secret_hash: issued.secretHash, hint: issued.hint, expires_at: expiresAt, created_by: caller.userId });
        await recordChange(trx, caller, { action: 'create', entityType: 'scim_token', entityId: row.id, details: { name: row.name, expires_at: expiresAt?.toISOString() ?? null } });
        return { ...row, token: issued.token, scim_base_url: `${publicUrl}${SCIM_PREFIX}` };
      });
    },

    async revokeToken(caller: Caller, id: string) {
      requireIntegrationAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      return inTransaction(db, async ({ trx }) => {
        const token = await lockScimToken(trx, enterpriseId, id);
        if (token === undefined) throw notFound('SCIM token');
        if (token.revoked_at !== null) return token;
        const revoked = await revokeScimToken(trx, enterpriseId, id, caller.userId, new Date());
        await recordChange(trx, caller, { action: 'delete', entityType: 'scim_token', entityId: id, details: { name: token.name } });
        return revoked;
      });
    },

    async listGroups(caller: Caller, query: ScimListQuery) {
      requireIntegrationAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      const page = await loadPage(pageRequest(query), () => countGroups(db, enterpriseId, null), (limit, offset) => listGroups(db, enterpriseId, null, limit, offset));
      return { ...page, data: page.data.map(presentGroup) };
    },

    async getGroup(caller: Caller, id: string): Promise<Versioned<ScimGroupView>> {
      requireIntegrationAdmin(caller);
      const row = await findGroup(db, caller.enterpriseId, id);
      if (row === undefined) throw notFound('Group');
      return versioned(presentGroup(row), versionState(row.row_version));
    },

    /** The mapping changes, and with it the role and entity roles of every member of the group, in one transaction. */
    async updateGroup(caller: Caller, id: string, body: UpdateGroupMappingBody, terms: ChangeTerms): Promise<Versioned<ScimGroupView>> {
      requireIntegrationAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      const assignments = body.entity_assignments?.map((a) => ({ legal_entity_id: a.legal_entity_id, business_unit_id: a.business_unit_id ?? null }));
      return inTransaction(db, async ({ trx }) => {
        const { row } = await updateVersioned(trx, caller, terms, {
          noun: 'Group',
          lock: () => lockGroup(trx, enterpriseId, id),
          diff: (before) => {
            const wantedRole = body.role;
            const role = wantedRole === undefined || Object.is(wantedRole, before.role) ? undefined : wantedRole;
            const entities = assignments === undefined || sameAssignments(assignments, before.entity_assignments) ? undefined : assignments;
            return role === undefined && entities === undefined ? null : { role, entities };
          },
          write: async (_before, { role, entities }) => {
            await updateGroup(trx, enterpriseId, id, role === undefined ? {} : { role });
            if (entities !== undefined) await replaceGroupAssignments(trx, enterpriseId, id, entities);
            const actor = { details: { actor: 'scim_mapping', changed_by: caller.userId, scim_group_id: id }, ip: caller.ip, userAgent: caller.userAgent, operation: caller.operation };
            await deriveRoles(trx, enterpriseId, await memberIdsOf(trx, enterpriseId, id), createMembersProvisioning(trx, actor, deps));
            return (await lockGroup(trx, enterpriseId, id))!;
          },
          audit: (before, _after, { role, entities }) => ({
            entityType: 'scim_group',
            entityId: id,
            details: {
              display_name: before.display_name,
              changes: {
                ...(role === undefined ? {} : { role: { from: before.role, to: role } }),
                ...(entities === undefined ? {} : { entity_assignments: { from: before.entity_assignments.map(({ legal_entity_id, business_unit_id }) => ({ legal_entity_id, business_unit_id })), to: entities } }),
              },
            },
          }),
        });
        return versioned(presentGroup(row), versionState(row.row_version));
      });
    },
  };
}

export type ScimSettingsService = ReturnType<typeof createScimSettingsService>;
