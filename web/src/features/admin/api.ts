import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api-client';
import type { BodyOf, DataOf, QueryOf } from '../../lib/api-types';
import { queryKeys } from '../../lib/query-keys';

export type Enterprise = DataOf<'/api/v1/admin/enterprises', 'get'>[number];
export type EnterpriseUser = DataOf<'/api/v1/admin/enterprises/{enterprise_id}/users', 'get'>[number];
export type Alert = DataOf<'/api/v1/admin/alerts', 'get'>[number];
export type AlertQuery = QueryOf<'/api/v1/admin/alerts', 'get'>;

export function useEnterprises(page: number, enabled = true) {
  return useQuery({
    queryKey: queryKeys.admin.enterprises({ page }),
    queryFn: () => unwrap(api.GET('/api/v1/admin/enterprises', { params: { query: { page, page_size: 20 } } })),
    enabled,
    placeholderData: (previous) => previous,
  });
}

export function useCreateEnterprise() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyOf<'/api/v1/admin/enterprises', 'post'>) => unwrap(api.POST('/api/v1/admin/enterprises', { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: ['admin', 'enterprises'] }),
  });
}

export function useSetEnterpriseStatus() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: 'active' | 'inactive' }) =>
      unwrap(api.PATCH('/api/v1/admin/enterprises/{enterprise_id}', { params: { path: { enterprise_id: id } }, body: { status } })),
    onSuccess: () => client.invalidateQueries({ queryKey: ['admin', 'enterprises'] }),
  });
}

export function useEnterpriseUsers(enterpriseId: string | null, includeInactive = false) {
  const query = { include_inactive: includeInactive };
  return useQuery({
    queryKey: queryKeys.admin.users(enterpriseId ?? '', query),
    queryFn: async () => (await unwrap(api.GET('/api/v1/admin/enterprises/{enterprise_id}/users', { params: { path: { enterprise_id: enterpriseId! }, query } }))).data,
    enabled: enterpriseId !== null,
  });
}

function useUsersChanged(enterpriseId: string) {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: queryKeys.admin.usersOf(enterpriseId) });
}

export function useAddUser(enterpriseId: string) {
  const changed = useUsersChanged(enterpriseId);
  return useMutation({
    mutationFn: (body: BodyOf<'/api/v1/admin/enterprises/{enterprise_id}/users', 'post'>) =>
      unwrap(api.POST('/api/v1/admin/enterprises/{enterprise_id}/users', { params: { path: { enterprise_id: enterpriseId } }, body })),
    onSuccess: changed,
  });
}

export function useDeactivateUser(enterpriseId: string) {
  const changed = useUsersChanged(enterpriseId);
  return useMutation({
    mutationFn: (userId: string) => unwrap(api.DELETE('/api/v1/admin/enterprises/{enterprise_id}/users/{user_id}', { params: { path: { enterprise_id: enterpriseId, user_id: userId } } })),
    onSuccess: changed,
  });
}

/** A new invitation mail with a new link; the user's earlier links stop working. */
export function useResendInvitation(enterpriseId: string) {
  const changed = useUsersChanged(enterpriseId);
  return useMutation({
    mutationFn: (userId: string) =>
      unwrap(api.POST('/api/v1/admin/enterprises/{enterprise_id}/users/{user_id}/invitation', { params: { path: { enterprise_id: enterpriseId, user_id: userId } } })),
    onSuccess: changed,
  });
}

export function useReactivateUser(enterpriseId: string) {
  const changed = useUsersChanged(enterpriseId);
  return useMutation({
    mutationFn: (userId: string) =>
      unwrap(api.POST('/api/v1/admin/enterprises/{enterprise_id}/users/{user_id}/reactivate', { params: { path: { enterprise_id: enterpriseId, user_id: userId } } })),
    onSuccess: changed,
  });
}

export type MemberRole = EnterpriseUser['role'];
export type EntityRole = DataOf<'/api/v1/admin/users/{user_id}/entity-roles', 'get'>[number];

