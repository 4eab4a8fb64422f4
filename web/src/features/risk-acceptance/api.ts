import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api-client';
import type { BodyOf, DataOf, QueryOf } from '../../lib/api-types';
import { queryKeys } from '../../lib/query-keys';
import { useBraChanged } from '../bras/api';

export type RiskAcceptance = DataOf<'/api/v1/risk-acceptances/{acceptance_id}', 'get'>;
export type AcceptanceStatus = RiskAcceptance['status'];
export type AcceptanceQuery = QueryOf<'/api/v1/risk-acceptances', 'get'>;
export type AcceptanceTerms = BodyOf<'/api/v1/bras/{bra_id}/scenarios/{scenario_id}/acceptances', 'post'>;

/** The scenario a form accepts: a scenario link of a BRA (the `id` of a scenario of the BRA answer, a register row's `scenario.id`). */
export interface AcceptTarget {
  braId: string;
  scenarioId: string;
  scenarioName: string;
}

export function useAcceptances(query: AcceptanceQuery) {
  return useQuery({
    queryKey: queryKeys.acceptances.list(query),
    queryFn: () => unwrap(api.GET('/api/v1/risk-acceptances', { params: { query } })),
    placeholderData: (previous) => previous,
  });
}

/** One acceptance (the register knows only its id); nothing is asked while `acceptanceId` is null. */
export function useAcceptance(acceptanceId: string | null) {
  return useQuery({
    queryKey: queryKeys.acceptances.detail(acceptanceId ?? ''),
    queryFn: async () => (await unwrap(api.GET('/api/v1/risk-acceptances/{acceptance_id}', { params: { path: { acceptance_id: acceptanceId! } } }))).data,
    enabled: acceptanceId !== null,
  });
}

/**
 * What an acceptance changes: its BRA's answer (the scenario's `acceptance`), the BRA lists, the register and
 * the dashboard (both under `reporting`) and every acceptance list and detail.
 */
function useAcceptanceChanged() {
  const client = useQueryClient();
  const braChanged = useBraChanged();
  return (braId: string) =>
    Promise.all([
      braChanged(braId),
      client.invalidateQueries({ queryKey: queryKeys.reporting.all }),
      client.invalidateQueries({ queryKey: queryKeys.acceptances.all }),
    ]);
}

/** One key per intended change: a retry of the same request (a refreshed token) replays the first answer instead of accepting twice. */
const idempotent = () => ({ 'idempotency-key': crypto.randomUUID() });

/** Accepts a scenario above appetite until a day, or renews an acceptance (a new one replaces it) when `renews` names it. */
export function useAcceptRisk() {
  const changed = useAcceptanceChanged();
  return useMutation({
    mutationFn: async ({ target, renews, terms }: { target: AcceptTarget; renews: string | null; terms: AcceptanceTerms }) => {
      if (renews !== null) {
        const path = { acceptance_id: renews };
        return (await unwrap(api.POST('/api/v1/risk-acceptances/{acceptance_id}/renew', { params: { path, header: idempotent() }, body: terms }))).data;
      }
      const path = { bra_id: target.braId, scenario_id: target.scenarioId };
      return (await unwrap(api.POST('/api/v1/bras/{bra_id}/scenarios/{scenario_id}/acceptances', { params: { path, header: idempotent() }, body: terms }))).data;
    },
    onSuccess: (_, { target }) => changed(target.braId),
  });
}

export function useRevokeAcceptance() {
  const changed = useAcceptanceChanged();
  return useMutation({
    mutationFn: async ({ acceptanceId, reason }: { acceptanceId: string; braId: string; reason: string }) =>
      (await unwrap(api.POST('/api/v1/risk-acceptances/{acceptance_id}/revoke', { params: { path: { acceptance_id: acceptanceId } }, body: { reason } }))).data,
    onSuccess: (_, { braId }) => changed(braId),
  });
}
