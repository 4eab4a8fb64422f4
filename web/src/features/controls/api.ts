import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api-client';
import type { BodyOf, DataOf, QueryOf } from '../../lib/api-types';
import { queryKeys } from '../../lib/query-keys';

export type KeyControl = DataOf<'/api/v1/controls/key-controls', 'get'>[number];
export type NestedSubControl = KeyControl['sub_controls'][number];
export type HeatMap = DataOf<'/api/v1/controls/heat-map', 'get'>;
export type Effectiveness = DataOf<'/api/v1/controls/effectiveness', 'get'>;
export type SubControlChange = BodyOf<'/api/v1/controls/sub-controls/{sub_control_id}', 'patch'>;

export const TOD_LEVELS = [
  { value: 'A', label: 'A · Excellent' },
  { value: 'B', label: 'B · Good' },
  { value: 'C', label: 'C · Adequate' },
  { value: 'D', label: 'D · Weak' },
  { value: 'E', label: 'E · Inadequate' },
];
export const TOE_LEVELS = [
  { value: '1', label: '1 · Highly effective' },
  { value: '2', label: '2 · Effective' },
  { value: '3', label: '3 · Moderately effective' },
  { value: '4', label: '4 · Less effective' },
  { value: '5', label: '5 · Ineffective' },
];

/** How often a sub-control is tested (its next test is due that long after the last). */
export const TESTING_FREQUENCIES = [
  { value: 'monthly', label: 'Monthly' },
  { value: 'quarterly', label: 'Quarterly' },
  { value: 'semi_annual', label: 'Every six months' },
  { value: 'annual', label: 'Yearly' },
];

export function useKeyControls(page: number, pageSize = 20, archived = false) {
  return useQuery({
    queryKey: queryKeys.controls.keyControls({ page, page_size: pageSize, archived }),
    queryFn: () => unwrap(api.GET('/api/v1/controls/key-controls', { params: { query: { page, page_size: pageSize, ...(archived ? { archived } : {}) } } })),
    placeholderData: (previous) => previous,
  });
}

export function useHeatMap(legalEntityId: string | undefined) {
  return useQuery({
    queryKey: queryKeys.controls.heatMap({ legal_entity_id: legalEntityId }),
    queryFn: async () => (await unwrap(api.GET('/api/v1/controls/heat-map', { params: { query: { legal_entity_id: legalEntityId } } }))).data,
  });
}

export function useEffectiveness(legalEntityId: string | undefined) {
  return useQuery({
    queryKey: queryKeys.controls.effectiveness({ legal_entity_id: legalEntityId }),
    queryFn: async () => (await unwrap(api.GET('/api/v1/controls/effectiveness', { params: { query: { legal_entity_id: legalEntityId } } }))).data,
  });
}

/** Recording test results changes the library, the heat map, the summary and the BRAs that link it. */
export function useUpdateSubControl() {
  const changed = useControlsChanged();
  return useMutation({
    mutationFn: async ({ id, change }: { id: string; change: SubControlChange }) =>
      (await unwrap(api.PATCH('/api/v1/controls/sub-controls/{sub_control_id}', { params: { path: { sub_control_id: id } }, body: change }))).data,
    onSuccess: changed,
  });
}

export function useCreateKeyControl() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyOf<'/api/v1/controls/key-controls', 'post'>) => unwrap(api.POST('/api/v1/controls/key-controls', { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.controls.all }),
  });
}

export function useCreateSubControl() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyOf<'/api/v1/controls/sub-controls', 'post'>) => unwrap(api.POST('/api/v1/controls/sub-controls', { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.controls.all }),
  });
}

export type SubControlQuery = QueryOf<'/api/v1/controls/sub-controls', 'get'>;
export type SubControl = DataOf<'/api/v1/controls/sub-controls', 'get'>[number];
export type SubControlRead = DataOf<'/api/v1/controls/sub-controls/{sub_control_id}', 'get'>;
export type TestRecord = DataOf<'/api/v1/controls/sub-controls/{sub_control_id}/tests', 'get'>[number];
export type CompleteTest = BodyOf<'/api/v1/controls/sub-controls/{sub_control_id}/tests', 'post'>;
export type KeyControlChange = BodyOf<'/api/v1/controls/key-controls/{key_control_id}', 'patch'>;

/** The rows a finder page asks for: a tenant's library can hold hundreds of thousands. */
export const SUB_CONTROL_PAGE_SIZE = 100;

/**
 * The library's sub-controls under the drill-down filters (a heat-map cell, an effectiveness, a scope) and a
 * name-or-description search, one page at a time: the service searches and pages (keyset), the console
 * asks for the next page with the previous one's cursor.
 */
export function useSubControlPages(query: Omit<SubControlQuery, 'limit' | 'cursor'>) {
  return useInfiniteQuery({
    queryKey: queryKeys.controls.subControls({ ...query, limit: SUB_CONTROL_PAGE_SIZE }),
    queryFn: ({ pageParam }) =>
      unwrap(api.GET('/api/v1/controls/sub-controls', { params: { query: { ...query, limit: SUB_CONTROL_PAGE_SIZE, ...(pageParam === null ? {} : { cursor: pageParam }) } } })),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor ?? null,
    placeholderData: (previous) => previous,
  });
}

export function useSubControl(id: string) {
  return useQuery({
    queryKey: queryKeys.controls.subControl(id),
    queryFn: async () => (await unwrap(api.GET('/api/v1/controls/sub-controls/{sub_control_id}', { params: { path: { sub_control_id: id } } }))).data,
  });
}

export function useTestHistory(id: string, page: number) {
  return useQuery({
    queryKey: queryKeys.controls.tests(id, page),
    queryFn: () => unwrap(api.GET('/api/v1/controls/sub-controls/{sub_control_id}/tests', { params: { path: { sub_control_id: id }, query: { page, page_size: 10 } } })),
    placeholderData: (previous) => previous,
  });
}

/** Anything that changes a result changes the library, the heat map, the summary and the BRAs that link it. */
function useControlsChanged() {
  const client = useQueryClient();
  return () => Promise.all([client.invalidateQueries({ queryKey: queryKeys.controls.all }), client.invalidateQueries({ queryKey: ['bras', 'detail'] })]);
}

/** One complete test (every field required by the service): it becomes the current result and joins the history. */
export function useRecordTest(id: string) {
  const changed = useControlsChanged();
  return useMutation({
    mutationFn: async (body: CompleteTest) => (await unwrap(api.POST('/api/v1/controls/sub-controls/{sub_control_id}/tests', { params: { path: { sub_control_id: id } }, body }))).data,
    onSuccess: changed,
  });
}

export function useArchiveSubControl() {
  const changed = useControlsChanged();
  return useMutation({
    mutationFn: (id: string) => unwrap(api.POST('/api/v1/controls/sub-controls/{sub_control_id}/archive', { params: { path: { sub_control_id: id } } })),
    onSuccess: changed,
  });
}

export function useUpdateKeyControl() {
  const changed = useControlsChanged();
  return useMutation({
    mutationFn: ({ id, change }: { id: string; change: KeyControlChange }) =>
      unwrap(api.PATCH('/api/v1/controls/key-controls/{key_control_id}', { params: { path: { key_control_id: id } }, body: change })),
    onSuccess: changed,
  });
}

export function useArchiveKeyControl() {
  const changed = useControlsChanged();
  return useMutation({
    mutationFn: (id: string) => unwrap(api.POST('/api/v1/controls/key-controls/{key_control_id}/archive', { params: { path: { key_control_id: id } } })),
    onSuccess: changed,
  });
}
