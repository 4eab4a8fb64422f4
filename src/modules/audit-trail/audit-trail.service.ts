import type { Caller } from '../../platform/auth/principal.js';
import { walkAuditChain } from '../../platform/audit/chain-verifier.js';
import type { Kysely } from 'kysely';
import type { DB, Executor } from '../../platform/db/schema.js';
import { PRIMARY_READS, type RoutedReads } from '../../platform/db/read-routing.js';
import { AppError } from '../../platform/errors/app-error.js';
import { pageRequest, paginationInfo } from '../../platform/http/pagination.js';
import { requireAuditor } from './audit-trail.policy.js';
import {
  chainRange,
  countMatchingUpTo,
  estimateMatching,
  csvExportQuery,
  exportQuery,
  hasAttributeFilter,
  pageOfMatching,
  pageOfRange,
  type AttributeFilters,
  type ChainRange,
} from './audit-trail.repository.js';
import type { ExportAuditQuery, SearchAuditQuery, VerifyCheckpointBody } from './audit-trail.schemas.js';
import { exportContentType, exportFileName, streamCsvExport, streamJsonExport } from './audit-export.js';
import type { EvidenceIntegrity } from '../evidence/evidence-integrity.js';
import type { CheckpointsService } from './checkpoints.service.js';

/** Up to this many matches a filtered search counts exactly; beyond, `total` is the planner's estimate. */
export const EXACT_TOTAL_LIMIT = 10_000;

const DAY_MS = 86_400_000;

export interface DateFilters {
  start_date?: string | undefined;
  end_date?: string | undefined;
}

/** D7.5: inclusive UTC dates, as the half-open interval [start 00:00, day after end 00:00). */
export function dateBounds(filters: DateFilters): { start: Date | null; endExclusive: Date | null } {
  const start = filters.start_date === undefined ? null : new Date(`${filters.start_date}T00:00:00.000Z`);
  const end = filters.end_date === undefined ? null : new Date(`${filters.end_date}T00:00:00.000Z`);
  if (start !== null && end !== null && end < start) {
    throw new AppError('BAD_REQUEST', 'end_date is before start_date', { start_date: filters.start_date, end_date: filters.end_date });
  }
  return { start, endExclusive: end === null ? null : new Date(end.getTime() + DAY_MS) };
}

export async function filteredRange(db: Executor, enterpriseId: string, filters: DateFilters): Promise<ChainRange> {
  const { start, endExclusive } = dateBounds(filters);
  return chainRange(db, enterpriseId, start, endExclusive);
}

/** The audit trail is read-only: its service works on the database itself (the export opens its own transaction). */
/** The attribute filters of a search or an export query. */
const attributeFiltersOf = (query: SearchAuditQuery | ExportAuditQuery): AttributeFilters => ({
  action_type: query.action_type,
  entity_type: query.entity_type,
  user_id: query.user_id,
  entity_id: query.entity_id,
});

