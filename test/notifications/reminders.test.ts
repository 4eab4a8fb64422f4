import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { runReminderRound } from '../../src/modules/notifications/reminders.js';
import { openDatabase } from '../../src/platform/db/engine.js';
import type { NotificationKind } from '../../src/platform/db/tables/notifications.js';
import { insertAction, utcDate } from '../support/actions-factories.js';
import { createTestContext } from '../support/app.js';
import { addScenarioLink, createBra, createSubControl } from '../support/bras-factories.js';
import { cast } from '../support/cast.js';
import { createUser, type TestUser } from '../support/factories.js';

const SETTINGS = { dueSoonDays: 7, acceptanceDays: 14 };

/**
 * Reminders and the assignment of actions (issue 49). An action is assigned only to an active member who may
 * read it, and they are told, unless they assigned it themself. Each reminder of the round reaches exactly
 * the people its record's policy names (the member an open action is assigned to; those who record tests;
 * those who renew risk acceptances), never a deactivated member, another entity's or another tenant's; and
 * it is written once per recipient, record and date however often and on however many instances the round runs.
 */
describe('reminders and assigned actions', async () => {
  const ctx = await createTestContext();
  const w = await cast(ctx);
  const { call } = w;
  const bra = await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: w.entity.id, createdBy: w.assessor.id, status: 'in_progress' });
  const otherBra = await createBra(ctx, { enterpriseId: w.other.id, legalEntityId: w.otherEntity.id, status: 'in_progress' });
  const gone = await createUser(ctx, { role: 'admin', enterpriseId: w.enterprise.id });
  await ctx.db.updateTable('enterprise_members').set({ active: false, deactivated_at: new Date() }).where('user_id', '=', gone.id).execute();

  /** The notifications of a kind about one record, as (recipient, period) pairs, sorted. */
  async function told(kind: NotificationKind, subject: { mitigation_action_id?: string; sub_control_id?: string; risk_acceptance_id?: string }) {
    let query = ctx.db.selectFrom('notifications').select(['user_id', 'period', 'title', 'actor_id']).where('kind', '=', kind);
    if (subject.mitigation_action_id !== undefined) query = query.where('mitigation_action_id', '=', subject.mitigation_action_id);
    if (subject.sub_control_id !== undefined) query = query.where('sub_control_id', '=', subject.sub_control_id);
    if (subject.risk_acceptance_id !== undefined) query = query.where('risk_acceptance_id', '=', subject.risk_acceptance_id);
    return (await query.execute()).sort((a, b) => `${a.user_id}${a.period}`.localeCompare(`${b.user_id}${b.period}`));
  }
  const ids = (users: TestUser[]) => users.map((user) => user.id).sort();
  const recipients = async (kind: NotificationKind, subject: Parameters<typeof told>[1]) => (await told(kind, subject)).map((row) => row.user_id).sort();
  const countAll = async () => Number((await ctx.db.selectFrom('notifications').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  const newAction = (who: TestUser, extra: Record<string, unknown> = {}) =>
    call(who, 'POST', '/mitigation-actions', { action: 'Rotate the card vault keys', owner: 'Security', priority: 'high', action_type: 'Technology', due_date: utcDate(20), bra_id: bra.id, ...extra });

  describe('action_assigned', () => {
    it('creating an action for a member answers owner_user, audits it and tells them, in the same change', async () => {
      const created = await newAction(w.admin, { owner_user_id: w.assessor.id });
      expect(created.statusCode, created.body).toBe(201);
      const action = created.json().data;
      expect(action).toMatchObject({ owner: 'Security', owner_user_id: w.assessor.id, owner_user: { id: w.assessor.id, full_name: w.assessor.fullName } });
      expect(await told('action_assigned', { mitigation_action_id: action.id })).toEqual([
        { user_id: w.assessor.id, period: null, title: `${w.admin.fullName} assigned you an action due on ${utcDate(20)}: Rotate the card vault keys`, actor_id: w.admin.id },
      ]);
      const entry = await ctx.db.selectFrom('audit_log').select('action_details').where('entity_id', '=', action.id).where('action_type', '=', 'create').executeTakeFirstOrThrow();
      expect(entry.action_details).toMatchObject({ owner_user_id: w.assessor.id });
    });

    it('changing the member tells the new one; the same member again, or clearing, tells nobody', async () => {
      const action = (await newAction(w.admin, { owner_user_id: w.assessor.id })).json().data;
      const changed = await call(w.admin, 'PATCH', `/mitigation-actions/${action.id}`, { owner_user_id: w.reviewer.id });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json().data).toMatchObject({ owner_user_id: w.reviewer.id });
      expect(await recipients('action_assigned', { mitigation_action_id: action.id })).toEqual(ids([w.assessor, w.reviewer]));
      const entry = await ctx.db.selectFrom('audit_log').select('action_details').where('entity_id', '=', action.id).where('action_type', '=', 'update').executeTakeFirstOrThrow();
      expect(entry.action_details).toMatchObject({ changes: { owner_user_id: { from: w.assessor.id, to: w.reviewer.id } } });

      expect((await call(w.admin, 'PATCH', `/mitigation-actions/${action.id}`, { owner_user_id: w.reviewer.id })).statusCode).toBe(200);
      const cleared = await call(w.admin, 'PATCH', `/mitigation-actions/${action.id}`, { owner_user_id: null });
      expect(cleared.statusCode, cleared.body).toBe(200);
      expect(await recipients('action_assigned', { mitigation_action_id: action.id })).toEqual(ids([w.assessor, w.reviewer]));
      const list = (await call(w.admin, 'GET', `/mitigation-actions?bra_id=${bra.id}&page_size=100`)).json().data as { id: string; owner_user: unknown }[];
      expect(list.find((row) => row.id === action.id)).toMatchObject({ owner_user_id: null, owner_user: null });
    });

    it('assigning an action to oneself tells nobody', async () => {
      const action = (await newAction(w.assessor, { owner_user_id: w.assessor.id })).json().data;
      expect(action.owner_user_id).toBe(w.assessor.id);
      const other = (await newAction(w.admin)).json().data;
      expect((await call(w.admin, 'PATCH', `/mitigation-actions/${other.id}`, { owner_user_id: w.admin.id })).statusCode).toBe(200);
      expect(await told('action_assigned', { mitigation_action_id: action.id })).toEqual([]);
      expect(await told('action_assigned', { mitigation_action_id: other.id })).toEqual([]);
    });

    it('a member who may not read the action, a deactivated one, another tenant’s or an unknown id: 422 on owner_user_id, nothing written', async () => {
      const before = await countAll();
      const actionsBefore = Number((await ctx.db.selectFrom('mitigation_actions').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
      for (const [why, userId] of [
        ['assigned to another entity', w.outsideAssessor.id],
        ['assigned to a unit of the BRA’s entity only (the BRA has no unit)', w.unitAssessor.id],
        ['deactivated', gone.id],
        ['another tenant’s admin', w.otherAdmin.id],
        ['nobody', randomUUID()],
      ] as const) {
        const refused = await newAction(w.admin, { owner_user_id: userId });
        expect(refused.statusCode, why).toBe(422);
        expect(refused.json().details, why).toEqual({ fields: [expect.objectContaining({ field: 'owner_user_id' })] });
      }
      const action = (await newAction(w.admin)).json().data;
      const refused = await call(w.admin, 'PATCH', `/mitigation-actions/${action.id}`, { owner_user_id: w.outsideReviewer.id, owner: 'Someone else' });
      expect(refused.statusCode).toBe(422);
      expect((await call(w.admin, 'GET', `/mitigation-actions?bra_id=${bra.id}&page_size=100`)).json().data.find((row: { id: string }) => row.id === action.id)).toMatchObject({ owner: 'Security', owner_user_id: null });
      // An unlinked action is read by client admins and the assessor who created it only.
      expect((await call(w.assessor, 'POST', '/mitigation-actions', { action: 'Unlinked', owner: 'Ops', priority: 'low', action_type: 'Process', due_date: utcDate(5), owner_user_id: w.reviewer.id })).statusCode).toBe(422);
      expect((await call(w.assessor, 'POST', '/mitigation-actions', { action: 'Unlinked', owner: 'Ops', priority: 'low', action_type: 'Process', due_date: utcDate(5), owner_user_id: w.admin.id })).statusCode).toBe(201);
      expect(await countAll()).toBe(before + 1);
      expect(Number((await ctx.db.selectFrom('mitigation_actions').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)).toBe(actionsBefore + 2);
    });

    it('the list filters by owner_user_id and `me`; another tenant’s member is 400 INVALID_REFERENCE', async () => {
      const mine = (await newAction(w.admin, { owner_user_id: w.reviewer.id })).json().data;
      const forMe = (await call(w.reviewer, 'GET', '/mitigation-actions?owner_user_id=me&page_size=100')).json();
      expect(forMe.data.map((row: { id: string }) => row.id)).toContain(mine.id);
      expect(forMe.data.every((row: { owner_user_id: string }) => row.owner_user_id === w.reviewer.id)).toBe(true);
      const byId = (await call(w.admin, 'GET', `/mitigation-actions?owner_user_id=${w.reviewer.id}&page_size=100`)).json();
      expect(byId.pagination.total).toBe(forMe.pagination.total);
      const foreign = await call(w.admin, 'GET', `/mitigation-actions?owner_user_id=${w.otherAdmin.id}`);
      expect(foreign.statusCode).toBe(400);
      expect(foreign.json()).toMatchObject({ code: 'INVALID_REFERENCE', details: { field: 'owner_user_id' } });
    });
  });

  describe('testing frequency', () => {
    it('a sub-control’s next test is due its frequency after its last test; never tested: from its creation; none without a frequency', async () => {
      const { keyControl } = await createSubControl(ctx, w.enterprise.id);
      const created = await call(w.admin, 'POST', '/controls/sub-controls', { key_control_id: keyControl.id, name: 'Quarterly access review', testing_frequency: 'quarterly' });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json().data).toMatchObject({ testing_frequency: 'quarterly', next_test_due: utcDate(0) });
      const id = created.json().data.id;
      const tested = await call(w.assessor, 'PATCH', `/controls/sub-controls/${id}`, { testing_date: '2026-01-31' });
      expect(tested.json().data).toMatchObject({ testing_date: '2026-01-31', next_test_due: '2026-04-30' });
      expect((await call(w.assessor, 'PATCH', `/controls/sub-controls/${id}`, { testing_frequency: 'monthly' })).json().data).toMatchObject({ next_test_due: '2026-02-28' });
      expect((await call(w.reviewer, 'GET', `/controls/sub-controls/${id}`)).json().data).toMatchObject({ testing_frequency: 'monthly', next_test_due: '2026-02-28' });
      expect((await call(w.admin, 'PATCH', `/controls/sub-controls/${id}`, { testing_frequency: null })).json().data).toMatchObject({ testing_frequency: null, next_test_due: null });
      expect((await call(w.admin, 'PATCH', `/controls/sub-controls/${id}`, { testing_frequency: 'weekly' })).statusCode).toBe(422);
      expect((await call(w.reviewer, 'PATCH', `/controls/sub-controls/${id}`, { testing_frequency: 'annual' })).statusCode).toBe(403);
    });
  });

  describe('the reminder round', () => {
    /** An action row assigned to `owner`, on the cast's BRA unless told otherwise. */
    async function assigned(owner: TestUser | null, values: Partial<Parameters<typeof insertAction>[1]> = {}) {
      const row = await insertAction(ctx, { enterpriseId: w.enterprise.id, braId: bra.id, dueDate: utcDate(3), ...values });
      await ctx.db.updateTable('mitigation_actions').set({ owner_user_id: owner?.id ?? null }).where('id', '=', row.id).execute();
      return row;
    }
    async function scheduled(enterpriseId: string, frequency: 'monthly' | 'annual' | null, testingDate: string | null, archived = false) {
      const { subControl } = await createSubControl(ctx, enterpriseId, { archived });
      await ctx.db.updateTable('sub_controls').set({ testing_frequency: frequency, testing_date: testingDate }).where('id', '=', subControl.id).execute();
      return subControl;
    }
    async function acceptance(target: { id: string; enterprise_id: string }, acceptedBy: string, expiresOn: string, status: 'active' | 'revoked' = 'active') {
      const link = await addScenarioLink(ctx, target);
      return ctx.db
        .insertInto('risk_acceptances')
        .values({
          enterprise_id: target.enterprise_id, bra_id: target.id, bra_risk_scenario_id: link.id, rationale: 'Accepted until the new vault', conditions: null,
          mitigation_action_id: null, expires_on: expiresOn, accepted_residual_score: 12, accepted_threshold: 9, accepted_by: acceptedBy, renews_id: null, status,
          ...(status === 'active' ? {} : { ended_at: new Date(), ended_by: acceptedBy, end_reason: 'Revoked' }),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    }

    it('each kind reaches exactly its recipients, once per record and date, whatever the number of rounds and instances', async () => {
      const dueSoon = await assigned(w.assessor);
      const overdue = await assigned(w.reviewer, { dueDate: utcDate(-2) });
      const later = await assigned(w.assessor, { dueDate: utcDate(8) });
      const completed = await assigned(w.assessor, { status: 'completed' });
      const archived = await assigned(w.assessor, { archived: true });
      const unassigned = await assigned(null);
      const deactivated = await assigned(w.admin);
      await ctx.db.updateTable('mitigation_actions').set({ owner_user_id: gone.id }).where('id', '=', deactivated.id).execute();
      // Assigned while they could read it; now outside their assignments: no reminder.
      const outside = await assigned(w.outsideAssessor);
      const foreign = await insertAction(ctx, { enterpriseId: w.other.id, braId: otherBra.id, dueDate: utcDate(1) });
      await ctx.db.updateTable('mitigation_actions').set({ owner_user_id: w.otherAdmin.id }).where('id', '=', foreign.id).execute();

      const monthly = await scheduled(w.enterprise.id, 'monthly', utcDate(-25));
      const neverTested = await scheduled(w.enterprise.id, 'annual', null);
      const notYet = await scheduled(w.enterprise.id, 'monthly', utcDate(-10));
      const unscheduled = await scheduled(w.enterprise.id, null, utcDate(-400));
      const archivedControl = await scheduled(w.enterprise.id, 'monthly', utcDate(-40), true);
      const foreignControl = await scheduled(w.other.id, 'monthly', utcDate(-40));

      const ending = await acceptance(bra, w.admin.id, utcDate(10));
      const notEnding = await acceptance(bra, w.admin.id, utcDate(20));
      const revoked = await acceptance(bra, w.admin.id, utcDate(5), 'revoked');
      const lapsed = await acceptance(bra, w.admin.id, utcDate(-1));
      const foreignAcceptance = await acceptance(otherBra, w.otherAdmin.id, utcDate(2));

      const first = await runReminderRound(ctx.database.db, new Date(), SETTINGS);
      expect(first.action_due_soon).toBeGreaterThanOrEqual(2);

      expect(await told('action_due_soon', { mitigation_action_id: dueSoon.id })).toEqual([
        { user_id: w.assessor.id, period: utcDate(3), title: `Action due on ${utcDate(3)}: ${dueSoon.action}`, actor_id: null },
      ]);
      expect(await told('action_overdue', { mitigation_action_id: overdue.id })).toEqual([
        { user_id: w.reviewer.id, period: utcDate(-2), title: `Action overdue, due on ${utcDate(-2)}: ${overdue.action}`, actor_id: null },
      ]);
      expect(await told('action_due_soon', { mitigation_action_id: overdue.id })).toEqual([]);
      for (const quiet of [later, completed, archived, unassigned, deactivated, outside]) {
        expect(await recipients('action_due_soon', { mitigation_action_id: quiet.id })).toEqual([]);
        expect(await recipients('action_overdue', { mitigation_action_id: quiet.id })).toEqual([]);
      }
      expect(await recipients('action_due_soon', { mitigation_action_id: foreign.id })).toEqual([w.otherAdmin.id]);

      // Tests are recorded by client admins and assessors, of any entity (the library is the enterprise's).
      const testers = ids([w.admin, w.assessor, w.unitAssessor, w.outsideAssessor]);
      expect(await recipients('control_test_due', { sub_control_id: monthly.id })).toEqual(testers);
      expect((await told('control_test_due', { sub_control_id: monthly.id }))[0]).toMatchObject({ period: utcDate(5), title: `Test of ${monthly.name} is due on ${utcDate(5)}` });
      expect(await recipients('control_test_due', { sub_control_id: neverTested.id })).toEqual(testers);
      for (const quiet of [notYet, unscheduled, archivedControl]) expect(await recipients('control_test_due', { sub_control_id: quiet.id })).toEqual([]);
      expect(await recipients('control_test_due', { sub_control_id: foreignControl.id })).toEqual([w.otherAdmin.id]);

      expect(await told('acceptance_expiring', { risk_acceptance_id: ending.id })).toEqual([
        { user_id: w.admin.id, period: utcDate(10), title: expect.stringContaining(`in ${bra.name} ends on ${utcDate(10)}`), actor_id: null },
      ]);
      for (const quiet of [notEnding, revoked, lapsed]) expect(await recipients('acceptance_expiring', { risk_acceptance_id: quiet.id })).toEqual([]);
      expect(await recipients('acceptance_expiring', { risk_acceptance_id: foreignAcceptance.id })).toEqual([w.otherAdmin.id]);

      // The centre names each reminder's subject and where the console opens it (the link its mails carry too).
      type Listed = { kind: string; subject: { type: string; id: string; name: string }; link: string; bra_id: string | null };
      const listed = async (user: TestUser) => (await call(user, 'GET', '/notifications?page_size=100')).json().data as Listed[];
      const mine = await listed(w.assessor);
      expect(mine.find((n) => n.kind === 'action_due_soon' && n.subject.id === dueSoon.id)).toMatchObject({
        subject: { type: 'mitigation_action', name: dueSoon.action },
        bra_id: bra.id,
        link: `/actions?action=${dueSoon.id}&bra_id=${bra.id}`,
      });
      const admins = await listed(w.admin);
      expect(admins.find((n) => n.kind === 'control_test_due' && n.subject.id === monthly.id)).toMatchObject({
        subject: { type: 'sub_control', name: monthly.name },
        link: `/controls/sub-controls/${monthly.id}`,
      });
      expect(admins.find((n) => n.kind === 'acceptance_expiring' && n.subject.id === ending.id)).toMatchObject({
        subject: { type: 'risk_acceptance', name: bra.name },
        link: `/bras/${bra.id}?tab=acceptances`,
      });

      // Again, and then two rounds at once from two instances (two pools): nothing is written twice.
      const written = await countAll();
      expect(await runReminderRound(ctx.database.db, new Date(), SETTINGS)).toEqual({ action_due_soon: 0, action_overdue: 0, control_test_due: 0, acceptance_expiring: 0 });
      const second = await openDatabase({ kind: 'postgres', url: ctx.database.url }, { poolSize: 2 });
      afterAll(() => second.close());
      const fresh = await assigned(w.assessor, { dueDate: utcDate(1) });
      const freshControl = await scheduled(w.enterprise.id, 'monthly', utcDate(-30));
      const rounds = await Promise.all([runReminderRound(ctx.database.db, new Date(), SETTINGS), runReminderRound(second.db, new Date(), SETTINGS)]);
      expect(rounds.reduce((sum, round) => sum + round.action_due_soon, 0)).toBe(1);
      expect(rounds.reduce((sum, round) => sum + round.control_test_due, 0)).toBe(testers.length);
      expect(await countAll()).toBe(written + 1 + testers.length);
      expect(await recipients('action_due_soon', { mitigation_action_id: fresh.id })).toEqual([w.assessor.id]);
      expect(await recipients('control_test_due', { sub_control_id: freshControl.id })).toEqual(testers);

      // A new due date is a new period: reminded once more; completing it ends the reminders.
      await ctx.db.updateTable('mitigation_actions').set({ due_date: utcDate(2) }).where('id', '=', dueSoon.id).execute();
      await ctx.db.updateTable('mitigation_actions').set({ status: 'completed' }).where('id', '=', overdue.id).execute();
      await ctx.db.updateTable('mitigation_actions').set({ due_date: utcDate(-1) }).where('id', '=', overdue.id).execute();
      await runReminderRound(ctx.database.db, new Date(), SETTINGS);
      expect((await told('action_due_soon', { mitigation_action_id: dueSoon.id })).map((row) => row.period)).toEqual([utcDate(2), utcDate(3)]);
      expect((await told('action_overdue', { mitigation_action_id: overdue.id })).map((row) => row.period)).toEqual([utcDate(-2)]);
    });
  });
});
