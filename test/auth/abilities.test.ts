import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { addScenarioLink, createBra } from '../support/bras-factories.js';
import { cast } from '../support/cast.js';
import type { TestUser } from '../support/factories.js';

/**
 * Abilities (issue 45): what a read says the caller may do is what the service then allows. For each reader of
 * a BRA and each ability with a call of its own, a fresh BRA is read (its ability and ETag), then the call is
 * made: an ability of true is never refused by policy or state (403, 409), one of false always is.
 */
describe('abilities: the read says what the service allows', async () => {
  const ctx = await createTestContext();
  const w = await cast(ctx);
  const { call } = w;
  const ifMatch = (etag: string) => ({ 'if-match': etag });

  const readers: [string, TestUser][] = [
    ['client admin', w.admin],
    ['assessor who created it', w.assessor],
    ['reviewer of its entity', w.reviewer],
  ];
  type Status = 'draft' | 'in_progress' | 'under_review' | 'approved' | 'cancelled';
  const calls: { ability: string; statuses: Status[]; act: (user: TestUser, braId: string, etag: string) => ReturnType<typeof call> }[] = [
    { ability: 'update', statuses: ['in_progress', 'under_review'], act: (user, id, etag) => call(user, 'PATCH', `/bras/${id}`, { period: 'FY2030' }, ifMatch(etag)) },
    { ability: 'cancel', statuses: ['in_progress', 'approved'], act: (user, id, etag) => call(user, 'POST', `/bras/${id}/cancel`, {}, ifMatch(etag)) },
    { ability: 'return', statuses: ['under_review', 'in_progress'], act: (user, id, etag) => call(user, 'POST', `/bras/${id}/return`, { comment: 'Rework' }, ifMatch(etag)) },
    { ability: 'comment', statuses: ['under_review', 'approved'], act: (user, id, etag) => call(user, 'POST', `/bras/${id}/comments`, { body: 'Seen' }, ifMatch(etag)) },
    {
      ability: 'give_verdict',
      statuses: ['under_review'],
      act: (user, id, etag) => call(user, 'POST', `/bras/${id}/comments`, { body: 'Ratings follow the data', verdict: 'recommend_approval' }, ifMatch(etag)),
    },
  ];

  for (const { ability, statuses, act } of calls) {
    for (const status of statuses) {
      for (const [who, user] of readers) {
        it(`${ability} on a BRA ${status}, as the ${who}`, async () => {
          const bra = await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: w.entity.id, createdBy: w.assessor.id, status });
          await addScenarioLink(ctx, bra);
          const read = await call(user, 'GET', `/bras/${bra.id}`);
          expect(read.statusCode, read.body).toBe(200);
          const allowed = read.json().data.abilities[ability];
          expect(typeof allowed).toBe('boolean');
          const answer = await act(user, bra.id, read.headers.etag as string);
          if (allowed) expect([403, 409], `${ability} was announced, then refused: ${answer.body}`).not.toContain(answer.statusCode);
          else expect([403, 409], `${ability} was not announced, then allowed: ${answer.body}`).toContain(answer.statusCode);
        });
      }
    }
  }

  it("each role's BRA abilities, as the policies decide them (an approved BRA rolls forward; a cancelled one does nothing)", async () => {
    const inProgress = await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: w.entity.id, createdBy: w.assessor.id, status: 'in_progress' });
    const abilitiesOf = async (user: TestUser, id: string) => (await call(user, 'GET', `/bras/${id}`)).json().data.abilities;
    expect(await abilitiesOf(w.admin, inProgress.id)).toEqual({ update: true, submit: true, approve: true, return: false, cancel: true, comment: true, give_verdict: true, roll_forward: false, accept_risks: true });
    expect(await abilitiesOf(w.assessor, inProgress.id)).toEqual({ update: true, submit: true, approve: false, return: false, cancel: false, comment: true, give_verdict: false, roll_forward: false, accept_risks: false });
    expect(await abilitiesOf(w.reviewer, inProgress.id)).toEqual({ update: false, submit: false, approve: false, return: false, cancel: false, comment: true, give_verdict: true, roll_forward: false, accept_risks: false });
    const approved = await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: w.entity.id, createdBy: w.assessor.id, status: 'approved' });
    expect((await abilitiesOf(w.assessor, approved.id)).roll_forward).toBe(true);
    expect((await abilitiesOf(w.reviewer, approved.id)).roll_forward).toBe(false);
    const cancelled = await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: w.entity.id, createdBy: w.assessor.id, status: 'cancelled' });
    expect(Object.values(await abilitiesOf(w.admin, cancelled.id)).every((value) => value === false)).toBe(true);
  });

  it("another assessor of the same entity reads the BRA but may not change it (it is not theirs): the read says so", async () => {
    const bra = await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: w.entity.id, createdBy: w.admin.id, status: 'in_progress' });
    const read = await call(w.assessor, 'GET', `/bras/${bra.id}`);
    expect(read.json().data.abilities).toMatchObject({ update: false, submit: false, comment: true });
    expect((await call(w.assessor, 'PATCH', `/bras/${bra.id}`, { period: 'FY2031' }, ifMatch(read.headers.etag as string))).statusCode).toBe(403);
  });

  it('the ETag names the BRA, whoever reads it: abilities differ between readers, the tag does not', async () => {
    const bra = await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: w.entity.id, createdBy: w.assessor.id, status: 'in_progress' });
    const [admin, reviewer] = [await call(w.admin, 'GET', `/bras/${bra.id}`), await call(w.reviewer, 'GET', `/bras/${bra.id}`)];
    expect(admin.json().data.abilities.update).not.toBe(reviewer.json().data.abilities.update);
    expect(admin.headers.etag).toBe(reviewer.headers.etag);
    // So no browser stores a read and revalidates it for the next person signed in (the admin's abilities shown
    // to the reviewer from a 304); a client that keeps the tag itself still gets its 304.
    expect(reviewer.headers.vary).toBe('Authorization');
    expect(reviewer.headers['cache-control']).toBe('private, no-store');
    const revalidated = await call(w.reviewer, 'GET', `/bras/${bra.id}`, undefined, { 'if-none-match': reviewer.headers.etag as string });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.headers.vary).toBe('Authorization');
  });

  it('/me: the roles a caller may give are the admin policy\'s, and adding a member of each other role is refused', async () => {
    const grantable = async (user: TestUser) => (await call(user, 'GET', '/me')).json().data.grantable_roles;
    expect(await grantable(w.superAdmin)).toEqual(['admin', 'assessor', 'reviewer']);
    expect(await grantable(w.admin)).toEqual(['assessor', 'reviewer']);
    expect(await grantable(w.assessor)).toEqual([]);
    for (const role of ['admin', 'assessor', 'reviewer']) {
      const added = await call(w.admin, 'POST', `/admin/enterprises/${w.enterprise.id}/users`, { email: `${role}-${Date.now()}@example.com`, full_name: `New ${role}`, role });
      expect(added.statusCode === 403, `${role}: ${added.statusCode} ${added.body}`).toBe(!(await grantable(w.admin)).includes(role));
    }
  });

  it("/me: each enterprise-wide ability is what the service then allows", async () => {
    const probes: Record<string, (user: TestUser) => ReturnType<typeof call>> = {
      read_audit_trail: (user) => call(user, 'GET', '/audit?page_size=1'),
      see_risk_data: (user) => call(user, 'GET', '/risk-register?page_size=1'),
      administer_platform: (user) => call(user, 'GET', '/admin/enterprises?page_size=1'),
      set_appetite: (user) => call(user, 'POST', '/governance/risk-appetite', { legal_entity_id: w.elsewhere.id, risk_level: 'High', threshold_value: 12 }),
    };
    for (const user of [w.admin, w.assessor, w.reviewer, w.superAdmin]) {
      const abilities = (await call(user, 'GET', '/me')).json().data.abilities;
      for (const [ability, probe] of Object.entries(probes)) {
        const answer = await probe(user);
        expect(answer.statusCode === 403, `${user.role} ${ability}: announced ${abilities[ability]}, answered ${answer.statusCode} ${answer.body}`).toBe(!abilities[ability]);
      }
    }
  });
});