/** A member's new role; the answer is the member as the list shows them. */
export function useChangeRole(enterpriseId: string) {
  const client = useQueryClient();
  const changed = useUsersChanged(enterpriseId);
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: MemberRole }) =>
      unwrap(api.PATCH('/api/v1/admin/enterprises/{enterprise_id}/users/{user_id}', { params: { path: { enterprise_id: enterpriseId, user_id: userId } }, body: { role } })),
    onSuccess: (answer) => {
      // The answer is the member as the list shows them: the row shows the new role at once, before the refetch.
      client.setQueriesData<EnterpriseUser[]>({ queryKey: queryKeys.admin.usersOf(enterpriseId) }, (list) =>
        list?.map((user) => (user.user_id === answer.data.user_id ? answer.data : user)),
      );
      return changed();
    },
  });
}

/** A member's entity roles with their ids (what removing one takes); the list answer names them only. */
export function useEntityRoles(userId: string | null) {
  return useQuery({
    queryKey: queryKeys.admin.entityRoles(userId ?? ''),
    queryFn: async () => (await unwrap(api.GET('/api/v1/admin/users/{user_id}/entity-roles', { params: { path: { user_id: userId! } } }))).data,
    enabled: userId !== null,
  });
}

function useAccessChanged(enterpriseId: string) {
  const client = useQueryClient();
  const users = useUsersChanged(enterpriseId);
  return (userId: string) => Promise.all([users(), client.invalidateQueries({ queryKey: queryKeys.admin.entityRoles(userId) })]);
}

export function useGrantEntity(enterpriseId: string) {
  const changed = useAccessChanged(enterpriseId);
  return useMutation({
    mutationFn: ({ userId, legalEntityId, businessUnitId }: { userId: string; legalEntityId: string; businessUnitId?: string | null }) =>
      unwrap(
        api.POST('/api/v1/admin/users/{user_id}/entity-roles', {
          params: { path: { user_id: userId } },
          body: { legal_entity_id: legalEntityId, ...(businessUnitId ? { business_unit_id: businessUnitId } : {}) },
        }),
      ),
    onSuccess: (_data, { userId }) => changed(userId),
  });
}

export function useRemoveEntityRole(enterpriseId: string) {
  const changed = useAccessChanged(enterpriseId);
  return useMutation({
    mutationFn: ({ userId, roleId }: { userId: string; roleId: string }) =>
      unwrap(api.DELETE('/api/v1/admin/users/{user_id}/entity-roles/{role_id}', { params: { path: { user_id: userId, role_id: roleId } } })),
    onSuccess: (_data, { userId }) => changed(userId),
  });
}

export function useAlerts(query: AlertQuery) {
  return useQuery({ queryKey: queryKeys.admin.alerts(query), queryFn: () => unwrap(api.GET('/api/v1/admin/alerts', { params: { query } })), placeholderData: (previous) => previous });
}

export function useChangeAlert() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: BodyOf<'/api/v1/admin/alerts/{alert_id}', 'patch'> }) =>
      unwrap(api.PATCH('/api/v1/admin/alerts/{alert_id}', { params: { path: { alert_id: id } }, body })),
    onSuccess: () => client.invalidateQueries({ queryKey: ['admin', 'alerts'] }),
  });
}

export type EnterpriseSsoDomain = DataOf<'/api/v1/admin/enterprises/{enterprise_id}/sso/domains', 'get'>[number];

/** The e-mail domains an enterprise claimed for single sign-on (a super admin's view: those they may verify). */
export function useEnterpriseSsoDomains(enterpriseId: string | null) {
  return useQuery({
    queryKey: queryKeys.admin.ssoDomains(enterpriseId ?? ''),
    queryFn: async () =>
      (await unwrap(api.GET('/api/v1/admin/enterprises/{enterprise_id}/sso/domains', { params: { path: { enterprise_id: enterpriseId! }, query: { page_size: 100 } } }))).data,
    enabled: enterpriseId !== null,
  });
}

/** A super admin's verification of a claimed domain, without its DNS record. */
export function useAttestSsoDomain(enterpriseId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (domainId: string) => unwrap(api.POST('/api/v1/admin/sso/domains/{domain_id}/verify', { params: { path: { domain_id: domainId } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.admin.ssoDomains(enterpriseId) }),
  });
}
