// The typed client: openapi-fetch over the paths of the generated schema (schema.d.ts). Types only in
// schema.d.ts; this file is the whole runtime.
import createFetchClient from 'openapi-fetch';

export function createClient(options = {}) {
  return createFetchClient(options);
}
