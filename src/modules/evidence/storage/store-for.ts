import type { Config } from '../../../config.js';
import type { EvidenceStore } from './evidence-store.js';
import { postgresStore } from './postgres-store.js';

/** The store evidence content goes to under this configuration: the one place that chooses it. */
export function evidenceStoreFor(_config: Config): EvidenceStore {
  return postgresStore;
}
