import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';
import type { NotificationKind } from './api';

/*
 * How the service mails a person of each kind of notification, and a client admin's defaults for the
 * enterprise (issue 49). The four operations are the contract's (GET and PUT /me/notification-preferences,
 * GET and PUT /notification-defaults) but not yet in the generated client: their types are declared here and
 * the calls go through `untyped`, the console's one client with those paths typed by hand. Once the client
 * is generated with them, these types become `DataOf`/`BodyOf` of those paths and `untyped` becomes `api`.
 */

export type Delivery = 'immediate' | 'digest' | 'off';
/** What a person sets: a delivery, or `default` to follow the enterprise's (or the service's) default again. */
export type DeliveryChoice = Delivery | 'default';

export interface Preference {
  kind: NotificationKind;
  delivery: Delivery;
  /** Where the delivery comes from: the person's own choice, the enterprise's default, or the service's. */
  source: 'user' | 'enterprise' | 'default';
}

export interface EnterpriseDefault {
  kind: NotificationKind;
  delivery: Delivery;
  source: 'enterprise' | 'default';
}

export interface ChoiceOf {
  kind: NotificationKind;
  delivery: DeliveryChoice;
}

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}
type PreferencesAnswer = { data: { preferences: Preference[] }; message: string };
type DefaultsAnswer = { data: { defaults: EnterpriseDefault[] }; message: string };

/** The console's client (its token, refresh and errors) with the four paths typed by hand. */
const untyped = api as unknown as {
  GET(path: '/api/v1/me/notification-preferences'): Promise<Answer<PreferencesAnswer>>;
  GET(path: '/api/v1/notification-defaults'): Promise<Answer<DefaultsAnswer>>;
  PUT(path: '/api/v1/me/notification-preferences', init: { body: { preferences: ChoiceOf[] } }): Promise<Answer<PreferencesAnswer>>;
  PUT(path: '/api/v1/notification-defaults', init: { body: { defaults: ChoiceOf[] } }): Promise<Answer<DefaultsAnswer>>;
};

/** The caller's delivery of each kind, with where it comes from. */
export function useMyPreferences() {
  return useQuery({
    queryKey: queryKeys.notificationPreferences,
    queryFn: async () => (await unwrap(untyped.GET('/api/v1/me/notification-preferences'))).data.preferences,
  });
}

export function useSaveMyPreferences() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (preferences: ChoiceOf[]) =>
      (await unwrap(untyped.PUT('/api/v1/me/notification-preferences', { body: { preferences } }))).data.preferences,
    onSuccess: (preferences) => client.setQueryData(queryKeys.notificationPreferences, preferences),
  });
}

/** The enterprise's default delivery of each kind (client admins). */
export function useEnterpriseDefaults() {
  return useQuery({
    queryKey: queryKeys.notificationDefaults,
    queryFn: async () => (await unwrap(untyped.GET('/api/v1/notification-defaults'))).data.defaults,
  });
}

/** A new default changes the deliveries of whoever follows it, the admin's own among them. */
export function useSaveEnterpriseDefaults() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (defaults: ChoiceOf[]) =>
      (await unwrap(untyped.PUT('/api/v1/notification-defaults', { body: { defaults } }))).data.defaults,
    onSuccess: (defaults) => {
      client.setQueryData(queryKeys.notificationDefaults, defaults);
      return client.invalidateQueries({ queryKey: queryKeys.notificationPreferences });
    },
  });
}
