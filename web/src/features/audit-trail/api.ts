import { useMutation, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api-client';
import type { QueryOf } from '../../lib/api-types';
import { saveDownload } from '../../lib/download';
import { queryKeys } from '../../lib/query-keys';

export type AuditQuery = QueryOf<'/api/v1/audit', 'get'>;
export type AuditFilters = Omit<AuditQuery, 'page' | 'page_size'>;

export function useAuditEntries(query: AuditQuery) {
  return useQuery({ queryKey: queryKeys.audit.list(query), queryFn: () => unwrap(api.GET('/api/v1/audit', { params: { query } })), placeholderData: (previous) => previous });
}

/** The chain walk: asked for, never run on its own (it reads the whole trail). */
export function useVerifyAudit() {
  return useMutation({ mutationFn: async () => (await unwrap(api.GET('/api/v1/audit/verify'))).data });
}

/** The export as a file download: fetched with the token (never in the URL, D5.6), then saved. */
export function useExportAudit() {
  return useMutation({
    mutationFn: ({ filters, format }: { filters: AuditFilters; format: 'csv' | 'json' }) =>
      saveDownload(api.GET('/api/v1/audit/export', { params: { query: { ...filters, format } }, parseAs: 'blob' }), `audit-trail.${format}`),
  });
}
