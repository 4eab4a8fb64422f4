import type { MetricSource } from '../../platform/metrics/metrics.js';
import { chainsAheadOfCheckpoints, newestCheckpointAgeSeconds } from './checkpoints.repository.js';

/**
 * The checkpoint signer's health, read when Prometheus scrapes: how old the newest signature is, and how many
 * chains have entries no checkpoint covers yet. Both high together mean the signer has stopped (operations.md).
 */
export const CHECKPOINT_METRICS: readonly MetricSource[] = [
  {
    name: 'risk_audit_checkpoint_age_seconds',
    help: 'Seconds since the newest audit checkpoint was signed (absent before the first)',
    async read(db) {
      const age = await newestCheckpointAgeSeconds(db);
      return age === null ? [] : [{ value: age }];
    },
  },
  {
    name: 'risk_audit_chains_unsigned',
    help: 'Audit chains with entries that no checkpoint covers yet',
    read: async (db) => [{ value: (await chainsAheadOfCheckpoints(db)).length }],
  },
];
