import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api-client';
import type { BodyOf, DataOf } from '../../lib/api-types';
import { queryKeys } from '../../lib/query-keys';

/** A BRA's history: what changed between two of its snapshots, the next period, a scenario across periods. */

export type BraDiff = DataOf<'/api/v1/bras/{bra_id}/diff', 'get'>;
export type RollForwardBody = BodyOf<'/api/v1/bras/{bra_id}/roll-forward', 'post'>;
export type RolledForward = DataOf<'/api/v1/bras/{bra_id}/roll-forward', 'post'>;
export type ScenarioTrend = DataOf<'/api/v1/risk-scenarios/{id}/trend', 'get'>;

/** `to` is another snapshot's id or `current` (the live content); nothing is asked until both ends are chosen. */
export function useBraDiff(braId: string, from: string | null, to: string | null) {
  return useQuery({
    queryKey: queryKeys.bras.diff(braId, from ?? '', to ?? ''),
    queryFn: async () => (await unwrap(api.GET('/api/v1/bras/{bra_id}/diff', { params: { path: { bra_id: braId }, query: { from: from!, to: to! } } }))).data,
    enabled: from !== null && to !== null,
  });
}

/** Opens the next period's BRA from an approved one; the answer lists the open actions to re-link. */
export function useRollForward(braId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: RollForwardBody) => (await unwrap(api.POST('/api/v1/bras/{bra_id}/roll-forward', { params: { path: { bra_id: braId } }, body }))).data,
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.bras.all }),
  });
}

export function useScenarioTrend(riskScenarioId: string) {
  return useQuery({
    queryKey: queryKeys.scenarioTrend(riskScenarioId),
    queryFn: async () => (await unwrap(api.GET('/api/v1/risk-scenarios/{id}/trend', { params: { path: { id: riskScenarioId } } }))).data,
  });
}
