import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api-client';
import type { BodyOf, DataOf } from '../../lib/api-types';
import { queryKeys } from '../../lib/query-keys';

export type RiskAppetite = DataOf<'/api/v1/governance/risk-appetite', 'get'>[number];
export type AppetiteChange = BodyOf<'/api/v1/governance/risk-appetite', 'post'>;
export const RISK_LEVELS = ['Low', 'Medium', 'High', 'Very High'];

export function useRiskAppetites() {
  return useQuery({ queryKey: queryKeys.appetite.list, queryFn: async () => (await unwrap(api.GET('/api/v1/governance/risk-appetite'))).data });
}

export function useAppetiteHistory() {
  return useQuery({ queryKey: queryKeys.appetite.history, queryFn: () => unwrap(api.GET('/api/v1/governance/risk-appetite/history')) });
}

/** An appetite change moves the records, their history and every BRA summary judged against them. */
function useAppetiteChanged() {
  const client = useQueryClient();
  return () => Promise.all([client.invalidateQueries({ queryKey: queryKeys.appetite.all }), client.invalidateQueries({ queryKey: ['bras', 'detail'] })]);
}

export function useSetAppetite() {
  const changed = useAppetiteChanged();
  return useMutation({ mutationFn: (body: AppetiteChange) => unwrap(api.POST('/api/v1/governance/risk-appetite', { body })), onSuccess: changed });
}

export function useDeleteAppetite() {
  const changed = useAppetiteChanged();
  return useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/api/v1/governance/risk-appetite/{risk_appetite_id}', { params: { path: { risk_appetite_id: id } } })),
    onSuccess: changed,
  });
}
