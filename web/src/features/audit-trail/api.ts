import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api-client';
import type { BodyOf, DataOf, QueryOf } from '../../lib/api-types';
import { saveDownload } from '../../lib/download';
import { queryKeys } from '../../lib/query-keys';

export type AuditQuery = QueryOf<'/api/v1/audit', 'get'>;
export type AuditFilters = Omit<AuditQuery, 'page' | 'page_size'>;
export type AuditEntry = DataOf<'/api/v1/audit', 'get'>[number];
export type Checkpoint = DataOf<'/api/v1/audit/checkpoints', 'get'>[number];
export type KeptCheckpointCheck = BodyOf<'/api/v1/audit/verify', 'post'>;

export function useAuditEntries(query: AuditQuery) {
  return useQuery({ queryKey: queryKeys.audit.list(query), queryFn: () => unwrap(api.GET('/api/v1/audit', { params: { query } })), placeholderData: (previous) => previous });
}

/** The chain walk: asked for, never run on its own (it reads the whole trail); with `evidence`, every evidence file hashed again too. */
export function useVerifyAudit() {
  return useMutation({
    mutationFn: async ({ evidence }: { evidence: boolean }) => (await unwrap(api.GET('/api/v1/audit/verify', { params: { query: evidence ? { evidence } : {} } }))).data,
  });
}

/** The export as a file download: fetched with the token (never in the URL, D5.6), then saved. */
export function useExportAudit() {
  return useMutation({
    mutationFn: ({ filters, format }: { filters: AuditFilters; format: 'csv' | 'json' }) =>
      saveDownload(api.GET('/api/v1/audit/export', { params: { query: { ...filters, format } }, parseAs: 'blob' }), `audit-trail.${format}`),
  });
}

/** The signed checkpoints, newest first: what an auditor keeps to check the trail against later. */
export function useCheckpoints(page: number) {
  return useQuery({ queryKey: queryKeys.audit.checkpoints(page), queryFn: () => unwrap(api.GET('/api/v1/audit/checkpoints', { params: { query: { page, page_size: 10 } } })), placeholderData: (previous) => previous });
}

/** Signs the trail's head now; the signing is itself an entry, so the entries' list moves too. */
export function useSignCheckpoint() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => (await unwrap(api.POST('/api/v1/audit/checkpoints'))).data,
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.audit.all }),
  });
}

/** The trail checked against a checkpoint the auditor kept (and, optionally, the public key they trust). */
export function useVerifyAgainstCheckpoint() {
  return useMutation({ mutationFn: async (body: KeptCheckpointCheck) => (await unwrap(api.POST('/api/v1/audit/verify', { body }))).data });
}
