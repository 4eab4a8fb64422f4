import { ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { AddressInfo } from 'node:net';
import S3rver from 's3rver';
import { afterAll } from 'vitest';
import { scratchDir } from './scratch-dir.js';

const BUCKET = 'evidence-test';
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/**
 * A local S3-compatible server (s3rver) with one bucket, for the S3 store's suites: the environment that
 * points the service at it, and a client to look at what the bucket holds. Stopped when the file is done.
 */
export async function startS3Server() {
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: scratchDir('s3rver'), configureBuckets: [{ name: BUCKET, configs: [] }] });
  const address = (await server.run()) as AddressInfo;
  afterAll(() => server.close());
  const endpoint = `http://127.0.0.1:${address.port}`;
  const client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: CREDENTIALS });
  return {
    env: {
      EVIDENCE_STORAGE: 's3',
      EVIDENCE_S3_BUCKET: BUCKET,
      EVIDENCE_S3_PREFIX: 'evidence/',
      EVIDENCE_S3_ENDPOINT: endpoint,
      EVIDENCE_S3_FORCE_PATH_STYLE: 'true',
      EVIDENCE_S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      EVIDENCE_S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
    },
    /** The names of the objects in the bucket. */
    async objects(): Promise<string[]> {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: BUCKET }));
      return (listed.Contents ?? []).map((object) => object.Key!).sort();
    },
    /** Replaces an object's content behind the service's back. */
    async overwrite(key: string, body: Buffer) {
      await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: body }));
    },
  };
}
