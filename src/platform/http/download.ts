import type { FastifyReply } from 'fastify';

/** What an export hands its route: the file's media type and the name it is saved under. */
export interface DownloadFile {
  contentType: string;
  fileName: string;
}

/**
 * Sends an export as an attachment that no cache keeps (it is the caller's data as it was then). `body` is a
 * stream or a buffer, sent as it is: the route's response schema documents the file, not these bytes.
 */
export function sendDownload(reply: FastifyReply, file: DownloadFile, body: unknown) {
  return reply
    .header('content-type', file.contentType)
    .header('content-disposition', `attachment; filename="${file.fileName}"`)
    .header('cache-control', 'no-store')
    .send(body as never);
}
