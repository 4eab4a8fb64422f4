// End-to-end: the notification centre (issue 49) in Chromium against the real service. An assessor submits a BRA;
// the reviewer sees one more unread on the bell, opens the centre, finds the submitted BRA there and opens it (the
// BRA's page; the count drops by one). A client admin returns the BRA with a reason (approving and returning are
// theirs); the assessor reads the reason in the centre, opens the BRA from there, and finds the notification read
// on the full list. axe-core on the open centre and on the list.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { SCREENSHOTS } from './browser.mjs';
import { apiAs, expectAccessible, screen, service, signIn } from './scenario.mjs';

const REASON = 'Rate card-not-present fraud again with the Q3 losses.';

/** A rated BRA of the assessor's on their first entity, submitted for review. */
async function submittedBra() {
  const assessor = await apiAs('assessor');
  const entity = (await assessor('GET', '/legal-entities')).data[0];
  const scenario = (await assessor('GET', '/risk-scenarios')).data[0];
  const bra = (await assessor('POST', '/bras', { name: `Notified BRA ${Date.now()}`, legal_entity_id: entity.id, period: 'FY2027', assessor: 'Demo assessor' })).data;
  const link = (await assessor('POST', `/bras/${bra.id}/scenarios`, { risk_scenario_id: scenario.id })).data;
  await assessor('POST', `/bras/${bra.id}/ratings`, { bra_risk_scenario_id: link.id, rating_type: 'inherent', impact_score: 4, likelihood_score: 4 });
  await assessor('POST', `/bras/${bra.id}/ratings`, { bra_risk_scenario_id: link.id, rating_type: 'residual', impact_score: 3, likelihood_score: 2 });
  await assessor('POST', `/bras/${bra.id}/submit`);
  return bra;
}

const unreadOf = async (role) => (await (await apiAs(role))('GET', '/notifications?page_size=1')).unread_count;
const bell = (page, unread) => page.getByRole('button', { name: `Notifications, ${unread} unread`, exact: true });

/** Opens the centre from the bell and answers the notification about this BRA in it. */
async function fromCentre(page, unread, braName) {
  await bell(page, unread).click();
  const centre = page.getByTestId('notification-centre');
  await centre.waitFor();
  const item = centre.getByTestId('notification').filter({ hasText: braName }).first();
  await item.waitFor();
  return item;
}

let shared;

describe('the notification centre', () => {
  screen('the reviewer sees the submitted BRA on the bell and opens it from the centre', async (page) => {
    const before = await unreadOf('reviewer');
    const bra = await submittedBra();
    shared = { bra };
    assert.equal(await unreadOf('reviewer'), before + 1, 'the submission told the reviewer');

    await signIn(page, 'reviewer');
    const item = await fromCentre(page, before + 1, bra.name);
    assert.equal(await item.getAttribute('data-unread'), 'true');
    assert.match(await item.innerText(), new RegExp(`${bra.name} awaits your review`));
    assert.match(await item.innerText(), new RegExp(`${service.people.assessor.name} · `), 'who submitted it');
    await expectAccessible(page, 'the notification centre');
    await page.screenshot({ path: `${SCREENSHOTS}/notification-centre.png` });

    await item.click();
    await page.getByRole('heading', { name: bra.name }).waitFor();
    assert.equal(new URL(page.url()).pathname, `/bras/${bra.id}`);
    await bell(page, before).waitFor();
  });

  screen('the assessor reads the return reason in the centre, opens the BRA and finds it read on the list', async (page) => {
    const { bra } = shared;
    const before = await unreadOf('assessor');
    await (await apiAs('admin'))('POST', `/bras/${bra.id}/return`, { comment: REASON });
    assert.equal(await unreadOf('assessor'), before + 1, 'the return told the assessor');

    await signIn(page, 'assessor');
    const item = await fromCentre(page, before + 1, bra.name);
    assert.match(await item.innerText(), new RegExp(`${bra.name} was returned to you`));
    assert.equal(await item.getByTestId('notification-body').innerText(), REASON);
    await expectAccessible(page, 'the notification centre with a return reason');

    await item.click();
    await page.getByTestId('return-reason').filter({ hasText: REASON }).waitFor();
    assert.equal(new URL(page.url()).pathname, `/bras/${bra.id}`);
    await bell(page, before).waitFor();

    // The full list: the notification is there, read; "Unread only" leaves it out.
    await bell(page, before).click();
    await page.getByRole('link', { name: 'See all notifications' }).click();
    await page.getByRole('heading', { name: 'Notifications', level: 1 }).waitFor();
    // On the page itself (the bell's list may still be closing over it).
    const listed = page.getByRole('main').getByTestId('notification').filter({ hasText: `${bra.name} was returned to you` });
    await listed.waitFor();
    assert.equal(await listed.getAttribute('data-unread'), null);
    await expectAccessible(page, 'the notifications page');
    // A click, not check(): the switch follows the address, so its state changes only once the address has.
    await page.getByRole('switch', { name: 'Unread only' }).click({ force: true });
    await page.waitForURL(/unread=true/);
    await listed.waitFor({ state: 'detached' });
  });
});
