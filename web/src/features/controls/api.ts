import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api-client';
import type { BodyOf, DataOf } from '../../lib/api-types';
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

export function useKeyControls(page: number, pageSize = 20) {
  return useQuery({
    queryKey: queryKeys.controls.keyControls({ page, page_size: pageSize }),
    queryFn: () => unwrap(api.GET('/api/v1/controls/key-controls', { params: { query: { page, page_size: pageSize } } })),
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
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, change }: { id: string; change: SubControlChange }) =>
      (await unwrap(api.PATCH('/api/v1/controls/sub-controls/{sub_control_id}', { params: { path: { sub_control_id: id } }, body: change }))).data,
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: queryKeys.controls.all }), client.invalidateQueries({ queryKey: ['bras', 'detail'] })]),
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
