import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api-client';
import type { BodyOf, DataOf } from '../../lib/api-types';
import { queryKeys } from '../../lib/query-keys';

export type Webhook = DataOf<'/api/v1/webhooks', 'get'>[number];
export type Delivery = DataOf<'/api/v1/webhooks/{webhook_id}/deliveries', 'get'>[number];
export type EventType = BodyOf<'/api/v1/webhooks', 'post'>['event_types'][number];
export type ServiceAccount = DataOf<'/api/v1/service-accounts', 'get'>[number];
export type Token = DataOf<'/api/v1/service-accounts/{service_account_id}/tokens', 'get'>[number];
export type ScimGroup = DataOf<'/api/v1/scim/groups', 'get'>[number];

/** What an endpoint may subscribe to, in the API's words (webhook.test is sent on request only). */
export const EVENT_TYPES: EventType[] = [
  'bra.created', 'bra.status_changed', 'bra.approved', 'bra.cancelled', 'risk.above_appetite',
  'mitigation_action.overdue', 'mitigation_action.completed', 'risk_appetite.changed',
];

const path = (webhookId: string) => ({ params: { path: { webhook_id: webhookId } } });

function useChanged(key: readonly unknown[]) {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: key });
}

export function useWebhooks() {
  return useQuery({ queryKey: queryKeys.integrations.webhooks, queryFn: async () => (await unwrap(api.GET('/api/v1/webhooks', { params: { query: { page_size: 100 } } }))).data });
}

export function useWebhook(webhookId: string | null) {
  return useQuery({
    queryKey: [...queryKeys.integrations.webhooks, webhookId],
    queryFn: async () => (await unwrap(api.GET('/api/v1/webhooks/{webhook_id}', path(webhookId!)))).data,
    enabled: webhookId !== null,
  });
}

export function useCreateWebhook() {
  const changed = useChanged(queryKeys.integrations.webhooks);
  return useMutation({ mutationFn: (body: BodyOf<'/api/v1/webhooks', 'post'>) => unwrap(api.POST('/api/v1/webhooks', { body })), onSuccess: changed });
}

export function useUpdateWebhook() {
  const changed = useChanged(queryKeys.integrations.webhooks);
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: BodyOf<'/api/v1/webhooks/{webhook_id}', 'patch'> }) => unwrap(api.PATCH('/api/v1/webhooks/{webhook_id}', { ...path(id), body })),
    onSuccess: changed,
  });
}

export function useDeleteWebhook() {
  const changed = useChanged(queryKeys.integrations.webhooks);
  return useMutation({ mutationFn: (id: string) => unwrap(api.DELETE('/api/v1/webhooks/{webhook_id}', path(id))), onSuccess: changed });
}

export function useRotateWebhookSecret() {
  return useMutation({ mutationFn: (id: string) => unwrap(api.POST('/api/v1/webhooks/{webhook_id}/rotate-secret', path(id))) });
}

export function useTestWebhook() {
  const changed = useChanged(queryKeys.integrations.webhooks);
  return useMutation({ mutationFn: (id: string) => unwrap(api.POST('/api/v1/webhooks/{webhook_id}/test', path(id))), onSuccess: changed });
}

export function useDeliveries(webhookId: string, page: number) {
  return useQuery({
    queryKey: queryKeys.integrations.deliveries(webhookId, { page }),
    queryFn: () => unwrap(api.GET('/api/v1/webhooks/{webhook_id}/deliveries', { params: { path: { webhook_id: webhookId }, query: { page, page_size: 20 } } })),
    placeholderData: (previous) => previous,
  });
}

export function useRetryDelivery(webhookId: string) {
  const changed = useChanged(queryKeys.integrations.webhooks);
  return useMutation({
    mutationFn: (deliveryId: string) =>
      unwrap(api.POST('/api/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/retry', { params: { path: { webhook_id: webhookId, delivery_id: deliveryId } } })),
    onSuccess: changed,
  });
}

export function useServiceAccounts(includeInactive: boolean) {
  return useQuery({
    queryKey: [...queryKeys.integrations.serviceAccounts, { includeInactive }],
    queryFn: async () => (await unwrap(api.GET('/api/v1/service-accounts', { params: { query: { include_inactive: includeInactive, page_size: 100 } } }))).data,
  });
}

