import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api-client';
import type { DataOf } from '../../lib/api-types';
import { queryKeys } from '../../lib/query-keys';

export type LegalEntity = DataOf<'/api/v1/legal-entities', 'get'>[number];

/** The legal entities the caller may see (all for a client admin, assigned ones otherwise). */
export function useLegalEntities(enabled = true) {
  return useQuery({
    queryKey: queryKeys.legalEntities,
    queryFn: async () => (await unwrap(api.GET('/api/v1/legal-entities'))).data,
    enabled,
  });
}
