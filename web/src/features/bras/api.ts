import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api-client';
import type { BodyOf, DataOf, QueryOf } from '../../lib/api-types';
import { saveDownload } from '../../lib/download';
import { queryKeys } from '../../lib/query-keys';

export type BraListQuery = QueryOf<'/api/v1/bras', 'get'>;
export type Bra = DataOf<'/api/v1/bras', 'get'>[number];
export type BraDetail = DataOf<'/api/v1/bras/{bra_id}', 'get'>;
export type BraScenario = BraDetail['scenarios'][number];
export type BraStatus = Bra['status'];
export type RatingBody = BodyOf<'/api/v1/bras/{bra_id}/ratings', 'post'>;

export const BRA_STATUSES: { value: BraStatus; label: string }[] = [
  { value: 'draft', label: 'Draft' },
  { value: 'in_progress', label: 'In progress' },
  { value: 'under_review', label: 'Under review' },
  { value: 'approved', label: 'Approved' },
  { value: 'cancelled', label: 'Cancelled' },
];

export function useBras(query: BraListQuery) {
  return useQuery({
    queryKey: queryKeys.bras.list(query),
    queryFn: () => unwrap(api.GET('/api/v1/bras', { params: { query } })),
    placeholderData: (previous) => previous,
  });
}

/** A BRA's detail; nothing is asked while `braId` is empty (a form where no BRA is chosen yet). */
export function useBra(braId: string) {
  return useQuery({
    queryKey: queryKeys.bras.detail(braId),
    queryFn: async () => (await unwrap(api.GET('/api/v1/bras/{bra_id}', { params: { path: { bra_id: braId } } }))).data,
    enabled: braId !== '',
  });
}

export function useSnapshots(braId: string) {
  return useQuery({
    queryKey: queryKeys.bras.snapshots(braId),
    queryFn: async () => (await unwrap(api.GET('/api/v1/bras/{bra_id}/snapshots', { params: { path: { bra_id: braId } } }))).data,
  });
}

export function useSnapshot(braId: string, snapshotId: string | null) {
  return useQuery({
    queryKey: queryKeys.bras.snapshot(braId, snapshotId ?? ''),
    queryFn: async () => (await unwrap(api.GET('/api/v1/bras/{bra_id}/snapshots/{snapshot_id}', { params: { path: { bra_id: braId, snapshot_id: snapshotId! } } }))).data,
    enabled: snapshotId !== null,
  });
}

export function useRiskScenarios() {
  return useQuery({
    queryKey: queryKeys.riskScenarios({ page_size: 100 }),
    queryFn: () => unwrap(api.GET('/api/v1/risk-scenarios', { params: { query: { page_size: 100 } } })),
  });
}

/** Invalidates one BRA (its detail, snapshots) and every BRA list. */
export function useBraChanged() {
  const client = useQueryClient();
  return (braId: string) => Promise.all([client.invalidateQueries({ queryKey: queryKeys.bras.detail(braId) }), client.invalidateQueries({ queryKey: ['bras', 'list'] })]);
}

export function useCreateBra() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: BodyOf<'/api/v1/bras', 'post'>) => (await unwrap(api.POST('/api/v1/bras', { body }))).data,
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.bras.all }),
  });
}

/**
 * Scenarios from the catalogue: one through the single operation (its answer is the link), several through the
 * bulk one, which adds all of them or none (an id taken meanwhile refuses the lot, and the error says which).
 */
export function useAddScenarios(braId: string) {
  const changed = useBraChanged();
  return useMutation({
    mutationFn: async (ids: string[]): Promise<void> => {
      const path = { bra_id: braId };
      if (ids.length === 1) await unwrap(api.POST('/api/v1/bras/{bra_id}/scenarios', { params: { path }, body: { risk_scenario_id: ids[0]! } }));
      else await unwrap(api.POST('/api/v1/bras/{bra_id}/scenarios/bulk', { params: { path }, body: { risk_scenario_ids: ids } }));
    },
    onSuccess: () => changed(braId),
  });
}

export type BraChanges = BodyOf<'/api/v1/bras/{bra_id}', 'patch'>;

/** The BRA's own fields (name, description, period, assessor) while its abilities allow an update. */
export function useUpdateBra(braId: string) {
  const changed = useBraChanged();
  return useMutation({
    mutationFn: async (body: BraChanges) => (await unwrap(api.PATCH('/api/v1/bras/{bra_id}', { params: { path: { bra_id: braId } }, body }))).data,
    onSuccess: () => changed(braId),
  });
}

