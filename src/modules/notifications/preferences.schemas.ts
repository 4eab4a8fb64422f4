import { Type, type Static } from 'typebox';
import { NOTIFICATION_DELIVERIES, NOTIFICATION_KINDS } from '../../platform/db/tables/notifications.js';
import { DataResponse, errorResponses } from '../../platform/http/schemas.js';

/** How people hear of notifications by mail (issue 49): a person's preferences and the enterprise's defaults. */

const Kind = Type.Enum([...NOTIFICATION_KINDS], { description: 'The kind of notification (see GET /notifications)' });
const Delivery = Type.Enum([...NOTIFICATION_DELIVERIES], {
  description: 'immediate: a mail at once; digest: in the daily digest mail; off: no mail (the console still lists it)',
});
const Choice = Type.Enum([...NOTIFICATION_DELIVERIES, 'default'], {
  description: 'immediate, digest or off; default: remove this choice (the next level applies: the enterprise’s default, else the built-in one)',
});

export const PreferenceView = Type.Object({
  kind: Kind,
  delivery: Delivery,
  source: Type.Enum(['user', 'enterprise', 'default'], {
    description: 'user: the caller’s own choice; enterprise: the enterprise’s default (a client admin’s); default: built in (review-loop kinds immediate, reminders digest)',
  }),
});
export const DefaultView = Type.Object({
  kind: Kind,
  delivery: Delivery,
  source: Type.Enum(['enterprise', 'default'], { description: 'enterprise: set by a client admin; default: built in' }),
});

const choices = (description: string) =>
  Type.Array(Type.Object({ kind: Kind, delivery: Choice }, { additionalProperties: false }), {
    minItems: 1,
    maxItems: NOTIFICATION_KINDS.length,
    description: `${description}; each kind at most once (else 422); kinds not named are left as they are`,
  });

export const PreferencesBody = Type.Object(
  { preferences: choices('The caller’s choices') },
  { additionalProperties: false, examples: [{ preferences: [{ kind: 'action_due_soon', delivery: 'off' }, { kind: 'bra_commented', delivery: 'default' }] }] },
);
export type PreferencesBody = Static<typeof PreferencesBody>;

export const DefaultsBody = Type.Object(
  { defaults: choices('The enterprise’s defaults') },
  { additionalProperties: false, examples: [{ defaults: [{ kind: 'action_overdue', delivery: 'immediate' }] }] },
);
export type DefaultsBody = Static<typeof DefaultsBody>;

const PreferencesAnswer = DataResponse(
  Type.Object({ preferences: Type.Array(PreferenceView, { description: 'One entry per kind, in a fixed order' }) }),
);
const DefaultsAnswer = DataResponse(Type.Object({ defaults: Type.Array(DefaultView, { description: 'One entry per kind, in a fixed order' }) }));

const tags = ['notifications'];
const PEOPLE = 'Any member of an enterprise who is a person (403 for super admins and integrations).';
const ADMINS = 'Client admins of the enterprise (403 for others).';

export const getPreferencesSchema = {
  summary: 'How I hear of each kind of notification',
  description: `The caller’s effective delivery per kind, and where it comes from. ${PEOPLE}`,
  operationId: 'notifications.preferences.get',
  tags,
  response: { 200: PreferencesAnswer, ...errorResponses([]) },
};

export const updatePreferencesSchema = {
  summary: 'Choose how I hear of kinds of notification',
  description: `Sets or removes (\`default\`) the caller’s own choice for the kinds named, audited; answers as GET. ${PEOPLE}`,
  operationId: 'notifications.preferences.update',
  tags,
  body: PreferencesBody,
  response: { 200: PreferencesAnswer, ...errorResponses([413, 415, 422]) },
};

export const getDefaultsSchema = {
  summary: 'The enterprise’s notification defaults',
  description: `The delivery per kind for the members who made no choice of their own. ${ADMINS}`,
  operationId: 'notifications.defaults.get',
  tags,
  response: { 200: DefaultsAnswer, ...errorResponses([]) },
};

export const updateDefaultsSchema = {
  summary: 'Set the enterprise’s notification defaults',
  description: `Sets or removes (\`default\`: the built-in one applies) the enterprise’s default for the kinds named, audited; answers as GET. ${ADMINS}`,
  operationId: 'notifications.defaults.update',
  tags,
  body: DefaultsBody,
  response: { 200: DefaultsAnswer, ...errorResponses([413, 415, 422]) },
};