export function createAuditTrailService({
  db: primary,
  checkpoints,
  onExportError,
  reads = PRIMARY_READS,
  evidenceIntegrity,
}: {
  db: Kysely<DB>;
  checkpoints: CheckpointsService;
  onExportError: (error: unknown) => void;
  /** Every evidence file hashed again against its upload's audit entry (asked for with `evidence=true`). */
  evidenceIntegrity?: (enterpriseId: string) => Promise<EvidenceIntegrity>;
  /** Search and export may read from the replica (db/read-routing.ts), the caller's own changes included. */
  reads?: RoutedReads;
}) {
  return {
    /**
     * GET /audit (4.6): newest first. Without an attribute filter the page is a chain_seq range and the total
     * its width (exact, any depth). With one, the total is exact up to EXACT_TOTAL_LIMIT and flagged as an
     * estimate beyond; the page reads one row more than asked so that has_next is always exact.
     */
    async search(caller: Caller, query: SearchAuditQuery) {
      requireAuditor(caller);
      const db = await reads.executorFor(primary, caller.userId);
      const enterpriseId = caller.enterpriseId;
      const request = pageRequest(query);
      const filters = attributeFiltersOf(query);
      const range = await filteredRange(db, enterpriseId, query);
      if (range.from === null || range.to === null) {
        return { data: [], pagination: { ...paginationInfo(request, 0), total_is_estimate: false } };
      }
      const bounded = { from: range.from, to: range.to };
      if (!hasAttributeFilter(filters)) {
        const total = bounded.to - bounded.from + 1;
        const top = bounded.to - request.offset;
        const data = top < bounded.from ? [] : await pageOfRange(db, enterpriseId, Math.max(bounded.from, top - request.pageSize + 1), top);
        return { data, pagination: { ...paginationInfo(request, total), total_is_estimate: false } };
      }
      const counted = await countMatchingUpTo(db, enterpriseId, bounded, filters, EXACT_TOTAL_LIMIT);
      const estimated = counted > EXACT_TOTAL_LIMIT;
      const rows =
        !estimated && request.offset >= counted
          ? []
          : await pageOfMatching(db, enterpriseId, bounded, filters, request.pageSize + 1, request.offset);
      const data = rows.slice(0, request.pageSize);
      let total = counted;
      if (estimated) {
        // Never below what this page proves exists, nor at or below the exact limit.
        const seen = request.offset + rows.length;
        total = Math.max(await estimateMatching(db, enterpriseId, bounded, filters), EXACT_TOTAL_LIMIT + 1, seen);
      }
      const pagination = paginationInfo(request, total);
      return {
        data,
        pagination: { ...pagination, has_next: rows.length > request.pageSize, total_is_estimate: estimated },
      };
    },

    /**
     * GET /audit/export (D7.6): checks and bounds are resolved before the first byte, so refusals and bad
     * dates answer with the error model; the rows then stream: CSV by COPY, JSON from a cursor.
     */
    async export(caller: Caller, query: ExportAuditQuery, now = new Date()) {
      requireAuditor(caller);
      const db = await reads.executorFor(primary, caller.userId);
      const format = query.format ?? 'json';
      const range = await filteredRange(db, caller.enterpriseId, query);
      const bounded = range.from === null || range.to === null ? { from: 1, to: 0 } : { from: range.from, to: range.to };
      const filters = attributeFiltersOf(query);
      return {
        stream:
          format === 'csv'
            ? streamCsvExport(db, csvExportQuery(db, caller.enterpriseId, bounded, filters), onExportError)
            : streamJsonExport(db, exportQuery(db, caller.enterpriseId, bounded, filters), onExportError),
        contentType: exportContentType(format),
        fileName: exportFileName(format, now),
      };
    },

    /**
     * GET /audit/verify (D7.5): the chain, batch by batch, against the signed checkpoints. POST /audit/verify
     * hands in a checkpoint the auditor kept: the same walk with it as one more anchor.
     */
    async verify(caller: Caller, kept?: VerifyCheckpointBody, options: { evidence?: boolean } = {}) {
      requireAuditor(caller);
      const anchorsBetween =
        kept === undefined ? checkpoints.anchorsOf(caller.enterpriseId) : checkpoints.anchorsWithKept(caller.enterpriseId, kept);
      // Verification reads the primary: its answer is about the chain as written, not as replicated.
      const walk = await walkAuditChain(primary, caller.enterpriseId, { anchorsBetween });
      return {
        valid: walk.valid,
        entries_checked: walk.entries_checked,
        first_invalid_id: walk.first_invalid_id,
        checkpoints_checked: walk.anchors_checked,
        failure: walk.failure,
        ...(options.evidence === true && evidenceIntegrity !== undefined ? { evidence: await evidenceIntegrity(caller.enterpriseId) } : {}),
      };
    },
  };
}

export type AuditTrailService = ReturnType<typeof createAuditTrailService>;
