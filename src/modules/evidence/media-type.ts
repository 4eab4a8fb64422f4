import { fileTypeFromBuffer } from 'file-type';
import { AppError } from '../../platform/errors/app-error.js';

/**
 * What an evidence file is, decided from its first bytes, never from what the client claims (issue 48).
 * The service only looks at a file's signature to name its type: it never opens, unpacks or renders one.
 *
 * Accepted: documents (PDF, Office and OpenDocument files, older Office and Outlook files), images, and
 * text (UTF-8, no NUL). Refused (415): everything else a signature names, among them executables and
 * libraries of every platform, and archives of every kind (zip, 7z, rar, tar, gzip, bzip2, xz, cab): their
 * entries would be content the service cannot vouch for, and counting them would mean opening them.
 */

/** Bytes read before the type is decided: enough for the signatures of Office files inside their zip. */
export const SNIFF_BYTES = 64 * 1024;

const ACCEPTED = new Set([
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/tiff',
  'image/bmp',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.spreadsheet',
  'application/vnd.oasis.opendocument.presentation',
]);

/** Older Office and Outlook files share one container signature: their extension names which one. */
const COMPOUND_FILE_TYPES: Record<string, string> = {
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  ppt: 'application/vnd.ms-powerpoint',
  msg: 'application/vnd.ms-outlook',
};

/** Text by extension; any other text is plain text. */
const TEXT_TYPES: Record<string, string> = {
  csv: 'text/csv; charset=utf-8',
  eml: 'message/rfc822',
  json: 'application/json',
};

const extensionOf = (name: string) => /\.([a-z0-9]{1,8})$/i.exec(name)?.[1]?.toLowerCase() ?? '';

function isUtf8Text(head: Buffer): boolean {
  if (head.includes(0)) return false;
  // The head may end inside a character: a dangling lead byte is not a reason to refuse.
  const whole = head.length === SNIFF_BYTES ? head.subarray(0, Math.max(0, head.length - 3)) : head;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(whole);
    return true;
  } catch {
    return false;
  }
}

const refused = (what: string) =>
  new AppError('UNSUPPORTED_MEDIA_TYPE', `${what} cannot be kept as evidence: upload a document, an image or a text file`);

/** The media type to store and serve for a file whose content starts with `head` (415 when refused). */
export async function evidenceMediaType(head: Buffer, fileName: string): Promise<string> {
  const sniffed = await fileTypeFromBuffer(head);
  if (sniffed === undefined) {
    if (!isUtf8Text(head)) throw refused('A file of an unrecognised binary type');
    return TEXT_TYPES[extensionOf(fileName)] ?? 'text/plain; charset=utf-8';
  }
  if (sniffed.mime === 'application/x-cfb') return COMPOUND_FILE_TYPES[extensionOf(fileName)] ?? 'application/x-cfb';
  if (!ACCEPTED.has(sniffed.mime)) throw refused(`A file of type ${sniffed.mime} (.${sniffed.ext})`);
  return sniffed.mime;
}