export function useSetIncluded(braId: string) {
  const changed = useBraChanged();
  return useMutation({
    mutationFn: ({ linkId, included }: { linkId: string; included: boolean }) =>
      unwrap(api.PATCH('/api/v1/bras/{bra_id}/scenarios/{link_id}', { params: { path: { bra_id: braId, link_id: linkId } }, body: { included } })),
    onSuccess: () => changed(braId),
  });
}

export function useRecordRating(braId: string) {
  const changed = useBraChanged();
  return useMutation({
    mutationFn: async (body: RatingBody) => (await unwrap(api.POST('/api/v1/bras/{bra_id}/ratings', { params: { path: { bra_id: braId } }, body }))).data,
    onSuccess: () => changed(braId),
  });
}

/** A sub-control linked to one scenario of the BRA, or to the whole BRA when no scenario is named. */
export function useLinkControl(braId: string) {
  const changed = useBraChanged();
  return useMutation({
    mutationFn: ({ subControlId, scenarioLinkId }: { subControlId: string; scenarioLinkId: string | null }) =>
      unwrap(
        api.POST('/api/v1/bras/{bra_id}/controls', {
          params: { path: { bra_id: braId } },
          body: { sub_control_id: subControlId, ...(scenarioLinkId ? { bra_risk_scenario_id: scenarioLinkId } : {}) },
        }),
      ),
    onSuccess: () => changed(braId),
  });
}

export function useUnlinkControl(braId: string) {
  const changed = useBraChanged();
  return useMutation({
    mutationFn: (linkId: string) => unwrap(api.DELETE('/api/v1/bras/{bra_id}/controls/{link_id}', { params: { path: { bra_id: braId, link_id: linkId } } })),
    onSuccess: () => changed(braId),
  });
}

export type Transition = 'submit' | 'return' | 'approve' | 'cancel';

/** A move of the BRA's status, with the comment or reason the transition takes. */
export function useTransition(braId: string) {
  const changed = useBraChanged();
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ transition, text }: { transition: Transition; text: string }) => {
      const path = { bra_id: braId };
      const value = text.trim() === '' ? null : text.trim();
      if (transition === 'submit') return unwrap(api.POST('/api/v1/bras/{bra_id}/submit', { params: { path }, body: {} }));
      if (transition === 'return') return unwrap(api.POST('/api/v1/bras/{bra_id}/return', { params: { path }, body: { comment: value } }));
      if (transition === 'approve') return unwrap(api.POST('/api/v1/bras/{bra_id}/approve', { params: { path }, body: { final_comment: value } }));
      return unwrap(api.POST('/api/v1/bras/{bra_id}/cancel', { params: { path }, body: { cancellation_reason: value } }));
    },
    onSuccess: async () => {
      await changed(braId);
      await client.invalidateQueries({ queryKey: queryKeys.bras.snapshots(braId) });
    },
  });
}

export type ReportFormat = 'pdf' | 'xlsx';

/** The BRA's report (board pack) as a PDF or XLSX download; the service builds it and decides who may read it. */
export function useDownloadBraReport(braId: string) {
  return useMutation({
    mutationFn: (format: ReportFormat) =>
      saveDownload(api.GET('/api/v1/bras/{bra_id}/report', { params: { path: { bra_id: braId }, query: { format } }, parseAs: 'blob' }), `bra-report-${braId}.${format}`),
  });
}

export type BraComment = DataOf<'/api/v1/bras/{bra_id}/comments', 'get'>[number];
export type CommentBody = BodyOf<'/api/v1/bras/{bra_id}/comments', 'post'>;

/** The BRA's review comments, oldest first as the service lists them. */
export function useComments(braId: string) {
  return useQuery({
    queryKey: [...queryKeys.bras.detail(braId), 'comments'],
    queryFn: async () => (await unwrap(api.GET('/api/v1/bras/{bra_id}/comments', { params: { path: { bra_id: braId } } }))).data,
  });
}

/** A comment on the BRA or on one of its scenarios, with a reviewer's verdict when given. */
export function useAddComment(braId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: CommentBody) => (await unwrap(api.POST('/api/v1/bras/{bra_id}/comments', { params: { path: { bra_id: braId } }, body }))).data,
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.bras.detail(braId) }),
  });
}
