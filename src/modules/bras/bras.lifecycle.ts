import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { BraStatus } from '../../platform/db/tables/bras.js';
import { invalidState } from '../../platform/errors/app-error.js';

/**
 * The BRA lifecycle (3.1, D6.7): its statuses, the moves between them, and the named sets the rules read.
 * The one place a status is written: every module asks these sets, and SQL embeds the fragments below in
 * its own statement (a read stays one statement). `test/architecture/status-literals.test.ts` fails on a
 * status literal anywhere else in `src/`.
 */

export type Statuses = readonly BraStatus[];

/**
 * The list of every status: the column's type (`platform/db/tables/bras.ts`, which the platform owns) and
 * the list are one set, so a status added to the type and not here fails the type check.
 */
function everyStatus<const T extends Statuses>(list: T & ([Exclude<BraStatus, T[number]>] extends [never] ? unknown : 'a status is missing')): T {
  return list;
}

/** Every status, in the order a BRA goes through them. */
export const BRA_STATUSES = everyStatus(['draft', 'in_progress', 'under_review', 'approved', 'cancelled']);

/** The status a BRA opens in (POST /bras, roll-forward; also the column's default). */
export const OPENING_STATUS = 'draft' satisfies BraStatus;

interface Move {
  from: Statuses;
  to: BraStatus;
  /** How a refusal names the move: "A BRA that is draft cannot be <done>". */
  done: string;
}

/**
 * The moves (3.1, D6.7): the statuses each may start from and the one it leads to. `start` has no endpoint:
 * a draft's first content change makes it. Nothing leaves `approved` or `cancelled`.
 */
export const BRA_MOVES = {
  start: { from: ['draft'], to: 'in_progress', done: 'started' },
  submit: { from: ['in_progress'], to: 'under_review', done: 'submitted for review' },
  return: { from: ['under_review'], to: 'in_progress', done: 'returned' },
  approve: { from: ['in_progress', 'under_review'], to: 'approved', done: 'approved' },
  cancel: { from: ['draft', 'in_progress', 'under_review'], to: 'cancelled', done: 'cancelled' },
} as const satisfies Record<string, Move>;

export type BraMove = keyof typeof BRA_MOVES;

/** Fields and content (scenarios, ratings, control links) may change (3.1 rule 1, 4.2). */
export const EDITABLE: Statuses = ['draft', 'in_progress'];

/** Review comments may be added (issue 35). */
export const COMMENTABLE: Statuses = ['in_progress', 'under_review'];

/**
 * Live: still being worked on, neither approved nor cancelled. Its figures follow today's appetite, the
 * register adds it on request (include_live), an appetite change announces its crossings, and archiving
 * its legal entity or business unit waits for it.
 */
export const LIVE: Statuses = ['draft', 'in_progress', 'under_review'];

/**
 * Approved: the record. Its answer and report are what was approved, the register, the dashboard and the
 * trend read it, and a roll-forward starts from it.
 */
export const APPROVED: Statuses = ['approved'];

/**
 * A scenario above appetite may be formally accepted (issue 48): while the assessment is under way and on
 * the approved record; not on a draft (nothing is assessed yet) nor a cancelled one.
 */
export const ACCEPTABLE: Statuses = ['in_progress', 'under_review', 'approved'];

/** Every BRA but a cancelled one: what an enterprise's BRA count and its health score count. */
export const NOT_CANCELLED: Statuses = ['draft', 'in_progress', 'under_review', 'approved'];

export function hasStatus(bra: { status: BraStatus }, set: Statuses): boolean {
  return set.includes(bra.status);
}

/** Whether a move may start from the BRA's status (the abilities a read shows; requireMove refuses the rest). */
export function canMove(bra: { status: BraStatus }, move: BraMove): boolean {
  return hasStatus(bra, BRA_MOVES[move].from);
}

/** A move's refusal when the BRA is not in a status it starts from: 409 INVALID_STATE. */
export function requireMove(bra: { status: BraStatus }, move: BraMove): void {
  const { from, done } = BRA_MOVES[move];
  if (!canMove(bra, move)) throw invalidState(`A BRA that is ${bra.status} cannot be ${done}; it must be ${from.join(' or ')}`);
}

const ALIAS = /^[a-z_][a-z0-9_]*$/;

/**
 * `<alias>.status` in a set, as SQL with the statuses as literals (a partial index on a status, such as
 * bras_approved_place_idx, then matches whatever the plan). One status is written `=`, every status but one
 * `<>`, others `in (…)`.
 */
export function braStatusSql(set: Statuses, alias = 'b'): RawBuilder<SqlBool> {
  if (!ALIAS.test(alias)) throw new Error(`Not a table alias: ${alias}`);
  const column = sql.raw(`${alias}.status`);
  const others = BRA_STATUSES.filter((status) => !set.includes(status));
  if (set.length === 1) return sql<SqlBool>`${column} = ${sql.lit(set[0])}`;
  if (others.length === 1) return sql<SqlBool>`${column} <> ${sql.lit(others[0])}`;
  return sql<SqlBool>`${column} in (${sql.join(set.map((status) => sql.lit(status)))})`;
}

/** The BRA `alias` is live (LIVE), as SQL. */
export const liveBraSql = (alias = 'b') => braStatusSql(LIVE, alias);

/** The BRA `alias` is approved (APPROVED), as SQL. */
export const approvedBraSql = (alias = 'b') => braStatusSql(APPROVED, alias);
