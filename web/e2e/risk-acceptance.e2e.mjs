// End-to-end: risk acceptance (issue 48) in Chromium against the real service. A client admin accepts a scenario
// above appetite from the register (filtered to the risks not accepted), sees it accepted there and on the
// dashboard (the counts and the acceptances expiring within 30 days), then in the BRA renews the acceptance and
// revokes it with a reason, after which the register lists the risk as not accepted again. A reviewer sees
// whether a risk is accepted and is offered nothing to change it.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { apiAs, expectAccessible, screen, service, signIn } from './scenario.mjs';

/** A day from today (UTC, as the service counts days), 'YYYY-MM-DD'. */
function dayAhead(days) {
  const date = new Date();
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

async function pick(page, label, option) {
  await page.getByLabel(new RegExp(`^${label}( \\*)?$`)).first().click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function openScreen(page, label) {
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: label, exact: true }).click();
  await page.getByRole('heading', { level: 1 }).first().waitFor();
}

/** The register row of one scenario of one BRA. */
const rowOf = (page, row) => page.getByTestId('register-row').filter({ hasText: row.scenario.name }).filter({ hasText: row.bra.name });

let shared;

describe('risk acceptance', () => {
  screen('a client admin accepts a risk from the register and sees it accepted on the dashboard', async (page) => {
    const admin = await apiAs('admin');
    const row = (await admin('GET', '/risk-register?accepted=false')).data[0];
    assert.ok(row?.above_appetite && row.acceptance_id === null, 'the demo has a risk above appetite that nobody accepted');
    const before = (await admin('GET', '/dashboard')).data.scenarios;
    const until = dayAhead(20);
    shared = { row, until };

    await signIn(page, 'admin');
    await openScreen(page, 'Risk register');
    await pick(page, 'Acceptance', 'Not accepted');
    assert.equal(new URL(page.url()).searchParams.get('accepted'), 'false', 'the filter is kept in the address');
    const line = rowOf(page, row);
    await line.getByTestId('acceptance-cell').getByText('Not accepted').waitFor();
    await expectAccessible(page, 'register, risks not accepted');

    await line.getByRole('button', { name: `Accept risk ${row.scenario.name}` }).click();
    const dialog = page.getByRole('dialog', { name: `Accept risk: ${row.scenario.name}` });
    const lastDay = dialog.getByRole('textbox', { name: /^Last day/ });
    assert.equal(await lastDay.inputValue(), dayAhead(90), 'the form suggests a last day a quarter ahead');
    await dialog.getByLabel(/^Rationale/).fill('The 3-D Secure rollout completes within the month; the exposure is within the fraud reserve.');
    await lastDay.fill(until);
    // The open calendar names its buttons and draws its days at full contrast (components/date-field.tsx).
    await expectAccessible(page, 'the last day with its calendar open');
    await page.keyboard.press('Tab');
    await dialog.getByLabel(/^Conditions/).fill('Weekly fraud-loss report to the risk committee.');
    await expectAccessible(page, 'the accept-risk form');
    await dialog.getByRole('button', { name: 'Accept risk', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });

    // Accepted now: gone from the risks not accepted, listed under the accepted ones until its last day.
    await line.waitFor({ state: 'detached' });
    await pick(page, 'Acceptance', 'Accepted');
    assert.equal(new URL(page.url()).searchParams.get('accepted'), 'true');
    await line.getByTestId('acceptance-cell').getByText(`Accepted until ${until}`).waitFor();
    await line.getByRole('button', { name: `Revoke the acceptance of ${row.scenario.name}` }).waitFor();
    await expectAccessible(page, 'register, accepted risks');

    await openScreen(page, 'Dashboard');
    const counts = page.getByTestId('acceptance-counts');
    await counts.waitFor();
    // The dashboard seen at sign-in may show first; its figures are read again on the way in.
    await page.getByTestId('accepted-count').filter({ hasText: `${before.above_appetite_accepted + 1} accepted` }).waitFor();
    assert.equal(await page.getByTestId('accepted-count').innerText(), `${before.above_appetite_accepted + 1} accepted`);
    assert.equal(await page.getByTestId('unaccepted-count').innerText(), `${before.above_appetite_unaccepted - 1} not accepted`);
    assert.equal(new URL(await page.getByTestId('accepted-count').evaluate((link) => link.href)).search, '?accepted=true');
    const expiring = page.getByTestId('expiring-acceptances').getByRole('listitem').filter({ hasText: row.scenario.name });
    assert.match(await expiring.innerText(), new RegExp(`^${until} · `));
    await expectAccessible(page, 'dashboard with an accepted risk');

    // The list links to the BRA, whose scenario says who accepted it and why.
    await expiring.getByRole('link', { name: row.bra.name }).click();
    const scenario = page.getByTestId('scenario-row').filter({ hasText: row.scenario.name });
    await scenario.getByRole('button', { name: `Above appetite, accepted until ${until}: who accepted it and why` }).click();
    const details = page.getByTestId('acceptance-details');
    await details.waitFor();
    assert.match(await details.innerText(), new RegExp(`Accepted by ${service.people.admin.name}`));
    assert.match(await details.innerText(), /Rationale: The 3-D Secure rollout/);
    assert.match(await details.innerText(), /Conditions: Weekly fraud-loss report/);
    await expectAccessible(page, 'BRA scenario with its acceptance');
  });

  screen('in the BRA the client admin renews the acceptance, then revokes it with a reason', async (page) => {
    assert.ok(shared, 'the scenario above accepted a risk');
    const { row, until } = shared;
    const renewed = dayAhead(25);
    await signIn(page, 'admin');
    await page.goto(`${service.baseUrl}/bras/${row.bra.id}`);
    const scenario = page.getByTestId('scenario-row').filter({ hasText: row.scenario.name });
    await scenario.getByText(`Above appetite, accepted until ${until}`).waitFor();

    await scenario.getByRole('button', { name: `Renew the acceptance of ${row.scenario.name}` }).click();
    const renewal = page.getByRole('dialog', { name: `Renew the acceptance: ${row.scenario.name}` });
    assert.match(await renewal.getByLabel(/^Rationale/).inputValue(), /^The 3-D Secure rollout/, 'a renewal starts from the old terms');
    await renewal.getByRole('textbox', { name: /^Last day/ }).fill(renewed);
    await page.keyboard.press('Tab'); // on to the next field, which closes the date picker
    await expectAccessible(page, 'the renewal form');
    await renewal.getByRole('button', { name: 'Renew acceptance' }).click();
    await renewal.waitFor({ state: 'detached' });
    await scenario.getByText(`Above appetite, accepted until ${renewed}`).waitFor();

    await scenario.getByRole('button', { name: `Revoke the acceptance of ${row.scenario.name}` }).click();
    const revoke = page.getByRole('dialog', { name: `Revoke the acceptance: ${row.scenario.name}` });
    assert.equal(await revoke.getByRole('button', { name: 'Revoke acceptance' }).isDisabled(), true, 'no revocation without a reason');
    await revoke.getByLabel(/^Reason/).fill('The fraud reserve was cut; the risk goes back to the committee.');
    await expectAccessible(page, 'the revocation');
    await revoke.getByRole('button', { name: 'Revoke acceptance' }).click();
    await revoke.waitFor({ state: 'detached' });
    await scenario.getByText('Above appetite, not accepted').waitFor();
    await scenario.getByRole('button', { name: `Accept risk ${row.scenario.name}` }).waitFor();

    // The BRA's history keeps all three: the first renewed, the renewal revoked with its reason.
    await page.getByRole('tab', { name: 'Risk acceptances' }).click();
    const history = page.getByTestId('acceptance-row').filter({ hasText: row.scenario.name });
    await history.nth(1).waitFor();
    const states = await history.locator('[data-state]').evaluateAll((badges) => badges.map((badge) => badge.getAttribute('data-state')).sort());
    assert.deepEqual(states, ['renewed', 'revoked']);
    assert.match(await history.filter({ has: page.locator('[data-state="revoked"]') }).innerText(), /The fraud reserve was cut/);
    await expectAccessible(page, 'the acceptance history');

    await page.goto(`${service.baseUrl}/risk-register?accepted=false`);
    await rowOf(page, row).getByRole('button', { name: `Accept risk ${row.scenario.name}` }).waitFor();
  });

  screen('a reviewer sees whether a risk is accepted and is offered nothing to change it', async (page) => {
    assert.ok(shared, 'the scenario above accepted a risk');
    await signIn(page, 'reviewer');
    await page.goto(`${service.baseUrl}/risk-register?above_appetite=true`);
    const cells = page.getByTestId('acceptance-cell');
    await cells.first().getByText(/^(Not accepted|Accepted until \d{4}-\d{2}-\d{2})$/).waitFor();
    assert.equal(await page.getByRole('button', { name: /^(Accept risk|Renew the acceptance|Revoke the acceptance) / }).count(), 0);
    await expectAccessible(page, 'register for a reviewer');
  });
});