export function useServiceAccount(id: string | null) {
  return useQuery({
    queryKey: [...queryKeys.integrations.serviceAccounts, 'detail', id],
    queryFn: async () => (await unwrap(api.GET('/api/v1/service-accounts/{service_account_id}', { params: { path: { service_account_id: id! } } }))).data,
    enabled: id !== null,
  });
}

export function useCreateServiceAccount() {
  const changed = useChanged(queryKeys.integrations.serviceAccounts);
  return useMutation({ mutationFn: (body: BodyOf<'/api/v1/service-accounts', 'post'>) => unwrap(api.POST('/api/v1/service-accounts', { body })), onSuccess: changed });
}

export function useUpdateServiceAccount() {
  const changed = useChanged(queryKeys.integrations.serviceAccounts);
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: BodyOf<'/api/v1/service-accounts/{service_account_id}', 'patch'> }) =>
      unwrap(api.PATCH('/api/v1/service-accounts/{service_account_id}', { params: { path: { service_account_id: id } }, body })),
    onSuccess: changed,
  });
}

export function useDeactivateServiceAccount() {
  const changed = useChanged(queryKeys.integrations.serviceAccounts);
  return useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/api/v1/service-accounts/{service_account_id}', { params: { path: { service_account_id: id } } })),
    onSuccess: changed,
  });
}

export function useTokens(accountId: string) {
  return useQuery({
    queryKey: queryKeys.integrations.tokens(accountId),
    queryFn: async () => (await unwrap(api.GET('/api/v1/service-accounts/{service_account_id}/tokens', { params: { path: { service_account_id: accountId }, query: { page_size: 100 } } }))).data,
  });
}

export function useIssueToken(accountId: string) {
  const changed = useChanged(queryKeys.integrations.serviceAccounts);
  return useMutation({
    mutationFn: (body: BodyOf<'/api/v1/service-accounts/{service_account_id}/tokens', 'post'>) =>
      unwrap(api.POST('/api/v1/service-accounts/{service_account_id}/tokens', { params: { path: { service_account_id: accountId } }, body })),
    onSuccess: changed,
  });
}

export function useRotateToken(accountId: string) {
  const changed = useChanged(queryKeys.integrations.serviceAccounts);
  return useMutation({
    mutationFn: ({ tokenId, body }: { tokenId: string; body: BodyOf<'/api/v1/service-accounts/{service_account_id}/tokens/{token_id}/rotate', 'post'> }) =>
      unwrap(api.POST('/api/v1/service-accounts/{service_account_id}/tokens/{token_id}/rotate', { params: { path: { service_account_id: accountId, token_id: tokenId } }, body })),
    onSuccess: changed,
  });
}

export function useRevokeToken(accountId: string) {
  const changed = useChanged(queryKeys.integrations.serviceAccounts);
  return useMutation({
    mutationFn: (tokenId: string) =>
      unwrap(api.DELETE('/api/v1/service-accounts/{service_account_id}/tokens/{token_id}', { params: { path: { service_account_id: accountId, token_id: tokenId } } })),
    onSuccess: changed,
  });
}

export function useScimTokens() {
  return useQuery({ queryKey: queryKeys.integrations.scimTokens, queryFn: async () => (await unwrap(api.GET('/api/v1/scim/tokens', { params: { query: { page_size: 100 } } }))).data });
}

export function useIssueScimToken() {
  const changed = useChanged(queryKeys.integrations.scimTokens);
  return useMutation({ mutationFn: (body: BodyOf<'/api/v1/scim/tokens', 'post'>) => unwrap(api.POST('/api/v1/scim/tokens', { body })), onSuccess: changed });
}

export function useRevokeScimToken() {
  const changed = useChanged(queryKeys.integrations.scimTokens);
  return useMutation({ mutationFn: (id: string) => unwrap(api.DELETE('/api/v1/scim/tokens/{scim_token_id}', { params: { path: { scim_token_id: id } } })), onSuccess: changed });
}

