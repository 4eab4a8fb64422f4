// End-to-end: the review loop of a BRA in Chromium against the real service (embedded engine, demo data):
// an assessor rates with justifications, links a control to the scenario and submits, a reviewer requests changes on a scenario, the client
// admin returns it, the assessor sees why, changes a rating and resubmits, the reviewer recommends approval
// and the client admin approves. Screenshots in web/test-results/screenshots; axe-core on each screen.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SCREENSHOTS, launchBrowser } from './browser.mjs';
import { expectAccessible, service, signIn } from './scenario.mjs';

async function signOut(page) {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByLabel('E-mail', { exact: true }).waitFor();
}

async function openBra(page, name) {
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'BRAs', exact: true }).click();
  await page.getByRole('link', { name }).click();
  await page.getByRole('heading', { name }).waitFor();
  await page.waitForLoadState('networkidle');
}

async function move(page, button, field, text) {
  await page.getByRole('button', { name: button }).click();
  if (field !== null) {
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(field).fill(text);
    await dialog.getByRole('button', { name: button }).click();
    await dialog.waitFor({ state: 'detached' });
  }
}

describe('the review loop', () => {
  it('rated with justifications, changes requested, returned with a reason, reworked, recommended and approved', async () => {
    const chromium = await launchBrowser({ width: 1280, height: 900 });
    const page = chromium.context.pages()[0] ?? (await chromium.context.newPage());
    page.on('pageerror', (error) => console.error('pageerror', error.message));
    const shot = (file) => page.screenshot({ path: `${SCREENSHOTS}/review-loop-${file}.png`, fullPage: true });
    try {
      // The assessor builds and rates the BRA, each rating with its own justification, and submits it.
      await signIn(page, 'assessor');
      await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'BRAs', exact: true }).click();
      await page.getByRole('button', { name: 'New BRA' }).click();
      const create = page.getByRole('dialog');
      const name = `Card payments BRA ${Date.now()}`;
      await create.getByLabel('Name').fill(name);
      await create.getByLabel(/^Legal entity( \*)?$/).first().click();
      await page.getByRole('option').first().click();
      await create.getByLabel('Period').fill('FY2027');
      await create.getByRole('button', { name: 'Create BRA' }).click();
      await page.getByRole('heading', { name }).waitFor();
      await page.getByLabel(/^Scenario from the catalogue$/).first().click();
      await page.getByRole('option').first().click();
      await page.getByRole('button', { name: 'Add scenario' }).click();
      const row = page.getByTestId('scenario-row').first();
      await row.waitFor();
      await row.getByRole('button', { name: /^Rate / }).click();
      const rating = page.getByRole('dialog');
      await rating.getByTestId('rating-criteria').waitFor();
      // The inherent rating with the keyboard: the grid is one control, moved from the centre (3,3).
      await rating.getByTestId('grid-inherent').getByTestId('cell-3-3').focus();
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('ArrowRight');
      await rating.getByLabel('Inherent justification').fill('Card fraud losses rose in Q2.');
      await rating.getByRole('button', { name: 'Save inherent rating' }).click();
      await rating.getByTestId('grid-inherent').locator('[data-saved]').waitFor();
      assert.equal(await rating.getByTestId('grid-inherent').getByTestId('cell-4-4').innerText(), '16');
      await rating.getByTestId('grid-residual').getByTestId('cell-2-2').click();
      await rating.getByLabel('Residual justification').fill('3-D Secure on every card payment.');
      await rating.getByRole('button', { name: 'Save residual rating' }).click();
      await rating.getByTestId('grid-residual').locator('[data-saved]').waitFor();
      assert.match(await rating.getByTestId('justification-inherent').innerText(), /Card fraud losses rose in Q2/);
      assert.match(await rating.getByTestId('justification-residual').innerText(), /3-D Secure/);
      await expectAccessible(page, 'rating with criteria and justifications');
      await shot('1-rated');
      await page.keyboard.press('Escape');
      await rating.waitFor({ state: 'detached' });
      // A control that mitigates this scenario, shown on the scenario's row with its effectiveness.
      const scenarioName = (await page.getByTestId('scenario-row').first().locator('td').first().innerText()).split('\n')[0];
      await page.getByRole('tab', { name: 'Controls' }).click();
      await page.getByRole('combobox', { name: 'Sub-control from the library' }).click();
      await page.getByRole('option').first().click();
      await page.getByRole('combobox', { name: 'Mitigates' }).click();
      await page.getByRole('option', { name: `Scenario: ${scenarioName}` }).click();
      await page.getByRole('button', { name: 'Link control' }).click();
      await page.getByTestId('control-link').filter({ hasText: scenarioName }).waitFor();
      await page.getByRole('tab', { name: 'Scenarios' }).click();
      assert.match(await page.getByTestId('scenario-row').first().getByTestId('scenario-controls').innerText(), /^1 · /);
      await move(page, 'Submit for review', null);
      await page.getByTestId('bra-status').filter({ hasText: /under review/i }).waitFor();
      await signOut(page);

      // The reviewer comments on the scenario and requests changes.
      await signIn(page, 'reviewer');
      await openBra(page, name);
      await page.getByRole('tab', { name: /^Review/ }).click();
      await page.locator('input[value="The BRA as a whole"]').click();
      await page.getByRole('option', { name: /^Scenario: / }).first().click();
      await page.locator('label', { hasText: 'Request changes' }).first().click();
      await page.getByLabel('Reason').fill('The residual likelihood ignores card-not-present fraud.');
      await page.getByRole('button', { name: 'Request changes' }).last().click();
      await page.getByTestId('comment').filter({ hasText: 'Requests changes' }).waitFor();
      await expectAccessible(page, 'review tab');
      await shot('2-changes-requested');
      await signOut(page);

      // The client admin returns it with the reviewer's reason.
      await signIn(page, 'admin');
      await openBra(page, name);
      await move(page, 'Return to assessor', 'What should be reworked', 'Rework the residual likelihood, as the reviewer asks.');
      await page.getByTestId('return-reason').waitFor();
      await signOut(page);

      // The assessor sees why, changes the residual rating and resubmits.
      await signIn(page, 'assessor');
      await openBra(page, name);
      assert.match(await page.getByTestId('return-reason').innerText(), /Rework the residual likelihood/);
      await expectAccessible(page, 'returned BRA');
      await shot('3-returned');
      await page.getByTestId('scenario-row').first().getByRole('button', { name: /^Rate / }).click();
      const rework = page.getByRole('dialog');
      await rework.getByTestId('grid-residual').getByTestId('cell-2-3').click();
      await rework.getByLabel('Residual justification').fill('Card-not-present fraud counted: likelihood 3.');
      await rework.getByRole('button', { name: 'Save residual rating' }).click();
      await rework.getByTestId('justification-residual').filter({ hasText: /likelihood 3/ }).waitFor();
      await page.keyboard.press('Escape');
      await rework.waitFor({ state: 'detached' });
      await move(page, 'Submit for review', null);
      await page.getByTestId('bra-status').filter({ hasText: /under review/i }).waitFor();
      assert.equal(await page.getByTestId('return-reason').count(), 0);
      await signOut(page);

      // The reviewer recommends approval.
      await signIn(page, 'reviewer');
      await openBra(page, name);
      await page.getByRole('tab', { name: /^Review/ }).click();
      await page.locator('label', { hasText: 'Recommend approval' }).first().click();
      await page.getByLabel('Reason').fill('Ratings now reflect the loss data.');
      await page.getByRole('button', { name: 'Recommend approval' }).last().click();
      await page.getByTestId('comment').filter({ hasText: 'Recommends approval' }).waitFor();
      await signOut(page);

      // The client admin approves; the timeline lists every move with who and why.
      await signIn(page, 'admin');
      await openBra(page, name);
      await move(page, 'Approve', 'Final comment', 'Approved on the reviewer’s recommendation.');
      await page.getByTestId('approval').waitFor();
      assert.match(await page.getByTestId('bra-people').innerText(), /approved by/);
      await page.getByRole('tab', { name: /^Review/ }).click();
      await page.getByTestId('transition').nth(3).waitFor();
      assert.match(await page.getByTestId('transitions').innerText(), /Rework the residual likelihood/);
      await expectAccessible(page, 'approved BRA with its timeline');
      await shot('4-approved');
    } catch (error) {
      await shot('FAILED').catch(() => undefined);
      throw error;
    } finally {
      await chromium.close();
    }
  });
});
