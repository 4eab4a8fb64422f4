import type { Transaction, Updateable } from 'kysely';
import { findOwnRow, lockOwnRow, updateOwnRow } from '../../../platform/db/own-rows.js';
import { countRows, newestFirst } from '../../../platform/db/page-queries.js';
import type { DB, Executor } from '../../../platform/db/schema.js';
import type { SsoConnectionsTable, SsoJitRole } from '../../../platform/db/tables/sso.js';

/** SQL of single sign-on: an enterprise's connections and domains, and the sign-ins under way. */

const CONNECTION_COLUMNS = [
  ...['id', 'enterprise_id', 'type', 'name', 'issuer', 'client_id', 'scopes', 'enforce_sso', 'jit_role'],
  ...['idp_entity_id', 'idp_sso_url', 'idp_certificates', 'created_by', 'created_at', 'updated_at', 'row_version'],
] as const;
const DOMAIN_COLUMNS = ['id', 'enterprise_id', 'domain', 'verification_token', 'verified_at', 'verified_by', 'created_by', 'created_at'] as const;

export async function insertConnection(
  trx: Transaction<DB>,
  enterpriseId: string,
  values: { name: string; scopes: string[]; enforce_sso: boolean; jit_role: SsoJitRole | null; created_by: string } & (
    | { type: 'oidc'; issuer: string; client_id: string; client_secret: string }
    | { type: 'saml'; idp_entity_id: string; idp_sso_url: string; idp_certificates: string[]; idp_metadata_xml: string }
  ),
) {
  return trx.insertInto('sso_connections').values({ ...values, enterprise_id: enterpriseId }).returning(CONNECTION_COLUMNS).executeTakeFirstOrThrow();
}

export async function listConnections(db: Executor, enterpriseId: string, limit: number, offset: number) {
  return newestFirst(db.selectFrom('sso_connections').select(CONNECTION_COLUMNS).where('enterprise_id', '=', enterpriseId), limit, offset).execute();
}

export async function countConnections(db: Executor, enterpriseId: string): Promise<number> {
  return countRows(db.selectFrom('sso_connections').where('enterprise_id', '=', enterpriseId));
}

export const findConnection = (db: Executor, enterpriseId: string, id: string) => findOwnRow(db, 'sso_connections', enterpriseId, id, CONNECTION_COLUMNS);
export const lockConnection = (trx: Transaction<DB>, enterpriseId: string, id: string) => lockOwnRow(trx, 'sso_connections', enterpriseId, id, CONNECTION_COLUMNS);
export type ConnectionRow = NonNullable<Awaited<ReturnType<typeof findConnection>>>;

export async function updateConnection(trx: Transaction<DB>, enterpriseId: string, id: string, changes: Updateable<SsoConnectionsTable>) {
  return updateOwnRow(trx, 'sso_connections', enterpriseId, id, { ...changes, updated_at: new Date() }, CONNECTION_COLUMNS);
}

export async function deleteConnection(trx: Transaction<DB>, enterpriseId: string, id: string): Promise<void> {
  await trx.deleteFrom('sso_connections').where('enterprise_id', '=', enterpriseId).where('id', '=', id).execute();
}

/**
 * The connection a sign-in goes through, with its secret: the one named (Supabase's provider_id), else the
 * enterprise's first. The id alone is the primary key's leading column.
 */
export async function connectionForSignIn(db: Executor, enterpriseId: string | null, id: string | null) {
  let query = db.selectFrom('sso_connections').select([...CONNECTION_COLUMNS, 'client_secret']);
  if (id !== null) query = query.where('id', '=', id);
  if (enterpriseId !== null) query = query.where('enterprise_id', '=', enterpriseId);
  return query.orderBy('created_at').orderBy('id').limit(1).executeTakeFirst();
}

export async function insertDomain(trx: Transaction<DB>, enterpriseId: string, values: { domain: string; verification_token: string; created_by: string }) {
  return trx.insertInto('sso_domains').values({ ...values, enterprise_id: enterpriseId }).returning(DOMAIN_COLUMNS).executeTakeFirstOrThrow();
}

