import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';

/**
 * The appetite rules, written once: which record applies to a place (D6.9) and what is above it (2.5). The
 * register, the dashboard, the health score, the crossings of an appetite change and the BRA answer embed
 * these fragments in their own statements, so each read stays one statement;
 * `test/architecture/appetite-rules.test.ts` fails on a copy of either rule anywhere else.
 */

/** Where an appetite applies, as SQL: an enterprise, a legal entity and a business unit (null for none). */
export interface AppetitePlace {
  enterpriseId: Expression<string>;
  legalEntityId: Expression<string | null>;
  businessUnitId: Expression<string | null>;
}

const NAME = /^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)?$/;
function column<T>(name: string): RawBuilder<T> {
  if (!NAME.test(name)) throw new Error(`Not a column: ${name}`);
  return sql.raw<T>(name);
}

/** The place of the BRA row `alias`: its own columns (in a statement over BRAs). */
export function braPlace(alias = 'b'): AppetitePlace {
  return {
    enterpriseId: column<string>(`${alias}.enterprise_id`),
    legalEntityId: column<string | null>(`${alias}.legal_entity_id`),
    businessUnitId: column<string | null>(`${alias}.business_unit_id`),
  };
}

/** A place given by its ids (parameters of the statement). */
export function placeOf(enterpriseId: string, legalEntityId: string | null, businessUnitId: string | null): AppetitePlace {
  return { enterpriseId: sql<string>`${enterpriseId}`, legalEntityId: sql<string | null>`${legalEntityId}`, businessUnitId: sql<string | null>`${businessUnitId}` };
}

/**
 * D6.9, the candidates: the records of risk appetite `ra` that may apply to the place, the enterprise default
 * (no entity, no unit), the entity's (no unit) and the unit's. Served by risk_appetites_scope_key.
 */
export function appetiteCandidates(place: AppetitePlace): RawBuilder<SqlBool> {
  return sql<SqlBool>`ra.enterprise_id = ${place.enterpriseId}
         and ((ra.legal_entity_id is null and ra.business_unit_id is null)
              or (ra.legal_entity_id = ${place.legalEntityId} and (ra.business_unit_id is null or ra.business_unit_id = ${place.businessUnitId})))`;
}

/** D6.9, the choice: the most specific candidate first (unit, then entity, then the default). */
export const MOST_SPECIFIC_FIRST = sql`(ra.business_unit_id is not null)::int + (ra.legal_entity_id is not null)::int desc`;

/**
 * The applicable appetite record of a place (D6.9), as a subquery of at most one row with the columns asked
 * of `ra` (risk_appetites). Embedded as a lateral join (`left join lateral ${…} ap on true`) or, with one
 * column, as a scalar subquery.
 */
export function applicableAppetite(place: AppetitePlace, columns: RawBuilder<unknown> = sql`ra.id, ra.threshold_value, ra.risk_level`): RawBuilder<unknown> {
  return sql`(select ${columns} from risk_appetites ra
       where ${appetiteCandidates(place)}
       order by ${MOST_SPECIFIC_FIRST}
       limit 1)`;
}

/** Above the appetite: a score strictly greater than the threshold; a score equal to it is within (2.5). */
export function exceedsAppetite(riskScore: number, thresholdValue: number): boolean {
  return riskScore > thresholdValue;
}

/** `exceedsAppetite` in SQL, over a score and a threshold (columns, or any expression); null when either is null. */
export function aboveAppetiteSql(score: string | Expression<unknown>, threshold: string | Expression<unknown>): RawBuilder<SqlBool> {
  const operand = (value: string | Expression<unknown>) => (typeof value === 'string' ? column<number | null>(value) : value);
  return sql<SqlBool>`${operand(score)} > ${operand(threshold)}`;
}
