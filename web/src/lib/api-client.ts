import { createClient } from '@risk-assurance/client';
import { ApiError, toApiError } from './api-error';
import { accessToken, refreshSession, setSession } from './session';

/**
 * The one client of the console (STYLE: nothing else calls fetch): same origin, the bearer token on
 * every /api call, one refresh and retry on a 401, and sign-out when that fails too. Same-origin
 * credentials (fetch's default, written out so that nobody turns it off): the sign-in must carry the
 * provider's http-only device cookie, which lets this browser in while others' wrong guesses have spent
 * the account's sign-in budget.
 */
export const api = createClient({ baseUrl: '', credentials: 'same-origin' });

api.use({
  async onRequest({ request, schemaPath }) {
    if (!schemaPath.startsWith('/api/')) return request;
    const token = await accessToken();
    if (token !== null) request.headers.set('authorization', `Bearer ${token}`);
    return request;
  },
  async onResponse({ request, response, schemaPath, options }) {
    if (response.status !== 401 || !schemaPath.startsWith('/api/') || request.headers.has('x-retried')) return response;
    const session = await refreshSession();
    if (session === null) return response;
    const retry = new Request(request, { headers: new Headers(request.headers) });
    retry.headers.set('authorization', `Bearer ${session.access_token}`);
    retry.headers.set('x-retried', '1');
    const again = await options.fetch(retry);
    if (again.status === 401) setSession(null);
    return again;
  },
});

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The data of a call, or an ApiError carrying its readable message and field messages. */
export async function unwrap<T>(call: Promise<Answer<T>>): Promise<NonNullable<T>> {
  let answer: Answer<T>;
  try {
    answer = await call;
  } catch {
    throw new ApiError(0, 'The service cannot be reached. Check the connection and try again.');
  }
  if (answer.error !== undefined || !answer.response.ok) throw toApiError(answer.response.status, answer.error);
  return answer.data as NonNullable<T>;
}

/** How far an upload is: bytes sent of the total. */
export type UploadProgress = (sent: number, total: number) => void;

function sendForm(url: string, form: FormData, token: string | null, onProgress: UploadProgress): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', url);
    request.withCredentials = true;
    if (token !== null) request.setRequestHeader('authorization', `Bearer ${token}`);
    request.upload.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : 0);
    request.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(request.responseText);
      } catch {
        body = null;
      }
      resolve({ status: request.status, body });
    };
    request.onerror = () => reject(new ApiError(0, 'The service cannot be reached. Check the connection and try again.'));
    request.send(form);
  });
}

/**
 * A file sent as multipart/form-data with its progress: the one call fetch cannot make, since a browser
 * reports an upload's progress only to XMLHttpRequest. Same token, same refresh-once-on-401, same errors as
 * every other call of this client.
 */
async function uploadForm<T>(url: string, form: FormData, onProgress: UploadProgress): Promise<T> {
  let answer = await sendForm(url, form, await accessToken(), onProgress);
  if (answer.status === 401) {
    const session = await refreshSession();
    if (session !== null) answer = await sendForm(url, form, session.access_token, onProgress);
    if (answer.status === 401) setSession(null);
  }
  if (answer.status < 200 || answer.status >= 300) throw toApiError(answer.status, answer.body);
  return answer.body as T;
}

/** The operations that take a multipart file, called by their path as `api` calls are: `upload.POST('/api/v1/evidence', …)`. */
export const upload = {
  POST: <T>(path: '/api/v1/evidence', query: Record<string, string>, form: FormData, onProgress: UploadProgress) =>
    uploadForm<T>(`${path}?${new URLSearchParams(query).toString()}`, form, onProgress),
};
