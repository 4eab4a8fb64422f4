import { useMutation, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api-client';
import { ApiError, toApiError } from '../../lib/api-error';
import type { QueryOf } from '../../lib/api-types';
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
    mutationFn: async ({ filters, format }: { filters: AuditFilters; format: 'csv' | 'json' }) => {
      const answer = await api.GET('/api/v1/audit/export', { params: { query: { ...filters, format } }, parseAs: 'blob' }).catch(() => {
        throw new ApiError(0, 'The service cannot be reached. Check the connection and try again.');
      });
      if (!answer.response.ok) throw toApiError(answer.response.status, answer.error);
      const disposition = answer.response.headers.get('content-disposition') ?? '';
      const name = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? `audit-trail.${format}`;
      const url = URL.createObjectURL(answer.data as Blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = name;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      return name;
    },
  });
}
