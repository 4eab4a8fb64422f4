import type { Kysely } from 'kysely';
import { auditFrom } from '../../platform/audit/audit-events.js';
import { writeAudit } from '../../platform/audit/audit-writer.js';
import type { Caller } from '../../platform/auth/principal.js';
import type { DB } from '../../platform/db/schema.js';
import { inTransaction } from '../../platform/db/transaction.js';
import { pageRequest, paginationInfo, type Page } from '../../platform/http/pagination.js';
import { utcToday } from '../actions/overdue.js';
import { checkPlaceFilter } from './place-filter.js';
import { REGISTER_CONTENT_TYPES, registerFileName, streamRegister } from './register-export.js';
import { toRegisterRowView } from './register.presenter.js';
import { registerPage, registerRowsQuery, type RegisterFilter, type RegisterQuery as RegisterSql } from './register.repository.js';
import type { RegisterExportQuery, RegisterQuery, RegisterRowView } from './register.schemas.js';
import { registerScope, requireRegisterReader } from './reporting.policy.js';

const FILTER_KEYS = [
  'legal_entity_id',
  'business_unit_id',
  'category',
  'risk_level',
  'above_appetite',
  'accepted',
  'include_live',
  'inherent_impact',
  'inherent_likelihood',
  'residual_impact',
  'residual_likelihood',
] as const satisfies readonly (keyof RegisterFilter)[];

/** The query's filters alone (no sort, page or format), as the statement and the audit entry take them. */
function filterOf(query: RegisterQuery | RegisterExportQuery): RegisterFilter {
  return Object.fromEntries(FILTER_KEYS.filter((key) => query[key] !== undefined).map((key) => [key, query[key]]));
}

/**
 * The risk register (reporting.register): the page and the export read the same statement with the same
 * scope and filters, so an exported file holds exactly the rows the pages list. Read-only: bound to the
 * database, the export opening a cursor transaction of its own.
 */
export function createRegisterService({ db, onExportError }: { db: Kysely<DB>; onExportError: (error: unknown) => void }) {
  async function registerSql(caller: Caller, query: RegisterQuery | RegisterExportQuery, now: Date): Promise<RegisterSql> {
    requireRegisterReader(caller);
    await checkPlaceFilter(db, caller, query);
    return { enterpriseId: caller.enterpriseId, scope: registerScope(caller), filter: filterOf(query), today: utcToday(now) };
  }

  return {
    async page(caller: Caller, query: RegisterQuery, now = new Date()): Promise<Page<RegisterRowView>> {
      const sqlQuery = await registerSql(caller, query, now);
      const request = pageRequest(query);
      const { rows, total } = await registerPage(db, sqlQuery, query.sort ?? 'residual_score', request.pageSize, request.offset);
      return { data: rows.map((row) => toRegisterRowView(row, caller)), pagination: paginationInfo(request, total) };
    },

    /** Checks and the audit entry come before the first byte; the rows then stream from a cursor. */
    async export(caller: Caller, query: RegisterExportQuery, now = new Date()) {
      const sqlQuery = await registerSql(caller, query, now);
      const format = query.format ?? 'csv';
      const fileName = registerFileName(format, now);
      await inTransaction(db, async ({ trx }) =>
        writeAudit(trx, {
          enterpriseId: caller.enterpriseId,
          ...auditFrom(caller),
          action: 'export',
          entityType: null,
          entityId: null,
          details: { export: 'risk_register', format, file_name: fileName, filters: sqlQuery.filter, sort: query.sort ?? 'residual_score' },
        }),
      );
      const compiled = registerRowsQuery(sqlQuery, query.sort ?? 'residual_score').compile(db);
      return { stream: streamRegister(db, compiled, format, onExportError), contentType: REGISTER_CONTENT_TYPES[format], fileName };
    },
  };
}

export type RegisterService = ReturnType<typeof createRegisterService>;
