import type { Config } from '../../../config.js';
import type { EvidenceStore } from './evidence-store.js';
import { postgresStore } from './postgres-store.js';
import { s3Store } from './s3-store.js';

const s3Stores = new WeakMap<object, EvidenceStore>();

/**
 * The store evidence content goes to under this configuration: the one place that chooses it. One S3 client
 * per configuration (services are bound per request; the client and its connections are not).
 */
export function evidenceStoreFor(config: Config): EvidenceStore {
  const s3 = config.evidence.s3;
  if (s3 === null) return postgresStore;
  let store = s3Stores.get(s3);
  if (store === undefined) s3Stores.set(s3, (store = s3Store(s3)));
  return store;
}