export function useScimGroups() {
  return useQuery({ queryKey: queryKeys.integrations.scimGroups, queryFn: async () => (await unwrap(api.GET('/api/v1/scim/groups', { params: { query: { page_size: 100 } } }))).data });
}

export function useScimGroup(id: string | null) {
  return useQuery({
    queryKey: [...queryKeys.integrations.scimGroups, id],
    queryFn: async () => (await unwrap(api.GET('/api/v1/scim/groups/{group_id}', { params: { path: { group_id: id! } } }))).data,
    enabled: id !== null,
  });
}

export function useMapScimGroup() {
  const changed = useChanged(queryKeys.integrations.scimGroups);
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: BodyOf<'/api/v1/scim/groups/{group_id}', 'patch'> }) =>
      unwrap(api.PATCH('/api/v1/scim/groups/{group_id}', { params: { path: { group_id: id } }, body })),
    onSuccess: changed,
  });
}

export type SsoConnection = DataOf<'/api/v1/sso/connections', 'get'>[number];
export type SsoDomain = DataOf<'/api/v1/sso/domains', 'get'>[number];
const connectionPath = (id: string) => ({ params: { path: { connection_id: id } } });
const domainPath = (id: string) => ({ params: { path: { domain_id: id } } });

export function useSsoConnections() {
  return useQuery({ queryKey: queryKeys.integrations.ssoConnections, queryFn: async () => (await unwrap(api.GET('/api/v1/sso/connections', { params: { query: { page_size: 100 } } }))).data });
}

export function useSsoConnection(id: string | null) {
  return useQuery({
    queryKey: [...queryKeys.integrations.ssoConnections, id],
    queryFn: async () => (await unwrap(api.GET('/api/v1/sso/connections/{connection_id}', connectionPath(id!)))).data,
    enabled: id !== null,
  });
}

export function useCreateSsoConnection() {
  const changed = useChanged(queryKeys.integrations.ssoConnections);
  return useMutation({ mutationFn: (body: BodyOf<'/api/v1/sso/connections', 'post'>) => unwrap(api.POST('/api/v1/sso/connections', { body })), onSuccess: changed });
}

export function useUpdateSsoConnection() {
  const changed = useChanged(queryKeys.integrations.ssoConnections);
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: BodyOf<'/api/v1/sso/connections/{connection_id}', 'patch'> }) => unwrap(api.PATCH('/api/v1/sso/connections/{connection_id}', { ...connectionPath(id), body })),
    onSuccess: changed,
  });
}

export function useDeleteSsoConnection() {
  const changed = useChanged(queryKeys.integrations.ssoConnections);
  return useMutation({ mutationFn: (id: string) => unwrap(api.DELETE('/api/v1/sso/connections/{connection_id}', connectionPath(id))), onSuccess: changed });
}

/** This service's SAML SP metadata (XML), to copy or save for the identity provider. */
export function useSamlSpMetadata() {
  return useQuery({
    queryKey: queryKeys.integrations.samlSpMetadata,
    queryFn: async () => unwrap(api.GET('/auth/v1/sso/saml/metadata', { parseAs: 'text' })),
    staleTime: Infinity,
  });
}

export function useSsoDomains() {
  return useQuery({ queryKey: queryKeys.integrations.ssoDomains, queryFn: async () => (await unwrap(api.GET('/api/v1/sso/domains', { params: { query: { page_size: 100 } } }))).data });
}

export function useClaimSsoDomain() {
  const changed = useChanged(queryKeys.integrations.ssoDomains);
  return useMutation({ mutationFn: (domain: string) => unwrap(api.POST('/api/v1/sso/domains', { body: { domain } })), onSuccess: changed });
}

export function useVerifySsoDomain() {
  const changed = useChanged(queryKeys.integrations.ssoDomains);
  return useMutation({ mutationFn: (id: string) => unwrap(api.POST('/api/v1/sso/domains/{domain_id}/verify', domainPath(id))), onSuccess: changed });
}

export function useRemoveSsoDomain() {
  const changed = useChanged(queryKeys.integrations.ssoDomains);
  return useMutation({ mutationFn: (id: string) => unwrap(api.DELETE('/api/v1/sso/domains/{domain_id}', domainPath(id))), onSuccess: changed });
}
