import { describe, expect, it } from 'vitest';
import { archiveLegalEntity, findLegalEntityForUpdate, updateLegalEntity } from '../../src/modules/legal-entities/legal-entities.repository.js';
import type { Caller } from '../../src/platform/auth/principal.js';
import { archiveVersioned, updateVersioned, type VersionedArchive, type VersionedUpdate } from '../../src/platform/changes/versioned-change.js';
import { inTransaction } from '../../src/platform/db/transaction.js';
import { forbidden, invalidState } from '../../src/platform/errors/app-error.js';
import { NO_TERMS, type ChangeTerms } from '../../src/platform/versions/change-terms.js';
import { auditEntries, countAuditEntries } from '../support/audit.js';
import { createBraWorld, createRiskScenario } from '../support/bras-factories.js';
import { createBusinessUnit, createLegalEntity } from '../support/factories.js';
import { createServiceContext, ifMatchVersion, refusalOf } from '../support/services.js';

/**
 * The versioned change (platform/changes/versioned-change.ts), the one procedure every versioned record's
 * change follows: lock → 404 → policy → If-Match → state refusals → diff → write → version → audit, and an
 * archive always audited `delete` (interface 2.9). First the template itself, on legal entity rows in a
 * transaction; then the services built on it, as the routes call them.
 */
describe('the versioned change template, on a real database', async () => {
  const ctx = await createServiceContext();
  const w = await createBraWorld(ctx);
  const admin = await ctx.callerOf(w.admin, 'legal_entities.update');
  const enterpriseId = w.enterprise.id;
  type Entity = NonNullable<Awaited<ReturnType<typeof findLegalEntityForUpdate>>>;
  const versionOf = async (id: string) => (await ctx.db.selectFrom('legal_entities').select('row_version').where('id', '=', id).executeTakeFirstOrThrow()).row_version;
  const entriesOf = (id: string) => auditEntries(ctx, { entityId: id });

  /** A rename of legal entity `id` of the caller's enterprise through the template, with `overrides` of its steps. */
  const rename = (caller: Caller, id: string, name: string, terms: ChangeTerms, overrides: Partial<VersionedUpdate<Entity, { name: string }>> = {}) =>
    inTransaction(ctx.database.db, ({ trx }) =>
      updateVersioned<Entity, { name: string }>(trx, caller, terms, {
        noun: 'Legal entity',
        lock: () => findLegalEntityForUpdate(trx, caller.enterpriseId!, id),
        diff: (row) => (row.name === name ? null : { name }),
        write: (_row, diff) => updateLegalEntity(trx, caller.enterpriseId!, id, diff),
        audit: (before, _after, diff) => ({ entityType: 'legal_entity', entityId: id, details: { changes: diff, previous: { name: before.name } } }),
        ...overrides,
      }),
    );

  it('writes the change and its `update` entry in one transaction, the version moved by one; a failure after the write undoes both', async () => {
    const entity = await createLegalEntity(ctx, enterpriseId, 'Before Ltd');
    const version = await versionOf(entity.id);
    const outcome = await rename(admin, entity.id, 'After Ltd', NO_TERMS);
    expect(outcome).toMatchObject({ changed: true, row: { name: 'After Ltd', row_version: version + 1 } });
    expect((await entriesOf(entity.id)).map((e) => [e.action_type, e.action_details])).toEqual([
      ['update', { operation: 'legal_entities.update', changes: { name: 'After Ltd' }, previous: { name: 'Before Ltd' } }],
    ]);

    const failing = rename(admin, entity.id, 'Never Ltd', NO_TERMS, { after: () => Promise.reject(new Error('the event could not be written')) });
    await expect(failing).rejects.toThrow('the event could not be written');
    expect(await versionOf(entity.id)).toBe(version + 1);
    expect(await entriesOf(entity.id)).toHaveLength(1);
  });

  it('an input that changes nothing writes nothing and audits nothing', async () => {
    const entity = await createLegalEntity(ctx, enterpriseId, 'Same Ltd');
    const version = await versionOf(entity.id);
    expect(await rename(admin, entity.id, 'Same Ltd', ifMatchVersion(version))).toMatchObject({ changed: false, row: { row_version: version } });
    expect(await versionOf(entity.id)).toBe(version);
    expect(await entriesOf(entity.id)).toEqual([]);
  });

  it('answers in order: another enterprise 404 before the policy, the policy 403 before If-Match, If-Match 412 before the state refusal 409; each writes nothing', async () => {
    const entity = await createLegalEntity(ctx, enterpriseId);
    const elsewhere = await createLegalEntity(ctx, w.other.id);
    const version = await versionOf(entity.id);
    const stale = ifMatchVersion(version - 1);
    const refuseEverything = { authorize: () => { throw forbidden(); }, refuse: () => { throw invalidState('archived'); } };
    const refused = { refuse: refuseEverything.refuse };
    const before = await countAuditEntries(ctx, enterpriseId);

    expect(await refusalOf(rename(admin, elsewhere.id, 'Taken Ltd', stale, refuseEverything))).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    expect(await refusalOf(rename(admin, entity.id, 'Taken Ltd', stale, refuseEverything))).toMatchObject({ code: 'FORBIDDEN', status: 403 });
    expect(await refusalOf(rename(admin, entity.id, 'Taken Ltd', stale, refused))).toMatchObject({ code: 'PRECONDITION_FAILED', details: { current_etag: `"${version}"` } });
    expect(await refusalOf(rename(admin, entity.id, 'Taken Ltd', ifMatchVersion(version), refused))).toMatchObject({ code: 'INVALID_STATE', status: 409 });
    expect(await versionOf(entity.id)).toBe(version);
    expect(await countAuditEntries(ctx, enterpriseId)).toBe(before);
  });

  it('an archive is audited `delete`, one entry per record it takes; archiving again writes nothing, or is refused', async () => {
    const entity = await createLegalEntity(ctx, enterpriseId);
    const unit = await createBusinessUnit(ctx, enterpriseId, entity.id);
    const archive = (again: VersionedArchive<Entity>['again']) =>
      inTransaction(ctx.database.db, ({ trx }) => {
        let units: string[] = [];
        return archiveVersioned<Entity>(trx, admin, NO_TERMS, {
          noun: 'Legal entity',
          lock: () => findLegalEntityForUpdate(trx, enterpriseId, entity.id),
          isArchived: (row) => row.archived_at !== null,
          again,
          archive: async () => {
            const archived = await archiveLegalEntity(trx, enterpriseId, entity.id, admin.userId, new Date());
            units = archived.units;
            return archived.entity;
          },
          audit: () => [
            { entityType: 'legal_entity', entityId: entity.id, details: { change: 'archived' } },
            ...units.map((id) => ({ entityType: 'business_unit' as const, entityId: id, details: { with_legal_entity: true } })),
          ],
        });
      });
    const entries = async () => [...(await entriesOf(entity.id)), ...(await entriesOf(unit.id))].map((e) => [e.action_type, e.entity_type]);
    expect(await archive('unchanged')).toMatchObject({ changed: true });
    expect(await entries()).toEqual([
      ['delete', 'legal_entity'],
      ['delete', 'business_unit'],
    ]);
    expect(await archive('unchanged')).toMatchObject({ changed: false });
    expect(await refusalOf(archive({ refuse: 'archived already' }))).toMatchObject({ code: 'INVALID_STATE' });
    expect(await entries()).toHaveLength(2);
  });
});

