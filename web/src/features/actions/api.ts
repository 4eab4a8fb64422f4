import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api-client';
import type { BodyOf, DataOf, QueryOf } from '../../lib/api-types';
import { queryKeys } from '../../lib/query-keys';

export type ActionQuery = QueryOf<'/api/v1/mitigation-actions', 'get'>;
export type MitigationAction = DataOf<'/api/v1/mitigation-actions', 'get'>[number];
export type ActionStatus = MitigationAction['status'];

export const ACTION_STATUSES: { value: ActionStatus; label: string }[] = [
  { value: 'created', label: 'Created' },
  { value: 'in_progress', label: 'In progress' },
  { value: 'completed', label: 'Completed' },
];
export const PRIORITIES = ['low', 'medium', 'high', 'critical'].map((value) => ({ value, label: value[0]!.toUpperCase() + value.slice(1) }));

export function useActions(query: ActionQuery) {
  return useQuery({
    queryKey: queryKeys.actions.list(query),
    queryFn: () => unwrap(api.GET('/api/v1/mitigation-actions', { params: { query } })),
    placeholderData: (previous) => previous,
  });
}

function useActionsChanged() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: queryKeys.actions.all });
}

export function useCreateAction() {
  const changed = useActionsChanged();
  return useMutation({
    mutationFn: (body: BodyOf<'/api/v1/mitigation-actions', 'post'>) => unwrap(api.POST('/api/v1/mitigation-actions', { body })),
    onSuccess: changed,
  });
}

export type BulkChanges = BodyOf<'/api/v1/mitigation-actions/bulk-update', 'post'>['updates'];
export type ActionChanges = BodyOf<'/api/v1/mitigation-actions/{action_id}', 'patch'>;

/** All or nothing (D7.3): the service changes every action or none, and says which id stopped it. */
export function useBulkUpdate() {
  const changed = useActionsChanged();
  return useMutation({
    mutationFn: async ({ ids, updates }: { ids: string[]; updates: BulkChanges }) =>
      (await unwrap(api.POST('/api/v1/mitigation-actions/bulk-update', { body: { action_ids: ids, updates } }))).data,
    onSuccess: changed,
  });
}

/** The fields D7.3 lets change (the links to a BRA and a scenario are set when the action is created). */
export function useUpdateAction() {
  const changed = useActionsChanged();
  return useMutation({
    mutationFn: async ({ id, changes }: { id: string; changes: ActionChanges }) =>
      (await unwrap(api.PATCH('/api/v1/mitigation-actions/{action_id}', { params: { path: { action_id: id } }, body: changes }))).data,
    onSuccess: changed,
  });
}

export function useArchiveAction() {
  const changed = useActionsChanged();
  return useMutation({
    mutationFn: (id: string) => unwrap(api.POST('/api/v1/mitigation-actions/{action_id}/archive', { params: { path: { action_id: id } } })),
    onSuccess: changed,
  });
}
