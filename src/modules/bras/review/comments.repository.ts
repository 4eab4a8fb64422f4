import { countRows } from '../../../platform/db/page-queries.js';
import type { Executor } from '../../../platform/db/schema.js';
import type { BraCommentVerdict } from '../../../platform/db/tables/bras.js';

/**
 * Review comments of a BRA (SQL only). Rows are only ever inserted (triggers refuse UPDATE, DELETE and
 * TRUNCATE). Every read names the enterprise and the BRA, served by bra_comments_bra_idx and
 * bra_comments_verdicts_idx; the author's name comes in the same statement (a join).
 */

export async function insertComment(
  db: Executor,
  enterpriseId: string,
  values: { bra_id: string; bra_risk_scenario_id: string | null; author_id: string; body: string; verdict: BraCommentVerdict | null },
) {
  return db.insertInto('bra_comments').values({ enterprise_id: enterpriseId, ...values }).returning('id').executeTakeFirstOrThrow();
}

function commentsOf(db: Executor, enterpriseId: string, braId: string) {
  return db.selectFrom('bra_comments as c').where('c.enterprise_id', '=', enterpriseId).where('c.bra_id', '=', braId);
}

export async function countComments(db: Executor, enterpriseId: string, braId: string): Promise<number> {
  return countRows(commentsOf(db, enterpriseId, braId));
}

/** A page of comments, oldest first, each with its author's name; or one comment by id. */
export async function listComments(db: Executor, enterpriseId: string, braId: string, page: { limit: number; offset: number } | { id: string }) {
  let query = commentsOf(db, enterpriseId, braId)
    .innerJoin('users as u', 'u.id', 'c.author_id')
    .select([
      'c.id',
      'c.bra_id',
      'c.bra_risk_scenario_id as scenario_id',
      'c.body',
      'c.verdict',
      'c.author_id',
      'u.full_name as author_name',
      'c.created_at',
    ])
    .orderBy('c.created_at')
    .orderBy('c.id');
  query = 'id' in page ? query.where('c.id', '=', page.id) : query.limit(page.limit).offset(page.offset);
  return query.execute();
}
export type CommentRow = Awaited<ReturnType<typeof listComments>>[number];
