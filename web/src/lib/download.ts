import { ApiError, toApiError } from './api-error';

interface FileAnswer {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/**
 * A file the service streams (an export, a report), fetched through the one client with the token (never
 * in the URL, D5.6) and saved under the name its Content-Disposition gives. Returns that name.
 */
export async function saveDownload(call: Promise<FileAnswer>, fallbackName: string): Promise<string> {
  const answer = await call.catch(() => {
    throw new ApiError(0, 'The service cannot be reached. Check the connection and try again.');
  });
  if (!answer.response.ok) throw toApiError(answer.response.status, answer.error);
  const disposition = answer.response.headers.get('content-disposition') ?? '';
  const name = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? fallbackName;
  const url = URL.createObjectURL(answer.data as Blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return name;
}
