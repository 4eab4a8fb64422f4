import { createHash } from 'node:crypto';
import { AppError } from '../../platform/errors/app-error.js';

/**
 * An upload as the service reads it: its first bytes apart (to decide the type before anything is
 * written), then the whole content once, counted and hashed as it passes, refused the moment it passes its
 * limit. Nothing is buffered beyond the head.
 */
export interface MeasuredUpload {
  /** The first bytes (up to `headBytes`), for the type. */
  head: Buffer;
  /** The whole content, head included; throws 413 past the limit. Read it once. */
  content: AsyncIterable<Buffer>;
  /** After `content` is read to its end: its size and hex SHA-256. */
  measured(): { sizeBytes: number; sha256: string };
}

export async function measureUpload(source: AsyncIterable<Buffer>, headBytes: number, limit: { bytes: number; why: string }): Promise<MeasuredUpload> {
  const iterator = source[Symbol.asyncIterator]();
  const headParts: Buffer[] = [];
  let headSize = 0;
  let ended = false;
  while (headSize < headBytes) {
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      break;
    }
    headParts.push(next.value);
    headSize += next.value.length;
  }
  const joined = Buffer.concat(headParts, headSize);
  const hash = createHash('sha256');
  let size = 0;
  let finished = false;
  const take = (piece: Buffer) => {
    size += piece.length;
    if (size > limit.bytes) throw new AppError('PAYLOAD_TOO_LARGE', limit.why);
    hash.update(piece);
    return piece;
  };
  async function* content(): AsyncIterable<Buffer> {
    if (joined.length > 0) yield take(joined);
    if (!ended) {
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield take(next.value);
    }
    finished = true;
  }
  let digest: string | null = null;
  return {
    head: joined.subarray(0, headBytes),
    content: content(),
    measured() {
      if (!finished) throw new Error('measured() before the content was read to its end');
      digest ??= hash.digest('hex');
      return { sizeBytes: size, sha256: digest };
    },
  };
}
