import { sql } from 'kysely';
import type { Executor } from '../../platform/db/schema.js';

/** The names a report prints beside its snapshot: the enterprise's, and the approver's (read-only joins). */
export async function reportNames(db: Executor, enterpriseId: string, approverId: string | null) {
  const { rows } = await sql<{ enterprise_name: string; approver_name: string | null }>`
    select e.name as enterprise_name, u.full_name as approver_name
      from enterprises e
      left join users u on u.id = ${approverId}
     where e.id = ${enterpriseId}`.execute(db);
  const row = rows[0];
  if (row === undefined) throw new Error(`Enterprise ${enterpriseId} vanished while its report was built`);
  return row;
}