export async function listDomains(db: Executor, enterpriseId: string, limit: number, offset: number) {
  return db.selectFrom('sso_domains').select(DOMAIN_COLUMNS).where('enterprise_id', '=', enterpriseId).orderBy('domain').orderBy('id').limit(limit).offset(offset).execute();
}

export async function countDomains(db: Executor, enterpriseId: string): Promise<number> {
  return countRows(db.selectFrom('sso_domains').where('enterprise_id', '=', enterpriseId));
}

export async function enterpriseExists(db: Executor, enterpriseId: string): Promise<boolean> {
  return (await db.selectFrom('enterprises').select('id').where('id', '=', enterpriseId).executeTakeFirst()) !== undefined;
}

export const lockDomain = (trx: Transaction<DB>, enterpriseId: string, id: string) => lockOwnRow(trx, 'sso_domains', enterpriseId, id, DOMAIN_COLUMNS);
export type DomainRow = NonNullable<Awaited<ReturnType<typeof lockDomain>>>;

/** A super admin's lookup, by the id alone (any enterprise), under its row lock. */
export async function lockDomainById(trx: Transaction<DB>, id: string) {
  return trx.selectFrom('sso_domains').select(DOMAIN_COLUMNS).where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function markDomainVerified(trx: Transaction<DB>, enterpriseId: string, id: string, by: string, at: Date) {
  return updateOwnRow(trx, 'sso_domains', enterpriseId, id, { verified_at: at, verified_by: by }, DOMAIN_COLUMNS);
}

export async function deleteDomain(trx: Transaction<DB>, enterpriseId: string, id: string): Promise<void> {
  await trx.deleteFrom('sso_domains').where('enterprise_id', '=', enterpriseId).where('id', '=', id).execute();
}

/** The enterprise a verified domain belongs to (one at most: sso_domains_verified_key). */
export async function enterpriseOfVerifiedDomain(db: Executor, domain: string): Promise<string | undefined> {
  const row = await db.selectFrom('sso_domains').select('enterprise_id').where('domain', '=', domain).where('verified_at', 'is not', null).executeTakeFirst();
  return row?.enterprise_id;
}

/**
 * Whether a password sign-in of this user is refused: an active member of an enterprise that has verified the
 * e-mail's domain and has a connection enforcing SSO.
 */
export async function passwordRefusedBySso(db: Executor, userId: string, emailDomain: string): Promise<boolean> {
  const row = await db
    .selectFrom('enterprise_members as m')
    .innerJoin('sso_domains as d', (join) => join.onRef('d.enterprise_id', '=', 'm.enterprise_id').on('d.domain', '=', emailDomain).on('d.verified_at', 'is not', null))
    .select('m.enterprise_id')
    .where('m.user_id', '=', userId)
    .where('m.active', '=', true)
    .where((eb) => eb.exists(eb.selectFrom('sso_connections as c').select('c.id').whereRef('c.enterprise_id', '=', 'm.enterprise_id').where('c.enforce_sso', '=', true)))
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertFlow(
  trx: Transaction<DB>,
  values: { state_hash: string; enterprise_id: string; connection_id: string; browser_hash: string; nonce: string; code_verifier: string | null; redirect_to: string; expires_at: Date },
): Promise<void> {
  // The enterprise's abandoned sign-ins go as a new one starts.
  await trx.deleteFrom('sso_flows').where('enterprise_id', '=', values.enterprise_id).where('expires_at', '<', new Date()).execute();
  await trx.insertInto('sso_flows').values(values).execute();
}

/** The sign-in a callback's state names, taken (deleted) so that it serves once. */
export async function takeFlow(db: Executor, stateHash: string) {
  return db.deleteFrom('sso_flows').where('state_hash', '=', stateHash).returningAll().executeTakeFirst();
}
