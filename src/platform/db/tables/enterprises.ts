import type { ColumnType, Generated } from 'kysely';

export type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
export type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;

export interface EnterprisesTable {
  id: Generated<string>;
  name: string;
  country: string;
  registration_number: string | null;
  status: Generated<'active' | 'inactive'>;
  subscription_tier: Generated<'starter' | 'professional' | 'enterprise'>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface EnterprisesTables {
  enterprises: EnterprisesTable;
}
