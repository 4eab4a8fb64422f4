import type { ColumnType, Generated } from 'kysely';

export type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
export type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;

/** The columns of a record changed with If-Match and archived by someone (a legal entity, a unit, a scenario). */
export interface ArchivedByColumns {
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  archived_at: Date | null;
  archived_by: string | null;
  /** One more at every change of the row (a trigger): the ETag's version. */
  row_version: Generated<number>;
}

export interface EnterprisesTable {
  id: Generated<string>;
  name: string;
  country: string;
  registration_number: string | null;
  status: Generated<'active' | 'inactive'>;
  subscription_tier: Generated<'starter' | 'professional' | 'enterprise'>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  /** One more at every change of the row (a trigger; for a BRA also of its scenarios, ratings and control links): the ETag's version. */
  row_version: Generated<number>;
}

export interface EnterprisesTables {
  enterprises: EnterprisesTable;
}
