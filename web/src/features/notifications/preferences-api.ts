import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';
import type { BodyOf, DataOf } from '../../lib/api-types';

/*
 * How the service mails a person of each kind of notification, and a client admin's defaults for the
 * enterprise (issue 49): GET and PUT /me/notification-preferences, GET and PUT /notification-defaults.
 */

export type Preference = DataOf<'/api/v1/me/notification-preferences', 'get'>['preferences'][number];
export type EnterpriseDefault = DataOf<'/api/v1/notification-defaults', 'get'>['defaults'][number];
export type Delivery = Preference['delivery'];
/** What a person sets: a delivery, or `default` to follow the enterprise's (or the service's) default again. */
export type ChoiceOf = BodyOf<'/api/v1/me/notification-preferences', 'put'>['preferences'][number];
export type DeliveryChoice = ChoiceOf['delivery'];

/** The caller's delivery of each kind, with where it comes from. */
export function useMyPreferences() {
  return useQuery({
    queryKey: queryKeys.notificationPreferences,
    queryFn: async () => (await unwrap(api.GET('/api/v1/me/notification-preferences'))).data.preferences,
  });
}

export function useSaveMyPreferences() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (preferences: ChoiceOf[]) =>
      (await unwrap(api.PUT('/api/v1/me/notification-preferences', { body: { preferences } }))).data.preferences,
    onSuccess: (preferences) => client.setQueryData(queryKeys.notificationPreferences, preferences),
  });
}

/** The enterprise's default delivery of each kind (client admins). */
export function useEnterpriseDefaults() {
  return useQuery({
    queryKey: queryKeys.notificationDefaults,
    queryFn: async () => (await unwrap(api.GET('/api/v1/notification-defaults'))).data.defaults,
  });
}

/** A new default changes the deliveries of whoever follows it, the admin's own among them. */
export function useSaveEnterpriseDefaults() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (defaults: ChoiceOf[]) =>
      (await unwrap(api.PUT('/api/v1/notification-defaults', { body: { defaults } }))).data.defaults,
    onSuccess: (defaults) => {
      client.setQueryData(queryKeys.notificationDefaults, defaults);
      return client.invalidateQueries({ queryKey: queryKeys.notificationPreferences });
    },
  });
}
