import { sql, type SqlBool } from 'kysely';
import type { Executor } from '../../../platform/db/schema.js';
import type { BraCommentVerdict } from '../../../platform/db/tables/bras.js';

/**
 * What the get-BRA answer reads besides its detail and people (SQL only): the appetite threshold its approval
 * pinned, and the digest of its review comments. One statement each.
 */

/** The appetite threshold an approval snapshot pinned (its methodology's); null when it pinned none. */
export async function pinnedThreshold(db: Executor, enterpriseId: string, braId: string, snapshotId: string): Promise<number | null> {
  const row = await db
    .selectFrom('bra_snapshots')
    .select(sql<number | null>`(methodology -> 'appetite' ->> 'threshold_value')::integer`.as('threshold'))
    .where('enterprise_id', '=', enterpriseId)
    .where('bra_id', '=', braId)
    .where('id', '=', snapshotId)
    .executeTakeFirst();
  return row?.threshold ?? null;
}

export interface CommentDigest {
  count: number;
  /** The latest verdict of each author who gave one, newest first. */
  verdicts: { comment_id: string; author_id: string; full_name: string; verdict: BraCommentVerdict; created_at: Date }[];
}

/**
 * What the get-BRA shows of a BRA's comments, in one statement: how many there are, and the latest verdict
 * of each author who gave one (bra_comments_verdicts_idx) with the author's name.
 */
export async function commentDigest(db: Executor, enterpriseId: string, braId: string): Promise<CommentDigest> {
  const { rows } = await sql<{ total: string | number; comment_id: string | null; author_id: string | null; full_name: string | null; verdict: BraCommentVerdict | null; created_at: Date | null }>`
    select t.total, v.id as comment_id, v.author_id, u.full_name, v.verdict, v.created_at
    from (select count(*) as total from bra_comments where enterprise_id = ${enterpriseId} and bra_id = ${braId}) t
    left join lateral (
      select distinct on (c.author_id) c.id, c.author_id, c.verdict, c.created_at
      from bra_comments c
      where c.enterprise_id = ${enterpriseId} and c.bra_id = ${braId} and c.verdict is not null
      order by c.author_id, c.created_at desc, c.id desc
    ) v on true
    left join users u on u.id = v.author_id
    order by v.created_at desc nulls last, v.id desc`.execute(db);
  return {
    count: Number(rows[0]?.total ?? 0),
    verdicts: rows
      .filter((row) => row.comment_id !== null)
      .map((row) => ({ comment_id: row.comment_id!, author_id: row.author_id!, full_name: row.full_name ?? '', verdict: row.verdict!, created_at: row.created_at! })),
  };
}

/** A status change of a BRA as its audit entry recorded it (who, when, the move, and the details it carried). */
export interface StatusMoveRow {
  user_id: string | null;
  user_name: string | null;
  created_at: Date;
  action_details: Record<string, unknown>;
}

/**
 * The BRA's status changes, oldest first: the audit entries on the BRA whose details carry a `status` move
 * (create has none; start, submit, return, approve and cancel do). The trail is where a move's who and why
 * are kept (D10.3); one statement through audit_log_entity_idx. A read of the platform's table.
 */
export async function statusMoveRows(db: Executor, enterpriseId: string, braId: string): Promise<StatusMoveRow[]> {
  return db
    .selectFrom('audit_log')
    .select(['user_id', 'user_name', 'created_at', 'action_details'])
    .where('enterprise_id', '=', enterpriseId)
    .where('entity_type', '=', 'bra')
    .where('entity_id', '=', braId)
    .where('status', '=', 'success')
    .where(sql<SqlBool>`action_details ? 'status'`)
    .orderBy('chain_seq')
    .execute();
}
