import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import {
  APPROVED,
  BRA_STATUSES,
  COMMENTABLE,
  EDITABLE,
  LIVE,
  NOT_CANCELLED,
  approvedBraSql,
  braStatusSql,
  hasStatus,
  liveBraSql,
} from '../../src/modules/bras/bras.lifecycle.js';
import { createTestContext } from '../support/app.js';
import { createBra, createBraEnterprise } from '../support/bras-factories.js';
import { createLegalEntity } from '../support/factories.js';

/**
 * The lifecycle's SQL (bras.lifecycle.ts), which the register, the dashboard, the trend, the health score, the
 * crossings and the organisation's archive embed: on the database, each named set selects exactly the BRAs
 * whose status the TypeScript set holds, and the statuses reach the SQL as literals (so a partial index on a
 * status, bras_approved_place_idx, matches under any plan).
 */
describe('the BRA lifecycle in SQL', async () => {
  const ctx = await createTestContext();

  it('each named set selects the BRAs the TypeScript set holds, one of each status', async () => {
    const enterprise = await createBraEnterprise(ctx);
    const entity = await createLegalEntity(ctx, enterprise.id);
    const bras = await Promise.all(BRA_STATUSES.map((status) => createBra(ctx, { enterpriseId: enterprise.id, legalEntityId: entity.id, status })));
    for (const set of [EDITABLE, COMMENTABLE, LIVE, APPROVED, NOT_CANCELLED]) {
      const { rows } = await sql<{ status: string }>`select b.status from bras b where b.enterprise_id = ${enterprise.id} and ${braStatusSql(set, 'b')}`.execute(ctx.db);
      expect(rows.map((row) => row.status).sort(), set.join(',')).toEqual(bras.filter((bra) => hasStatus(bra, set)).map((bra) => bra.status).sort());
    }
  });

  it('the statuses are literals of the statement, not parameters: =, <> or in (…)', () => {
    expect(approvedBraSql('b').compile(ctx.db)).toMatchObject({ sql: "b.status = 'approved'", parameters: [] });
    expect(braStatusSql(NOT_CANCELLED, 'x').compile(ctx.db)).toMatchObject({ sql: "x.status <> 'cancelled'", parameters: [] });
    expect(liveBraSql().compile(ctx.db)).toMatchObject({ sql: "b.status in ('draft', 'in_progress', 'under_review')", parameters: [] });
  });
});
