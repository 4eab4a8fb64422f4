import { createHash, randomUUID } from 'node:crypto';
import { takeSnapshot } from '../../src/modules/bras/history/snapshots.service.js';
import type { TestContext } from '../support/app.js';
import { insertAction } from '../support/actions-factories.js';
import { addScenarioLink, createAppetite, createBra, createRiskScenario, rateBoth, createSubControl } from '../support/bras-factories.js';
import { assignEntity, createEnterprise, createLegalEntity, createUser, tokenFor, type TestUser } from '../support/factories.js';

/** Written into every name of the other enterprise's records, and of the unassigned entity's: a body holding it leaked. */
export const FOREIGN_MARK = 'ZZFOREIGN';
export const UNASSIGNED_MARK = 'ZZUNASSIGNED';

/** Ids by the names routes give them, in parameters (`bra_id`) and in bodies (`legal_entity_id`). */
export type IdsByName = Record<string, string>;

/** A snapshot as the service takes it (its content is the BRA's detail at that moment). */
async function snapshotOf(ctx: TestContext, bra: { id: string; enterprise_id: string }, takenBy: string) {
  const id = randomUUID();
  await ctx.db.transaction().execute((trx) => takeSnapshot(trx, { enterpriseId: bra.enterprise_id, braId: bra.id, takenBy }, 'created', id));
  return { id };
}

async function alertOf(ctx: TestContext, enterpriseId: string) {
  const cause = `matrix-${randomUUID()}`;
  return ctx.db
    .insertInto('system_alerts')
    .values({ type: 'system', severity: 'warning', title: 'Matrix', message: 'Matrix', enterprise_id: enterpriseId, cause, cause_key: createHash('sha256').update(cause).digest('hex') })
    .returning('id')
    .executeTakeFirstOrThrow();
}

