import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expireLapsedAcceptances } from '../../src/modules/bras/acceptance/acceptance-expiry.js';
import { addDays } from '../../src/modules/bras/acceptance/acceptance-rules.js';
import { utcToday } from '../../src/modules/actions/overdue.js';
import { createTestContext } from '../support/app.js';
import { auditEntries, expectAccessDenied } from '../support/audit.js';
import { addScenarioLink, createBra, rateBoth } from '../support/bras-factories.js';
import { cast } from '../support/cast.js';
import { PDF, upload } from '../support/evidence.js';
import { pdfPages, xlsxSheets } from '../reporting/parse-report.js';

type Status = 'draft' | 'in_progress' | 'under_review' | 'approved' | 'cancelled';

/**
 * Risk acceptance (issue 48): a client admin accepts a scenario above appetite until a date; renewal,
 * revocation, expiry (the daily round, and reads that stop counting it the day after its last day), a new
 * higher rating ending it; and what the BRA answer, the register, the dashboard and a snapshot show.
 */
describe('risk acceptance', async () => {
  const ctx = await createTestContext();
  const w = await cast(ctx);
  const { call } = w;
  const today = utcToday(new Date());
  const terms = (days = 90) => ({ rationale: 'Within the fraud reserve until the 3-D Secure rollout completes.', expires_on: addDays(today, days) });

  /** A BRA with one included scenario rated 16 residual (above the default appetite, 9) and one rated 4 (within). */
  async function braAbove(status: Status = 'in_progress') {
    const bra = await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: w.entity.id, createdBy: w.assessor.id, status });
    const above = await addScenarioLink(ctx, bra);
    await rateBoth(ctx, above, [5, 5], [4, 4]);
    const within = await addScenarioLink(ctx, bra);
    await rateBoth(ctx, within, [3, 3], [2, 2]);
    return { bra, above, within };
  }
  const accept = (braId: string, linkId: string, body: object = terms(), who = w.admin) => call(who, 'POST', `/bras/${braId}/scenarios/${linkId}/acceptances`, body);
  const scenarioOf = async (braId: string, linkId: string) =>
    ((await call(w.admin, 'GET', `/bras/${braId}`)).json().data.scenarios as { id: string; acceptance: { id: string; expires_on: string } | null }[]).find((s) => s.id === linkId)!;
  const statusOf = async (id: string) => (await ctx.db.selectFrom('risk_acceptances').select(['status', 'end_reason']).where('id', '=', id).executeTakeFirstOrThrow());
  const eventsOf = async (type: string) =>
    (await ctx.db.selectFrom('event_outbox').select('body').where('enterprise_id', '=', w.enterprise.id).where('type', '=', type).execute()).map((row) => JSON.parse(row.body).data);

  it('a client admin accepts a scenario above appetite: the acceptance, its audit entry, its event, the BRA answer', async () => {
    const { bra, above } = await braAbove();
    const response = await accept(bra.id, above.id, { ...terms(), conditions: 'Monthly loss report to the committee' });
    expect(response.statusCode, response.body).toBe(201);
    const acceptance = response.json().data;
    expect(acceptance).toMatchObject({
      bra_id: bra.id,
      scenario_id: above.id,
      risk_scenario_id: above.risk_scenario_id,
      rationale: terms().rationale,
      conditions: 'Monthly loss report to the committee',
      mitigation_action_id: null,
      expires_on: addDays(today, 90),
      accepted_residual_score: 16,
      accepted_threshold: 9,
      accepted_by: w.admin.id,
      accepted_by_user: { id: w.admin.id, full_name: w.admin.fullName },
      renews_id: null,
      status: 'active',
      in_force: true,
      ended_at: null,
    });
    const [entry] = await auditEntries(ctx, { entityType: 'risk_acceptance', entityId: acceptance.id, action: 'create' });
    expect(entry?.user_id).toBe(w.admin.id);
    expect(entry?.action_details).toMatchObject({ bra_id: bra.id, bra_risk_scenario_id: above.id, expires_on: addDays(today, 90), accepted_residual_score: 16 });
    expect((await eventsOf('risk.accepted')).find((data) => data.risk_acceptance_id === acceptance.id)).toMatchObject({ bra_id: bra.id, bra_risk_scenario_id: above.id, expires_on: addDays(today, 90) });
    expect((await scenarioOf(bra.id, above.id)).acceptance).toMatchObject({ id: acceptance.id, expires_on: addDays(today, 90), in_force: true });
    const read = await call(w.reviewer, 'GET', `/risk-acceptances/${acceptance.id}`);
    expect(read.json().data).toEqual(acceptance);
    expect(read.headers.etag).toMatch(/^"1\./);
  });

  it('refuses what is not a client admin’s, not above appetite, not in an acceptable state, or out of terms', async () => {
    const { bra, above, within } = await braAbove();
    const assessor = await accept(bra.id, above.id, terms(), w.assessor);
    await expectAccessDenied(ctx, w.assessor, assessor);
    expect((await accept(bra.id, above.id, terms(), w.otherAdmin)).statusCode).toBe(404);
    expect((await accept(bra.id, randomUUID())).statusCode).toBe(404);
    expect((await accept(bra.id, within.id)).json().code).toBe('INVALID_STATE');
    for (const status of ['draft', 'cancelled'] as const) {
      const other = await braAbove(status);
      const refused = await accept(other.bra.id, other.above.id);
      expect(refused.statusCode, status).toBe(409);
      expect(refused.json().code).toBe('INVALID_STATE');
    }
    for (const expires_on of [today, addDays(today, -1), addDays(today, 366)]) {
      const refused = await accept(bra.id, above.id, { ...terms(), expires_on });
      expect(refused.statusCode, expires_on).toBe(422);
      expect(refused.json().details.fields[0].field).toBe('expires_on');
    }
    expect((await accept(bra.id, above.id, { ...terms(), expires_on: addDays(today, 365) })).statusCode).toBe(201);
    const twice = await accept(bra.id, above.id);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().code).toBe('CONFLICT');
    const unlinked = await braAbove();
    const action = await accept(unlinked.bra.id, unlinked.above.id, { ...terms(), mitigation_action_id: randomUUID() });
    expect(action.statusCode).toBe(400);
    expect(action.json().code).toBe('INVALID_REFERENCE');
    expect((await accept(unlinked.bra.id, unlinked.above.id, { ...terms(), rationale: '' })).statusCode).toBe(422);
  });

  it('renewal replaces the acceptance with a new one; revocation ends it, audited with its reason', async () => {
    const { bra, above } = await braAbove('under_review');
    const first = (await accept(bra.id, above.id)).json().data;
    const renewed = await call(w.admin, 'POST', `/risk-acceptances/${first.id}/renew`, terms(180));
    expect(renewed.statusCode, renewed.body).toBe(201);
    const second = renewed.json().data;
    expect(second).toMatchObject({ renews_id: first.id, status: 'active', expires_on: addDays(today, 180) });
    expect(await statusOf(first.id)).toMatchObject({ status: 'renewed' });
    expect((await call(w.admin, 'POST', `/risk-acceptances/${first.id}/renew`, terms())).statusCode).toBe(409);
    await expectAccessDenied(ctx, w.reviewer, await call(w.reviewer, 'POST', `/risk-acceptances/${second.id}/revoke`, { reason: 'No' }));
    expect((await call(w.otherAdmin, 'POST', `/risk-acceptances/${second.id}/revoke`, { reason: 'No' })).statusCode).toBe(404);
    const revoked = await call(w.admin, 'POST', `/risk-acceptances/${second.id}/revoke`, { reason: 'The fraud reserve was cut' });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json().data).toMatchObject({ status: 'revoked', in_force: false, ended_by: w.admin.id, end_reason: 'The fraud reserve was cut' });
    const [entry] = await auditEntries(ctx, { entityType: 'risk_acceptance', entityId: second.id, action: 'update' });
    expect(entry?.action_details).toMatchObject({ status: { from: 'active', to: 'revoked' }, reason: 'The fraud reserve was cut' });
    expect((await scenarioOf(bra.id, above.id)).acceptance).toBeNull();
    expect((await call(w.admin, 'POST', `/risk-acceptances/${second.id}/revoke`, { reason: 'Again' })).statusCode).toBe(409);
  });

  it('a new residual rating above the accepted one ends the acceptance; one at or below it keeps it', async () => {
    const { bra, above } = await braAbove();
    const acceptance = (await accept(bra.id, above.id)).json().data;
    const lower = await call(w.assessor, 'POST', `/bras/${bra.id}/ratings`, { bra_risk_scenario_id: above.id, rating_type: 'residual', impact_score: 3, likelihood_score: 4 });
    expect(lower.statusCode, lower.body).toBe(201);
    expect(await statusOf(acceptance.id)).toMatchObject({ status: 'active' });
    const higher = await call(w.assessor, 'POST', `/bras/${bra.id}/ratings`, { bra_risk_scenario_id: above.id, rating_type: 'residual', impact_score: 5, likelihood_score: 4 });
    expect(higher.statusCode, higher.body).toBe(201);
    expect(await statusOf(acceptance.id)).toEqual({ status: 'ended', end_reason: 'A residual rating of 20 is above the accepted 16' });
    const [entry] = await auditEntries(ctx, { entityType: 'risk_acceptance', entityId: acceptance.id, action: 'update' });
    expect(entry?.user_id).toBe(w.assessor.id);
    expect((await scenarioOf(bra.id, above.id)).acceptance).toBeNull();
  });

  it('expiry: out of force the day after its last day; the daily round marks it, announces it and raises one alert per enterprise and day', async () => {
    const { bra, above } = await braAbove();
    const acceptance = (await accept(bra.id, above.id)).json().data;
    const second = await braAbove();
    const other = (await accept(second.bra.id, second.above.id)).json().data;
    // Time passes: both acceptances' last day was yesterday (the rows are moved back, the clock stays).
    await ctx.db.updateTable('risk_acceptances').set({ expires_on: addDays(today, -1) } as never).where('id', 'in', [acceptance.id, other.id]).execute();
    expect((await scenarioOf(bra.id, above.id)).acceptance).toBeNull();
    expect((await call(w.admin, 'GET', `/risk-acceptances/${acceptance.id}`)).json().data).toMatchObject({ status: 'active', in_force: false });
    expect(await expireLapsedAcceptances(ctx.db, new Date())).toBeGreaterThanOrEqual(2);
    expect(await statusOf(acceptance.id)).toMatchObject({ status: 'expired' });
    expect(await expireLapsedAcceptances(ctx.db, new Date())).toBe(0);
    const expired = (await eventsOf('risk.acceptance_expired')).filter((data) => [acceptance.id, other.id].includes(data.risk_acceptance_id));
    expect(expired).toHaveLength(2);
    const alerts = await ctx.db.selectFrom('system_alerts').selectAll().where('enterprise_id', '=', w.enterprise.id).where('title', '=', 'Risk acceptances expired').execute();
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ type: 'enterprise_health', status: 'open' });
    const [entry] = await auditEntries(ctx, { entityType: 'risk_acceptance', entityId: acceptance.id, action: 'update' });
    expect(entry).toMatchObject({ user_id: null, action_details: expect.objectContaining({ status: { from: 'active', to: 'expired' } }) });
    // An expired acceptance may be renewed: a new one on new terms.
    const renewed = await call(w.admin, 'POST', `/risk-acceptances/${acceptance.id}/renew`, terms(30));
    expect(renewed.statusCode, renewed.body).toBe(201);
    expect(await statusOf(acceptance.id)).toMatchObject({ status: 'expired' });
  });

  it('a register row says whether the caller may accept its risk now: a client admin on a BRA in an acceptable state', async () => {
    const place = await ctx.db.insertInto('legal_entities').values({ enterprise_id: w.enterprise.id, name: `Abilities ${randomUUID().slice(0, 6)}` }).returning('id').executeTakeFirstOrThrow();
    const draft = await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: place.id, createdBy: w.admin.id, status: 'draft' });
    await rateBoth(ctx, await addScenarioLink(ctx, draft), [5, 5], [4, 4]);
    const abilitiesOf = async (status: string) => {
      await ctx.db.updateTable('bras').set({ status: status as never }).where('id', '=', draft.id).execute();
      const rows = (await call(w.admin, 'GET', `/risk-register?legal_entity_id=${place.id}&include_live=true`)).json().data as { above_appetite: boolean; abilities: { accept_risks: boolean } }[];
      expect(rows).toHaveLength(1);
      expect(rows[0]!.above_appetite).toBe(true);
      return rows[0]!.abilities;
    };
    expect(await abilitiesOf('draft')).toEqual({ accept_risks: false });
    expect(await abilitiesOf('in_progress')).toEqual({ accept_risks: true });
    expect(await abilitiesOf('under_review')).toEqual({ accept_risks: true });
    const asReviewer = (await call(w.reviewer, 'GET', `/risk-register?include_live=true`)).json().data as { abilities: { accept_risks: boolean } }[];
    expect(asReviewer.length).toBeGreaterThan(0);
    expect(asReviewer.every((row) => !row.abilities.accept_risks)).toBe(true);
  });

  it('the register’s column and accepted filter, the dashboard’s counts and expiring list, the list’s filters and scope', async () => {
    const place = await ctx.db.insertInto('legal_entities').values({ enterprise_id: w.enterprise.id, name: `Acceptance ${randomUUID().slice(0, 6)}` }).returning('id').executeTakeFirstOrThrow();
    const bra = await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: place.id, createdBy: w.admin.id, status: 'approved' });
    const links = [await addScenarioLink(ctx, bra), await addScenarioLink(ctx, bra)];
    for (const link of links) await rateBoth(ctx, link, [5, 5], [4, 4]);
    const acceptance = (await accept(bra.id, links[0]!.id, terms(10))).json().data;
    const rows = (await call(w.admin, 'GET', `/risk-register?legal_entity_id=${place.id}`)).json().data as { scenario: { id: string }; accepted_until: string | null; acceptance_id: string | null }[];
    expect(rows.find((row) => row.scenario.id === links[0]!.id)).toMatchObject({ acceptance_id: acceptance.id, accepted_until: addDays(today, 10) });
    expect(rows.find((row) => row.scenario.id === links[1]!.id)).toMatchObject({ acceptance_id: null, accepted_until: null, abilities: { accept_risks: true } });
    const accepted = (await call(w.admin, 'GET', `/risk-register?legal_entity_id=${place.id}&accepted=true`)).json();
    expect(accepted.data.map((row: { scenario: { id: string } }) => row.scenario.id)).toEqual([links[0]!.id]);
    expect(accepted.pagination.total).toBe(1);
    const unaccepted = (await call(w.admin, 'GET', `/risk-register?legal_entity_id=${place.id}&accepted=false`)).json();
    expect(unaccepted.data.map((row: { scenario: { id: string } }) => row.scenario.id)).toEqual([links[1]!.id]);
    // The export carries the same last day, in its last column.
    const csv = (await call(w.admin, 'GET', `/risk-register/export?format=csv&legal_entity_id=${place.id}&accepted=true`)).body.trim().split('\r\n');
    expect(csv).toHaveLength(2);
    expect(csv[0]!.split(',').at(-1)).toBe('accepted_until');
    expect(csv[1]!.split(',').at(-1)).toBe(addDays(today, 10));
    const dashboard = (await call(w.admin, 'GET', `/dashboard?legal_entity_id=${place.id}`)).json().data;
    expect(dashboard.scenarios).toMatchObject({ above_appetite: 2, above_appetite_accepted: 1, above_appetite_unaccepted: 1 });
    expect(dashboard.acceptances_expiring).toEqual([
      { acceptance_id: acceptance.id, bra_id: bra.id, bra_name: bra.name, scenario_id: links[0]!.id, scenario_name: expect.any(String), expires_on: addDays(today, 10) },
    ]);
    const expiring = (await call(w.admin, 'GET', `/risk-acceptances?expiring_within_days=10&bra_id=${bra.id}`)).json();
    expect(expiring.data.map((row: { id: string }) => row.id)).toEqual([acceptance.id]);
    expect((await call(w.admin, 'GET', `/risk-acceptances?expiring_within_days=9&bra_id=${bra.id}`)).json().data).toEqual([]);
    // Assessors see the acceptances of the BRAs they read: this entity is nobody's assignment.
    expect((await call(w.assessor, 'GET', `/risk-acceptances?bra_id=${bra.id}`)).json().data).toEqual([]);
    await expectAccessDenied(ctx, w.assessor, await call(w.assessor, 'GET', `/risk-acceptances/${acceptance.id}`));
    expect((await call(w.otherAdmin, 'GET', `/risk-acceptances/${acceptance.id}`)).statusCode).toBe(404);
    expect((await call(w.otherAdmin, 'GET', `/risk-acceptances?bra_id=${bra.id}`)).statusCode).toBe(400);
    expect((await call(w.admin, 'GET', `/risk-acceptances?status=active&in_force=true&bra_id=${bra.id}`)).json().pagination.total).toBe(1);
  });

  it('an approval snapshot carries the acceptances in force and the evidence it covers; the report lists both', async () => {
    const { bra, above } = await braAbove('in_progress');
    const acceptance = (await accept(bra.id, above.id)).json().data;
    const attached = await upload(call, w.admin, { record_type: 'bra_scenario', record_id: above.id }, PDF, 'loss analysis.pdf');
    expect(attached.statusCode, attached.body).toBe(201);
    const file = attached.json().data;
    expect((await call(w.assessor, 'POST', `/bras/${bra.id}/submit`)).statusCode).toBe(200);
    const approved = await call(w.admin, 'POST', `/bras/${bra.id}/approve`, { final_comment: 'Accepted risks noted' });
    expect(approved.statusCode, approved.body).toBe(200);
    const snapshot = (await call(w.admin, 'GET', `/bras/${bra.id}/snapshots/${approved.json().data.snapshot_id}`)).json().data;
    const scenario = snapshot.content.scenarios.find((s: { id: string }) => s.id === above.id);
    expect(scenario.acceptance).toMatchObject({ id: acceptance.id, expires_on: acceptance.expires_on });
    expect(snapshot.content.evidence).toEqual([
      { id: file.id, record_type: 'bra_scenario', record_id: above.id, name: 'loss analysis.pdf', media_type: 'application/pdf', size_bytes: PDF.length, sha256: file.sha256, created_at: file.created_at },
    ]);
    const report = await call(w.admin, 'GET', `/bras/${bra.id}/report?format=xlsx`);
    expect(report.statusCode).toBe(200);
    const sheets = await xlsxSheets(report.rawPayload);
    const cellsOf = (name: string) => sheets.find((sheet) => sheet.name === name)!.cells;
    expect(cellsOf('Acceptances')).toEqual(expect.arrayContaining([scenario.name, w.admin.fullName, acceptance.expires_on, acceptance.rationale]));
    expect(cellsOf('Evidence')).toEqual(expect.arrayContaining(['loss analysis.pdf', file.sha256]));
    const pdf = (await pdfPages((await call(w.admin, 'GET', `/bras/${bra.id}/report?format=pdf`)).rawPayload)).join('\n');
    expect(pdf).toContain(`accepted until ${acceptance.expires_on}`);
    expect(pdf).toContain(file.sha256);
    // After approval the acceptance still holds on the approved record.
    expect((await scenarioOf(bra.id, above.id)).acceptance).toMatchObject({ id: acceptance.id });
  });
});
