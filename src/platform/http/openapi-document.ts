import { exampleFor, type ExampleContext } from './openapi-examples.js';

/**
 * The last pass over the generated OpenAPI document, applied to every operation the same way, so that a
 * route added by any module is documented as completely as the first ones without writing more than its
 * TypeBox schema (summary, operationId, tags, body and response schemas):
 * - a success response without a description is described from the operation's summary;
 * - every JSON request body and success response gets an example (generated from the schema when the
 *   schema declares none), and so does a download's every media type;
 * - error answers are JSON in the error shape only, download routes' included;
 * - every operation states its security: /auth/v1 calls the `apikey` header, the rest the bearer token,
 *   unless its schema says otherwise (`security: []` for public routes);
 * - every tag used is listed with a description, the known ones first in reading order.
 */
type Json = Record<string, any>;

export const SECURITY_SCHEMES = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description:
      'An access token from POST /auth/v1/token (valid one hour). On PUT /auth/v1/admin/users/{user_id} the bearer ' +
      'is the service-role key (AUTH_SERVICE_ROLE_KEY) instead.',
  },
  apikey: {
    type: 'apiKey',
    in: 'header',
    name: 'apikey',
    description:
      'The identity provider\'s client key: AUTH_ANON_KEY (public) or AUTH_SERVICE_ROLE_KEY. Required on every /auth/v1 ' +
      'call except the key set.',
  },
} as const;

export interface TagInfo {
  name: string;
  description: string;
}

const HTTP_LAYER_REFUSAL =
  'Not a refusal of this operation, which takes no input: a request the HTTP server cannot read (400, or 431 for headers ' +
  'over its limit), in the error shape.';

const ERROR_BODY = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } };

/** Answered by the HTTP server for any operation, before the operation runs. */
const HEADERS_TOO_LARGE = {
  description: 'HEADERS_TOO_LARGE: the request\'s headers are over the server\'s limit (16 KiB)',
  content: ERROR_BODY,
};

/** Answered by the body parser to any request that sends a body, before the operation runs (D2.2). */
const BODY_REFUSALS = {
  '413': { description: 'PAYLOAD_TOO_LARGE: a body over 1 MiB', content: ERROR_BODY },
  '415': { description: 'UNSUPPORTED_MEDIA_TYPE: a body sent without Content-Type: application/json', content: ERROR_BODY },
  '422': { description: 'VALIDATION_ERROR: a body sent to an operation that takes none', content: ERROR_BODY },
};

/** Every /auth/v1 call spends the caller's address budget (D8), in the API's error shape with retry_after. */
const PROVIDER_RATE_LIMITED = {
  description: 'RATE_LIMIT_EXCEEDED: too many calls from this address (or, for sign-in and recovery, for this account)',
  content: ERROR_BODY,
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head'];

const SUCCESS_WORDS: Record<string, string> = {
  '200': 'Success',
  '201': 'Created',
  '202': 'Accepted',
  '204': 'Done, no content',
};

export function finishDocument(document: Json, knownTags: readonly TagInfo[]): Json {
  const schemas = (document['components']?.['schemas'] ?? {}) as Record<string, Json>;
  const context: ExampleContext = {
    resolve: (ref) => (ref.startsWith('#/components/schemas/') ? schemas[ref.slice('#/components/schemas/'.length)] : undefined),
  };
  const usedTags = new Set<string>();
  for (const [path, item] of Object.entries((document['paths'] ?? {}) as Record<string, Json>)) {
    for (const method of METHODS) {
      const operation = item[method] as Json | undefined;
      if (operation === undefined) continue;
      for (const tag of (operation['tags'] ?? []) as string[]) usedTags.add(tag);
      operation['security'] ??= path.startsWith('/auth/v1/') ? [{ apikey: [] }] : [{ bearerAuth: [] }];
      const body = operation['requestBody']?.['content']?.['application/json'] as Json | undefined;
      if (body !== undefined) addExample(body, context);
      const responses = (operation['responses'] ??= {}) as Record<string, Json>;
      // Operations that refuse nothing themselves (health, the key set) still meet the HTTP layer's refusals.
      if (!Object.keys(responses).some((status) => /^4(\d\d|XX)$/.test(status))) {
        responses['4XX'] = { description: HTTP_LAYER_REFUSAL, content: ERROR_BODY };
      } else {
        responses['431'] ??= HEADERS_TOO_LARGE;
        if (method !== 'get' && method !== 'head') for (const [status, answer] of Object.entries(BODY_REFUSALS)) responses[status] ??= answer;
        if (path.startsWith('/auth/v1/') && !path.includes('jwks')) responses['429'] ??= PROVIDER_RATE_LIMITED;
      }
      for (const [status, response] of Object.entries(responses)) {
        if (/^[45](\d\d|XX)$/.test(status)) {
          answerErrorsAsJson(response);
          continue;
        }
        if (!/^2\d\d$/.test(status)) continue;
        if (response['description'] === undefined || response['description'] === 'Default Response') {
          response['description'] = describeSuccess(status, operation['summary']);
        }
        for (const [type, media] of Object.entries((response['content'] ?? {}) as Record<string, Json>)) {
          if (type === 'application/json') addExample(media, context);
          else addFileExample(type, media, context);
        }
      }
    }
  }
  document['tags'] = orderedTags(usedTags, knownTags);
  return document;
}

/**
 * A download route declares the file's media types (`produces`), which the generator copies onto every
 * answer; its refusals are still JSON in the error shape, so an error answer keeps that one media type.
 */
function answerErrorsAsJson(response: Json): void {
  const content = response['content'] as Record<string, Json> | undefined;
  if (content === undefined) return;
  const json = content['application/json'] ?? Object.values(content)[0];
  if (json !== undefined) response['content'] = { 'application/json': json };
}

/** A file's example: what the route declares (a CSV's header row), else a word on the bytes of a binary file. */
function addFileExample(type: string, media: Json, context: ExampleContext): void {
  if (media['example'] !== undefined || media['examples'] !== undefined || media['schema'] === undefined) return;
  media['example'] = media['schema']['format'] === 'binary' ? `(the ${type} file's bytes)` : exampleFor(media['schema'], context);
}

function addExample(media: Json, context: ExampleContext): void {
  if (media['example'] !== undefined || media['examples'] !== undefined || media['schema'] === undefined) return;
  media['example'] = exampleFor(media['schema'], context);
}

function describeSuccess(status: string, summary: unknown): string {
  const word = SUCCESS_WORDS[status] ?? 'Success';
  return typeof summary === 'string' && summary !== '' ? `${word}: ${lowerFirst(summary)}` : word;
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

function orderedTags(used: Set<string>, known: readonly TagInfo[]): TagInfo[] {
  const listed = known.filter((tag) => used.has(tag.name));
  const others = [...used]
    .filter((name) => !known.some((tag) => tag.name === name))
    .sort()
    .map((name) => ({ name, description: `Operations on ${name}.` }));
  return [...listed, ...others];
}
