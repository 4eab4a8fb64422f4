import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api-client';
import type { BodyOf, DataOf, QueryOf } from '../../lib/api-types';
import { queryKeys } from '../../lib/query-keys';

export type Notification = DataOf<'/api/v1/notifications', 'get'>[number];
export type NotificationKind = Notification['kind'];
export type NotificationQuery = QueryOf<'/api/v1/notifications', 'get'>;
export type MarkRead = BodyOf<'/api/v1/notifications/read', 'post'>;

/** How often the bell asks again for the unread count while the console stays open (and on coming back to the window). */
export const POLL_MS = 60_000;

/**
 * A page of the caller's notifications with the unread count (whatever the filter). `poll`: asked again
 * every minute and whenever the window regains focus, as the bell does.
 */
export function useNotifications(query: NotificationQuery, { poll = false }: { poll?: boolean } = {}) {
  return useQuery({
    queryKey: queryKeys.notifications.list(query),
    queryFn: () => unwrap(api.GET('/api/v1/notifications', { params: { query } })),
    placeholderData: (previous) => previous,
    refetchInterval: poll ? POLL_MS : false,
    refetchOnWindowFocus: poll,
  });
}

/** Marks the named notifications read (`{ ids }`) or all of them (`{ all: true }`); every list and the count follow. */
export function useMarkRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: MarkRead) => (await unwrap(api.POST('/api/v1/notifications/read', { body }))).data,
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.notifications.all }),
  });
}
