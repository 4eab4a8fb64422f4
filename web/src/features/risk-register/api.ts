import { useMutation, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api-client';
import type { DataOf, QueryOf } from '../../lib/api-types';
import { saveDownload } from '../../lib/download';
import { queryKeys } from '../../lib/query-keys';

export type RegisterQuery = QueryOf<'/api/v1/risk-register', 'get'>;
export type RegisterFilters = Omit<RegisterQuery, 'page' | 'page_size'>;
export type RegisterRow = DataOf<'/api/v1/risk-register', 'get'>[number];

/**
 * The register is built from every resource (ratings, controls, actions, appetite), so no one mutation
 * owns it: it is read fresh on each visit instead of being invalidated by all of them.
 */
export function useRiskRegister(query: RegisterQuery) {
  return useQuery({
    queryKey: queryKeys.reporting.register(query),
    queryFn: () => unwrap(api.GET('/api/v1/risk-register', { params: { query } })),
    placeholderData: (previous) => previous,
    staleTime: 0,
  });
}

/** The export under the screen's filters and sort, as a file download (all rows, streamed by the service). */
export function useExportRegister() {
  return useMutation({
    mutationFn: ({ filters, format }: { filters: RegisterFilters; format: 'csv' | 'xlsx' }) =>
      saveDownload(api.GET('/api/v1/risk-register/export', { params: { query: { ...filters, format } }, parseAs: 'blob' }), `risk-register.${format}`),
  });
}
