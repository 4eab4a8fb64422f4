import { Type } from 'typebox';
import { NOTIFICATION_KINDS } from '../../platform/db/tables/notifications.js';
import { DataResponse, errorResponses } from '../../platform/http/schemas.js';

/** One-click unsubscribe from notification mail (RFC 8058): the link of a mail's List-Unsubscribe header and footer. */

const UnsubscribeQuery = Type.Object({
  token: Type.Optional(Type.String({ maxLength: 2000, description: 'The signed token of the mail’s link (names the enterprise, the person and the kinds)' })),
});

const Kind = Type.Enum([...NOTIFICATION_KINDS]);
/** Both operations answer the mail's link: public (the signed token is their authority), under the notifications tag. */
const mailLink = { tags: ['notifications'], security: [], querystring: UnsubscribeQuery };

/** What a one-click unsubscribe turned off. */
const Unsubscribed = Type.Object({
  kind: Kind,
  delivery: Type.Literal('off'),
  kinds: Type.Array(Kind, { description: 'Every kind turned off (one for a single notification’s mail, those of a digest)' }),
});

export const unsubscribeSchema = {
  summary: 'Unsubscribe from a kind of notification mail (one click)',
  description:
    'RFC 8058 one-click unsubscribe: the mail client POSTs `List-Unsubscribe=One-Click` (application/x-www-form-urlencoded) to the ' +
    'List-Unsubscribe URL of a notification mail. No authentication: the signed token names the enterprise, the person and the ' +
    'kinds the mail told of, and each is set to `off` for that person (the console still lists them; GET or PUT ' +
    '/me/notification-preferences turns them back on). A digest names each kind it held: `kinds` lists them all, `kind` is the first. ' +
    'A token this service did not sign: 401. The unsubscribe page’s button submits the same request from a browser, which is ' +
    'answered with a confirmation page instead of JSON.',
  operationId: 'notifications.unsubscribe',
  ...mailLink,
  consumes: ['application/x-www-form-urlencoded', 'application/json'],
  body: Type.Object(
    { 'List-Unsubscribe': Type.Literal('One-Click', { description: 'RFC 8058’s one-click marker' }) },
    { additionalProperties: false, examples: [{ 'List-Unsubscribe': 'One-Click' }] },
  ),
  response: {
    200: {
      description: 'The kinds turned off: JSON; a browser that submitted the unsubscribe page (Accept: text/html without application/json) gets a confirmation page',
      content: { 'application/json': { schema: DataResponse(Unsubscribed) }, 'text/html': { schema: Type.String() } },
    },
    ...errorResponses([413, 415, 422]),
  },
};

export const unsubscribePageSchema = {
  operationId: 'notifications.unsubscribe_page',
  ...mailLink,
  summary: 'The unsubscribe page of a notification mail',
  description:
    'What a person who follows the link sees: a page with one button that POSTs the one-click request. A GET changes nothing, ' +
    'so that a link scanner opening the mail does not unsubscribe anyone. A token this service did not sign: 401.',
  produces: ['text/html'],
  response: {
    200: { description: 'The page (HTML)', content: { 'text/html': { schema: Type.String() } } },
    ...errorResponses([]),
  },
};
