import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api-client';
import type { DataOf } from '../../lib/api-types';
import { queryKeys } from '../../lib/query-keys';

export type Dashboard = DataOf<'/api/v1/dashboard', 'get'>;
export type RiskHeatMap = Dashboard['heat_maps']['inherent'];

/**
 * The risk picture of a place in one call. Like the register it is built from every resource, so it is
 * read fresh on each visit rather than invalidated by every mutation.
 */
export function useDashboard(legalEntityId: string | undefined) {
  const query = { legal_entity_id: legalEntityId };
  return useQuery({
    queryKey: queryKeys.reporting.dashboard(query),
    queryFn: async () => (await unwrap(api.GET('/api/v1/dashboard', { params: { query } }))).data,
    staleTime: 0,
  });
}
