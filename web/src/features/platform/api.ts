import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api-client';
import type { BodyOf, DataOf } from '../../lib/api-types';
import { queryKeys } from '../../lib/query-keys';

export type EnterpriseHealth = DataOf<'/api/v1/admin/enterprises/{enterprise_id}/health', 'get'>;
export type SuperAdmin = DataOf<'/api/v1/admin/super-admins', 'get'>[number];
export type Tier = NonNullable<BodyOf<'/api/v1/admin/enterprises/{enterprise_id}', 'patch'>['subscription_tier']>;
export const TIERS: Tier[] = ['starter', 'professional', 'enterprise'];

export function useEnterpriseHealth(enterpriseId: string | null) {
  return useQuery({
    queryKey: queryKeys.platform.health(enterpriseId ?? ''),
    queryFn: async () => (await unwrap(api.GET('/api/v1/admin/enterprises/{enterprise_id}/health', { params: { path: { enterprise_id: enterpriseId! } } }))).data,
    enabled: enterpriseId !== null,
  });
}

export function useSetTier() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, tier }: { id: string; tier: Tier }) =>
      unwrap(api.PATCH('/api/v1/admin/enterprises/{enterprise_id}', { params: { path: { enterprise_id: id } }, body: { subscription_tier: tier } })),
    onSuccess: () => client.invalidateQueries({ queryKey: ['admin', 'enterprises'] }),
  });
}

export function useSuperAdmins() {
  return useQuery({ queryKey: queryKeys.platform.superAdmins, queryFn: async () => (await unwrap(api.GET('/api/v1/admin/super-admins'))).data });
}

export function useAddSuperAdmin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyOf<'/api/v1/admin/super-admins', 'post'>) => unwrap(api.POST('/api/v1/admin/super-admins', { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.platform.superAdmins }),
  });
}

export function useRemoveSuperAdmin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => unwrap(api.DELETE('/api/v1/admin/super-admins/{user_id}', { params: { path: { user_id: userId } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.platform.superAdmins }),
  });
}
