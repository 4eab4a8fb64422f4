import { sql, type Expression, type SqlBool } from 'kysely';
import type { Executor } from '../../../platform/db/schema.js';
import type { TestOfDesign, TestOfEffectiveness } from '../../../platform/db/tables/controls.js';

/**
 * Which sub-controls the counts cover. With a legal entity (and unit), only those linked to BRAs of it
 * (D7.1); `bras` further narrows the BRAs to the caller's assignments (a SQL predicate over `b.*`).
 */
export interface CountScope {
  legalEntityId?: string | undefined;
  businessUnitId?: string | undefined;
  /** Only the sub-controls linked to this BRA. */
  braId?: string | undefined;
  bras: Expression<SqlBool>;
  includeArchived: boolean;
}

/**
 * The sub-controls in scope, as a query over `sub_controls as sc`: both counts and the drill-down list
 * (library/sub-controls.repository.ts) are built on it, so a count and the list behind it always agree.
 */
export function subControlsInScope(db: Executor, enterpriseId: string, scope: CountScope) {
  let query = db.selectFrom('sub_controls as sc').where('sc.enterprise_id', '=', enterpriseId);
  if (!scope.includeArchived) query = query.where('sc.archived', '=', false);
  if (scope.legalEntityId === undefined && scope.businessUnitId === undefined && scope.braId === undefined) return query;
  // A semi-join: a sub-control linked to several BRAs of the entity counts once.
  return query.where((eb) =>
    eb.exists(
      eb
        .selectFrom('bra_controls as bc')
        .innerJoin('bras as b', (join) => join.onRef('b.enterprise_id', '=', 'bc.enterprise_id').onRef('b.id', '=', 'bc.bra_id'))
        .select(sql`1`.as('one'))
        .where('bc.enterprise_id', '=', enterpriseId)
        .whereRef('bc.sub_control_id', '=', 'sc.id')
        .$if(scope.legalEntityId !== undefined, (q) => q.where('b.legal_entity_id', '=', scope.legalEntityId!))
        .$if(scope.businessUnitId !== undefined, (q) => q.where('b.business_unit_id', '=', scope.businessUnitId!))
        .$if(scope.braId !== undefined, (q) => q.where('bc.bra_id', '=', scope.braId!))
        .where(scope.bras),
    ),
  );
}

export interface EffectivenessCounts {
  highly_effective: number;
  effective: number;
  moderately_effective: number;
  less_effective: number;
  not_effective: number;
  not_assessed: number;
  total: number;
}

/** One aggregate row: the database counts, no sub-control row leaves it. */
export async function countByEffectiveness(db: Executor, enterpriseId: string, scope: CountScope): Promise<EffectivenessCounts> {
  const label = (value: string) => sql<number>`count(*) filter (where sc.total_effectiveness = ${value})`;
  const row = await subControlsInScope(db, enterpriseId, scope)
    .select([
      label('Highly Effective').as('highly_effective'),
      label('Effective').as('effective'),
      label('Moderately Effective').as('moderately_effective'),
      label('Less Effective').as('less_effective'),
      label('Not Effective').as('not_effective'),
      sql<number>`count(*) filter (where sc.total_effectiveness is null)`.as('not_assessed'),
      sql<number>`count(*)`.as('total'),
    ])
    .executeTakeFirstOrThrow();
  return {
    highly_effective: Number(row.highly_effective),
    effective: Number(row.effective),
    moderately_effective: Number(row.moderately_effective),
    less_effective: Number(row.less_effective),
    not_effective: Number(row.not_effective),
    not_assessed: Number(row.not_assessed),
    total: Number(row.total),
  };
}

/** At most 25 grouped rows: the assessed sub-controls in scope counted per ToD and ToE. */
export async function countByTodAndToe(
  db: Executor,
  enterpriseId: string,
  scope: CountScope,
): Promise<Array<{ tod: TestOfDesign; toe: TestOfEffectiveness; count: number }>> {
  const rows = await subControlsInScope(db, enterpriseId, scope)
    .where('sc.tod', 'is not', null)
    .where('sc.toe', 'is not', null)
    .select(['sc.tod', 'sc.toe', sql<number>`count(*)`.as('count')])
    .groupBy(['sc.tod', 'sc.toe'])
    .execute();
  return rows.map((row) => ({ tod: row.tod!, toe: row.toe!, count: Number(row.count) }));
}