/** A file attached to a BRA, as an upload leaves it (its content in the database store). */
async function evidenceOf(ctx: TestContext, enterpriseId: string, braId: string, name: string) {
  const key = randomUUID();
  const content = Buffer.from('%PDF-1.7\n%%EOF\n');
  await ctx.db.insertInto('evidence_blobs').values({ enterprise_id: enterpriseId, blob_key: key, seq: 0, data: content }).execute();
  return ctx.db
    .insertInto('evidence_files')
    .values({
      enterprise_id: enterpriseId,
      record_type: 'bra',
      record_id: braId,
      name,
      media_type: 'application/pdf',
      size_bytes: content.length,
      sha256: createHash('sha256').update(content).digest('hex'),
      storage: 'postgres',
      storage_key: key,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

/** A legal entity with an assessment and everything that hangs off it, every name carrying `mark`. */
async function assessedEntity(ctx: TestContext, enterpriseId: string, mark: string, createdBy: string) {
  const entity = await createLegalEntity(ctx, enterpriseId, `${mark} entity ${randomUUID().slice(0, 6)}`);
  const bra = await createBra(ctx, { enterpriseId, legalEntityId: entity.id, name: `${mark} BRA ${randomUUID().slice(0, 6)}`, createdBy, status: 'in_progress' });
  const link = await addScenarioLink(ctx, bra);
  await rateBoth(ctx, link, [3, 3], [2, 2]);
  const snapshot = await snapshotOf(ctx, bra, createdBy);
  const action = await insertAction(ctx, { enterpriseId, braId: bra.id, linkId: link.id, action: `${mark} action`, createdBy });
  const appetite = await createAppetite(ctx, enterpriseId, { threshold: 7, legalEntityId: entity.id });
  const evidence = await evidenceOf(ctx, enterpriseId, bra.id, `${mark} evidence.pdf`);
  const acceptance = await ctx.db
    .insertInto('risk_acceptances')
    .values({
      enterprise_id: enterpriseId,
      bra_id: bra.id,
      bra_risk_scenario_id: link.id,
      rationale: `${mark} acceptance`,
      conditions: null,
      mitigation_action_id: null,
      expires_on: '2099-12-31',
      accepted_residual_score: 4,
      accepted_threshold: 3,
      accepted_by: createdBy,
      renews_id: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { entity, bra, link, snapshot, action, appetite, evidence, acceptance };
}

/**
 * Enterprise A (the callers': a client admin, an assessor and a reviewer assigned to entity E1, a super
 * admin) with an entity E2 none of them is assigned to; enterprise B, the other tenant, with the same.
 */
export async function createMatrixWorld(ctx: TestContext) {
  const a = await createEnterprise(ctx);
  const b = await createEnterprise(ctx, { name: `${FOREIGN_MARK} enterprise ${randomUUID().slice(0, 6)}` });
  const member = (role: TestUser['role'], enterpriseId: string) =>
    createUser(ctx, { role, enterpriseId, ...(enterpriseId === b.id ? { fullName: `${FOREIGN_MARK} user ${randomUUID().slice(0, 6)}` } : {}) });
  const [admin, assessor, reviewer, superAdmin] = await Promise.all([
    member('admin', a.id),
    member('assessor', a.id),
    member('reviewer', a.id),
    createUser(ctx, { role: 'super_admin' }),
  ]);
  const e1 = await createLegalEntity(ctx, a.id);
  const assessorRole = await assignEntity(ctx, assessor, e1.id);
  await assignEntity(ctx, reviewer, e1.id);
  const unassigned = await assessedEntity(ctx, a.id, UNASSIGNED_MARK, assessor.id);
  const ownControls = await createSubControl(ctx, a.id);
  const ownAlert = await alertOf(ctx, a.id);

  const [otherAdmin, otherAssessor] = await Promise.all([member('admin', b.id), member('assessor', b.id)]);
  const foreign = await assessedEntity(ctx, b.id, FOREIGN_MARK, otherAssessor.id);
  const foreignRole = await assignEntity(ctx, otherAssessor, foreign.entity.id);
  const foreignControls = await createSubControl(ctx, b.id);
  await ctx.db.updateTable('key_controls').set({ name: `${FOREIGN_MARK} key control` }).where('id', '=', foreignControls.keyControl.id).execute();
  const foreignScenario = await createRiskScenario(ctx, b.id);
  const foreignAlert = await alertOf(ctx, b.id);
  const foreignConnection = await ctx.db
    .insertInto('sso_connections')
    .values({ enterprise_id: b.id, type: 'oidc', name: `${FOREIGN_MARK} IdP`, issuer: 'https://idp.foreign.example', client_id: 'foreign-client', client_secret: 'foreign-secret', jit_role: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  const foreignDomain = await ctx.db.insertInto('sso_domains').values({ enterprise_id: b.id, domain: 'foreign.example', verification_token: 'foreign-token' }).returning('id').executeTakeFirstOrThrow();

  const side = (place: Awaited<ReturnType<typeof assessedEntity>>) => ({
    id: place.entity.id,
    legal_entity_id: place.entity.id,
    bra_id: place.bra.id,
    link_id: place.link.id,
    bra_risk_scenario_id: place.link.id,
    snapshot_id: place.snapshot.id,
    action_id: place.action.id,
    risk_appetite_id: place.appetite.id,
    evidence_id: place.evidence.id,
    acceptance_id: place.acceptance.id,
    scenario_id: place.link.id,
    // The record an evidence list or upload names (its record_type samples as `bra`, the enum's first).
    record_id: place.bra.id,
  });
  /** Target "foreign": every id is enterprise B's. */
  const foreignIds: IdsByName = {
    ...side(foreign),
    key_control_id: foreignControls.keyControl.id,
    sub_control_id: foreignControls.subControl.id,
    risk_scenario_id: foreignScenario.id,
    enterprise_id: b.id,
    user_id: otherAssessor.id,
    // An action assigned to another enterprise's member (a body), or listed by one (a filter).
    owner_user_id: otherAssessor.id,
    role_id: foreignRole.id,
    alert_id: foreignAlert.id,
    connection_id: foreignConnection.id,
    domain_id: foreignDomain.id,
  };
  /** Target "unassigned": the ids of entity E2 of the callers' own enterprise; the rest their own. */
  const unassignedIds: IdsByName = {
    ...side(unassigned),
    key_control_id: ownControls.keyControl.id,
    sub_control_id: ownControls.subControl.id,
    enterprise_id: a.id,
    user_id: assessor.id,
    // A member assigned to E1 only: an action of E2's BRA may not be given to them.
    owner_user_id: assessor.id,
    role_id: assessorRole.id,
    alert_id: ownAlert.id,
  };
  const callers = { super_admin: superAdmin, admin, assessor, reviewer } as const;
  const tokens = Object.fromEntries(
    await Promise.all(Object.entries(callers).map(async ([role, user]) => [role, await tokenFor(ctx, user)] as const)),
  ) as Record<keyof typeof callers, string>;
  return {
    callers,
    tokens,
    foreignIds,
    unassignedIds,
    /** What no caller of A may see: B's marks and ids (super admins excepted on /admin routes). */
    foreignLeaks: [FOREIGN_MARK, ...Object.values(foreignIds)],
    /** B's names only, for answers that may quote the ids a caller asked for (the audit trail). */
    foreignNames: [FOREIGN_MARK],
    /** What an assessor or reviewer of E1 may not see where D5 says "assigned". */
    unassignedLeaks: [UNASSIGNED_MARK, unassigned.entity.id, unassigned.bra.id, unassigned.action.id, unassigned.appetite.id, unassigned.evidence.id, unassigned.acceptance.id],
    otherAdmin,
  };
}

export type MatrixWorld = Awaited<ReturnType<typeof createMatrixWorld>>;
