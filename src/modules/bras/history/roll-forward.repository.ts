import { sql } from 'kysely';
import type { Executor } from '../../../platform/db/schema.js';
import { currentRatingJoin } from '../current-rating.js';

/**
 * The copies a roll-forward makes (SQL only): one INSERT … SELECT for the scenario links, one for the control
 * links, whatever their number. Ratings are not copied; each new link carries the old one's current residual
 * rating as its previous_residual_* reference.
 */

export async function copyScenarioLinks(db: Executor, enterpriseId: string, from: { braId: string }, to: { braId: string; createdBy: string }) {
  return db
    .insertInto('bra_risk_scenarios')
    .columns([
      'enterprise_id',
      'bra_id',
      'risk_scenario_id',
      'included',
      'created_by',
      'previous_residual_impact',
      'previous_residual_likelihood',
      'previous_residual_score',
      'previous_residual_level',
    ])
    .expression((eb) =>
      eb
        .selectFrom('bra_risk_scenarios as l')
        .leftJoin('bra_ratings as r', (join) => join.on(currentRatingJoin('r', 'residual')))
        .select([
          'l.enterprise_id',
          sql.lit(to.braId).as('bra_id'),
          'l.risk_scenario_id',
          'l.included',
          sql.lit(to.createdBy).as('created_by'),
          'r.impact_score',
          'r.likelihood_score',
          'r.risk_score',
          'r.risk_level',
        ])
        .where('l.enterprise_id', '=', enterpriseId)
        .where('l.bra_id', '=', from.braId)
        .orderBy('l.created_at')
        .orderBy('l.id'),
    )
    .returning(['id', 'risk_scenario_id', 'included'])
    .execute();
}

/** Control links, each to the new link of the same catalogue scenario (BRA-wide ones stay BRA-wide). */
export async function copyControlLinks(db: Executor, enterpriseId: string, from: { braId: string }, to: { braId: string; createdBy: string }) {
  return db
    .insertInto('bra_controls')
    .columns(['enterprise_id', 'bra_id', 'sub_control_id', 'bra_risk_scenario_id', 'created_by'])
    .expression((eb) =>
      eb
        .selectFrom('bra_controls as c')
        .leftJoin('bra_risk_scenarios as old', (join) => join.onRef('old.enterprise_id', '=', 'c.enterprise_id').onRef('old.id', '=', 'c.bra_risk_scenario_id'))
        .leftJoin('bra_risk_scenarios as new', (join) =>
          join
            .onRef('new.enterprise_id', '=', 'c.enterprise_id')
            .on('new.bra_id', '=', to.braId)
            .onRef('new.risk_scenario_id', '=', 'old.risk_scenario_id'),
        )
        .select(['c.enterprise_id', sql.lit(to.braId).as('bra_id'), 'c.sub_control_id', 'new.id', sql.lit(to.createdBy).as('created_by')])
        .where('c.enterprise_id', '=', enterpriseId)
        .where('c.bra_id', '=', from.braId)
        .orderBy('c.created_at')
        .orderBy('c.id'),
    )
    .returning(['id', 'sub_control_id', 'bra_risk_scenario_id'])
    .execute();
}

/** The old BRA's mitigation actions not completed and not archived (a read of the actions module's table), oldest due first. */
export async function listOpenActions(db: Executor, enterpriseId: string, braId: string) {
  return db
    .selectFrom('mitigation_actions as a')
    .leftJoin('bra_risk_scenarios as l', (join) => join.onRef('l.enterprise_id', '=', 'a.enterprise_id').onRef('l.id', '=', 'a.bra_risk_scenario_id'))
    .select(['a.id', 'a.action', 'a.owner', 'a.status', 'a.priority', 'a.action_type', 'a.due_date', 'a.bra_risk_scenario_id', 'l.risk_scenario_id'])
    .where('a.enterprise_id', '=', enterpriseId)
    .where('a.bra_id', '=', braId)
    .where('a.archived', '=', false)
    .where('a.status', '<>', 'completed')
    .orderBy('a.due_date')
    .orderBy('a.id')
    .execute();
}
