import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap, upload } from '../../lib/api-client';
import type { DataOf, QueryOf } from '../../lib/api-types';
import { saveDownload } from '../../lib/download';
import { queryKeys } from '../../lib/query-keys';

/** The record a file belongs to: a BRA, one of its scenarios, a mitigation action or a control test. */
export type EvidenceRecord = QueryOf<'/api/v1/evidence', 'get'>;
export type EvidenceFile = DataOf<'/api/v1/evidence', 'get'>[number];

export function useEvidence(record: EvidenceRecord) {
  return useQuery({
    queryKey: queryKeys.evidence(record.record_type, record.record_id),
    queryFn: () => unwrap(api.GET('/api/v1/evidence', { params: { query: record } })),
  });
}

/** Attaches one file; `progress` is the share sent so far (0 to 1) while it uploads. */
export function useAttachEvidence(record: EvidenceRecord) {
  const client = useQueryClient();
  const [progress, setProgress] = useState<number | null>(null);
  const attach = useMutation({
    mutationFn: async (file: File) => {
      const form = new FormData();
      form.append('file', file, file.name);
      setProgress(0);
      try {
        return await upload.POST<{ data: EvidenceFile }>('/api/v1/evidence', record, form, (sent, total) => setProgress(total > 0 ? sent / total : null));
      } finally {
        setProgress(null);
      }
    },
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.evidence(record.record_type, record.record_id) }),
  });
  return { attach, progress };
}

export function useRemoveEvidence(record: EvidenceRecord) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/api/v1/evidence/{evidence_id}', { params: { path: { evidence_id: id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.evidence(record.record_type, record.record_id) }),
  });
}

export function useDownloadEvidence() {
  return useMutation({
    mutationFn: (file: EvidenceFile) =>
      saveDownload(api.GET('/api/v1/evidence/{evidence_id}/content', { params: { path: { evidence_id: file.id } }, parseAs: 'blob' }), file.name),
  });
}
