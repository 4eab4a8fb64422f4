import { DeleteObjectCommand, GetObjectCommand, S3Client, type ServerSideEncryption } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { Readable } from 'node:stream';
import type { EvidenceS3Settings } from '../../../config.js';
import type { EvidenceStore } from './evidence-store.js';

/** Parts of a multipart upload: S3's smallest, so an upload holds about one part in memory at a time. */
const PART_BYTES = 5 * 1024 * 1024;

/**
 * Evidence content in S3-compatible object storage, for a deployment of many instances. Objects are named
 * `<prefix><enterprise id>/<key>`, written with server-side encryption as configured, streamed up in parts
 * (a refused upload is aborted and its object, if any, deleted) and streamed down, a range when one is asked.
 */
export function s3Store(settings: EvidenceS3Settings): EvidenceStore {
  const client = new S3Client({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    forcePathStyle: settings.forcePathStyle,
    ...(settings.accessKeyId && settings.secretAccessKey ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } } : {}),
  });
  const objectKey = (enterpriseId: string, key: string) => `${settings.prefix}${enterpriseId}/${key}`;
  return {
    kind: 's3',

    async put(_db, enterpriseId, key, content) {
      const upload = new Upload({
        client,
        queueSize: 1,
        partSize: PART_BYTES,
        leavePartsOnError: false,
        params: {
          Bucket: settings.bucket,
          Key: objectKey(enterpriseId, key),
          Body: Readable.from(content),
          ...(settings.serverSideEncryption ? { ServerSideEncryption: settings.serverSideEncryption as ServerSideEncryption } : {}),
        },
      });
      await upload.done();
    },

    async *get(_db, enterpriseId, key, range) {
      const answer = await client.send(
        new GetObjectCommand({ Bucket: settings.bucket, Key: objectKey(enterpriseId, key), ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
      );
      for await (const chunk of answer.Body as Readable) yield chunk as Buffer;
    },

    async discard(enterpriseId, key) {
      // Nothing may be left behind by a refused upload; a missing object is already the goal.
      await client.send(new DeleteObjectCommand({ Bucket: settings.bucket, Key: objectKey(enterpriseId, key) })).catch(() => undefined);
    },
  };
}