describe('services on the versioned change: legal entities and risk scenarios', async () => {
  const ctx = await createServiceContext();
  const w = await createBraWorld(ctx);
  const organisation = ctx.services['legal-entities'];
  const enterpriseId = w.enterprise.id;
  const updater = await ctx.callerOf(w.admin, 'legal_entities.update');
  const archiver = await ctx.callerOf(w.admin, 'legal_entities.archive');

  it('an update with If-Match: 412 on a stale version, else the change, its version and its `update` entry; an archived entity 409', async () => {
    const entity = await createLegalEntity(ctx, enterpriseId, 'Harbour Ltd');
    const stale = await refusalOf(organisation.update(updater, entity.id, { name: 'Quay Ltd' }, ifMatchVersion(0)));
    expect(stale).toMatchObject({ code: 'PRECONDITION_FAILED' });
    const changed = await organisation.update(updater, entity.id, { name: 'Quay Ltd', description: '' }, ifMatchVersion(1));
    expect(changed).toMatchObject({ data: { name: 'Quay Ltd', description: null }, state: { version: 2 } });
    const [entry] = await auditEntries(ctx, { entityId: entity.id });
    expect(entry).toMatchObject({ action_type: 'update', user_id: w.admin.id, action_details: { operation: 'legal_entities.update', changes: { name: 'Quay Ltd' }, previous: { name: 'Harbour Ltd' } } });

    await organisation.archive(archiver, entity.id, ifMatchVersion(2));
    expect(await refusalOf(organisation.update(updater, entity.id, { name: 'Pier Ltd' }, ifMatchVersion(1)))).toMatchObject({ code: 'PRECONDITION_FAILED' });
    expect(await refusalOf(organisation.update(updater, entity.id, { name: 'Pier Ltd' }, ifMatchVersion(3)))).toMatchObject({ code: 'INVALID_STATE' });
  });

  it('archiving an entity audits `delete` for it and for each unit archived with it; again is refused (409) and writes nothing', async () => {
    const entity = await createLegalEntity(ctx, enterpriseId);
    const units = [await createBusinessUnit(ctx, enterpriseId, entity.id), await createBusinessUnit(ctx, enterpriseId, entity.id)];
    const archived = await organisation.archive(archiver, entity.id, NO_TERMS);
    expect(archived.data.archived_at).toBeInstanceOf(Date);
    for (const id of [entity.id, ...units.map((u) => u.id)]) {
      expect((await auditEntries(ctx, { entityId: id })).map((e) => e.action_type), id).toEqual(['delete']);
    }
    const before = await countAuditEntries(ctx, enterpriseId);
    expect(await refusalOf(organisation.archive(archiver, entity.id, NO_TERMS))).toMatchObject({ code: 'INVALID_STATE' });
    expect(await countAuditEntries(ctx, enterpriseId)).toBe(before);
  });

  it('archiving a catalogue scenario audits `delete` too', async () => {
    const scenario = await createRiskScenario(ctx, enterpriseId);
    await ctx.services['risk-scenarios'].archive(await ctx.callerOf(w.admin, 'risk_scenarios.archive'), scenario.id, NO_TERMS);
    expect(await auditEntries(ctx, { entityId: scenario.id })).toEqual([expect.objectContaining({ action_type: 'delete', entity_type: 'risk_scenario' })]);
  });
});
