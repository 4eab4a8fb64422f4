// End-to-end: the console in Debian's Chromium against the real service (embedded engine, demo data).
// `npm run test:console` runs it after the component tests. Every test saves a screenshot in
// web/test-results/screenshots (a failing one as <name>-FAILED.png), and checks its screens with axe-core.
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { before, describe } from 'node:test';
import { SCREENSHOTS } from './browser.mjs';
import { expectAccessible, screen, service, signIn } from './scenario.mjs';

before(() => {
  rmSync(SCREENSHOTS, { recursive: true, force: true });
});

async function pick(page, scope, label, option) {
  // The label, with the asterisk of a required field; the first match is the input (its list shares the label).
  await scope.getByLabel(new RegExp(`^${label}( \\*)?$`)).first().click();
  const choice = typeof option === 'string' ? page.getByRole('option', { name: option, exact: true }) : page.getByRole('option').nth(option);
  await choice.click();
}

async function openScreen(page, label) {
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: label, exact: true }).click();
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await page.waitForLoadState('networkidle');
}

const SCREENS_BY_ROLE = {
  super_admin: ['Users', 'Enterprises', 'System alerts', 'Super admins'],
  admin: ['Dashboard', 'BRAs', 'Risk register', 'Controls', 'Mitigation actions', 'Risk appetite', 'Audit trail', 'Organisation', 'Users', 'Webhooks', 'Service accounts', 'Provisioning (SCIM)', 'Single sign-on'],
  assessor: ['Dashboard', 'BRAs', 'Risk register', 'Controls', 'Mitigation actions', 'Risk appetite'],
  reviewer: ['Dashboard', 'BRAs', 'Risk register', 'Controls', 'Mitigation actions', 'Risk appetite', 'Audit trail'],
};

describe('the console', () => {
  screen('the sign-in screen explains a wrong password and is accessible', async (page) => {
    await page.goto(`${service.baseUrl}/`);
    await page.getByLabel('E-mail', { exact: true }).fill(service.people.admin.email);
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Could not sign in' }).waitFor();
    assert.match(await page.getByRole('alert').innerText(), /invalid|credentials/i);
    await expectAccessible(page, 'sign-in');
  });

  for (const [role, screens] of Object.entries(SCREENS_BY_ROLE)) {
    screen(`signs in as ${role} and sees only the screens of the role, each accessible`, async (page) => {
      const person = await signIn(page, role);
      assert.match(await page.getByTestId('signed-in-as').innerText(), new RegExp(person.name));
      const nav = page.getByRole('navigation', { name: 'Screens' });
      assert.deepEqual(await nav.getByRole('link').allInnerTexts(), screens);
      for (const label of screens) {
        await openScreen(page, label);
        await page.locator('.mantine-Loader-root').first().waitFor({ state: 'detached' }).catch(() => undefined);
        await expectAccessible(page, `${role} ${label}`);
        await page.screenshot({ path: `${SCREENSHOTS}/${role}-${label.toLowerCase().replace(/\W+/g, '-')}.png`, fullPage: true });
      }
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
    });
  }

  screen('the console keeps the device cookie of its sign-in and sends it with the next one', async (page) => {
    await signIn(page, 'reviewer');
    const cookies = await page.context().cookies(service.baseUrl + '/auth/v1/token');
    const device = cookies.find((cookie) => cookie.name === 'sign_in_device');
    assert.ok(device, 'the device cookie is kept');
    assert.deepEqual([device.httpOnly, device.sameSite, device.path], [true, 'Strict', '/auth/v1']);
    // Scripts cannot read it.
    assert.doesNotMatch(await page.evaluate(() => document.cookie), /sign_in_device/);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    const sent = page.waitForRequest((request) => request.url().includes('/auth/v1/token?grant_type=password'));
    await signIn(page, 'reviewer');
    const cookieHeader = (await (await sent).allHeaders()).cookie ?? '';
    assert.ok(cookieHeader.includes(`sign_in_device=${device.value}`), 'the next sign-in presents the cookie');
  });

  screen('a client admin creates a BRA, adds scenarios, rates them on the grid, approves it and sees the approval and its snapshot', async (page) => {
    await signIn(page, 'admin');
    await openScreen(page, 'BRAs');
    await page.getByRole('button', { name: 'New BRA' }).click();
    const dialog = page.getByRole('dialog');
    const name = `Payments resilience BRA ${Date.now()}`;
    await dialog.getByLabel('Name').fill(name);
    await pick(page, dialog, 'Legal entity', 'Harbourview Bank plc');
    await dialog.getByLabel('Period').fill('FY2027');
    await dialog.getByRole('button', { name: 'Create BRA' }).click();
    await page.getByRole('heading', { name }).waitFor();
    assert.match(await page.getByTestId('bra-status').innerText(), /draft/i);

    for (const index of [0, 1]) {
      await pick(page, page, 'Scenario from the catalogue', 0);
      await page.getByRole('button', { name: 'Add scenario' }).click();
      await page.getByTestId('scenario-row').nth(index).waitFor();
    }
    await expectAccessible(page, 'BRA workspace');
    const rows = page.getByTestId('scenario-row');
    for (const index of [0, 1]) {
      await rows.nth(index).getByRole('button', { name: /^Rate / }).click();
      const rating = page.getByRole('dialog');
      await rating.getByTestId('grid-inherent').getByTestId('cell-4-4').click();
      await rating.getByRole('button', { name: 'Save inherent rating' }).click();
      await rating.getByTestId('grid-inherent').locator('[data-saved]').waitFor();
      await rating.getByTestId('grid-residual').getByTestId('cell-2-3').click();
      await rating.getByRole('button', { name: 'Save residual rating' }).click();
      await rating.getByTestId('grid-residual').locator('[data-saved]').waitFor();
      // The band and score are the service's: 4×4 = 16, Very High; 2×3 = 6, Medium (D6.1).
      assert.equal(await rating.getByTestId('grid-inherent').getByTestId('cell-4-4').innerText(), '16');
      assert.match(await rating.getByTestId('grid-inherent').getByTestId('cell-4-4').getAttribute('aria-label'), /Very High/);
      assert.match(await rating.getByTestId('grid-residual').getByTestId('cell-2-3').getAttribute('aria-label'), /score 6, Medium/);
      if (index === 0) await expectAccessible(page, 'rating grid');
      await page.keyboard.press('Escape');
      await rating.waitFor({ state: 'detached' });
    }
    assert.match(await page.getByTestId('bra-status').innerText(), /in progress/i);
    assert.equal(await page.getByTestId('stat-Assessed').locator('p').last().innerText(), '2');

    await page.getByRole('button', { name: 'Approve' }).click();
    const approve = page.getByRole('dialog');
    await approve.getByLabel('Final comment').fill('Ratings reviewed with the business; residual risk accepted.');
    await approve.getByRole('button', { name: 'Approve' }).click();
    await page.getByTestId('approval').waitFor();
    assert.match(await page.getByTestId('bra-status').innerText(), /approved/i);
    assert.match(await page.getByTestId('approval').innerText(), /residual risk accepted/);
    // Approved: nothing to change any more.
    assert.equal(await page.getByRole('button', { name: 'Add scenario' }).count(), 0);
    await page.getByRole('tab', { name: 'Snapshots' }).click();
    await page.getByTestId('snapshot-row').filter({ hasText: 'At approval' }).waitFor();
    assert.equal(await page.getByTestId('snapshot-row').count(), 2);
    await page.getByTestId('snapshot-row').filter({ hasText: 'At approval' }).getByRole('button', { name: 'View' }).click();
    await page.getByRole('dialog').getByText(/2 of 2 scenarios assessed/).waitFor();
    await expectAccessible(page, 'approved BRA snapshot');
  });

  screen('an assessor records ToD and ToE and sees the heat-map cell change', async (page) => {
    await signIn(page, 'assessor');
    const cell = page.getByTestId('heat-E-5');
    await cell.waitFor();
    const before = Number(await cell.getAttribute('data-count'));
    await openScreen(page, 'Controls');
    const untested = page.getByTestId('sub-control-row').filter({ has: page.locator('td:nth-child(2)', { hasText: /^–$/ }) }).first();
    await untested.getByRole('link', { name: /^Record test of / }).click();
    const form = page.getByRole('region', { name: 'Record a complete test' });
    await pick(page, form, 'Test of Design', 'E · Inadequate');
    await pick(page, form, 'Test of Effectiveness', '5 · Ineffective');
    await form.getByLabel(/^Testing date/).fill('2026-11-20');
    await page.keyboard.press('Enter');
    await form.getByLabel(/^Evidence notes/).fill('Walkthrough of the Q3 reconciliations: none signed off.');
    await form.getByRole('button', { name: 'Record test' }).click();
    await page.getByTestId('test-record').filter({ hasText: 'Walkthrough of the Q3 reconciliations' }).waitFor();
    assert.match(await page.getByTestId('current-result').innerText(), /E[\s\S]*5/);
    await openScreen(page, 'Dashboard');
    await page.waitForFunction((count) => document.querySelector('[data-testid="heat-E-5"]')?.getAttribute('data-count') === String(count), before + 1);
    assert.equal(Number(await page.getByTestId('heat-E-5').getAttribute('data-count')), before + 1);
    // The cell opens the library's list filtered to it.
    await page.getByTestId('heat-E-5').click();
    await page.getByTestId('finder-results').waitFor();
    assert.match(page.url(), /\/controls\?tod=E&toe=5/);
    assert.equal(await page.getByTestId('finder-row').count(), before + 1);
  });

  screen('a client admin bulk-updates two mitigation actions', async (page) => {
    await signIn(page, 'admin');
    await openScreen(page, 'Mitigation actions');
    await pick(page, page, 'Status', 'Created');
    await page.waitForLoadState('networkidle');
    const rows = page.getByTestId('action-row');
    assert.ok((await rows.count()) >= 2, 'the demo has at least two created actions');
    const names = [await rows.nth(0).locator('td').nth(1).innerText(), await rows.nth(1).locator('td').nth(1).innerText()];
    await rows.nth(0).getByRole('checkbox').check();
    await rows.nth(1).getByRole('checkbox').check();
    await pick(page, page.getByTestId('bulk-bar'), 'New status', 'Completed');
    await page.getByRole('button', { name: 'Apply to selected' }).click();
    await page.getByRole('status').filter({ hasText: '2 actions updated.' }).waitFor();
    await pick(page, page, 'Status', 'Completed');
    await page.waitForLoadState('networkidle');
    for (const name of names) await page.getByTestId('action-row').filter({ hasText: name }).first().waitFor();
    assert.ok((await page.locator('[data-overdue]').count()) === 0, 'completed actions are never overdue');
  });

  screen('a reviewer exports the audit trail as CSV and verifies it', async (page) => {
    await signIn(page, 'reviewer');
    await openScreen(page, 'Audit trail');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    assert.match(download.suggestedFilename(), /\.csv$/);
    const text = readFileSync(await download.path(), 'utf8');
    const [header, ...lines] = text.trim().split(/\r?\n/);
    assert.match(header, /action_type/);
    assert.ok(lines.length > 0, 'the demo wrote audit entries');
    await page.getByRole('button', { name: 'Verify the trail' }).click();
    await page.getByTestId('verification').waitFor();
    assert.match(await page.getByTestId('verification').innerText(), /intact/);
  });

  screen('the risk register lists the rows of the approved BRAs and exports them as CSV', async (page) => {
    await signIn(page, 'admin');
    await openScreen(page, 'Risk register');
    const rows = page.getByTestId('register-row');
    await rows.first().waitFor();
    const shown = await rows.count();
    assert.ok(shown > 0, 'the demo approved a BRA');
    await expectAccessible(page, 'risk register');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    assert.match(download.suggestedFilename(), /^risk-register-\d{8}\.csv$/);
    const [header, ...lines] = readFileSync(await download.path(), 'utf8').trim().split(/\r?\n/);
    assert.match(header, /scenario_name/);
    assert.match(header, /above_appetite/);
    assert.equal(lines.length, shown, 'the export holds the rows the screen lists');
    await page.getByRole('status').filter({ hasText: /Downloaded risk-register-/ }).waitFor();
  });

  screen('the dashboard shows the inherent and residual risk heat maps, and a cell opens the register filtered to it', async (page) => {
    await signIn(page, 'admin');
    for (const kind of ['inherent', 'residual']) {
      const map = page.getByTestId(`risk-heat-map-${kind}`);
      await map.waitFor();
      assert.equal(await map.getByRole('link').count(), 25, `${kind}: 25 cells`);
    }
    await page.getByTestId('above-appetite').waitFor();
    await expectAccessible(page, 'dashboard with the risk heat maps');
    const cells = page.getByTestId('risk-heat-map-residual').getByRole('link');
    const counts = await cells.evaluateAll((links) => links.map((link) => Number(link.getAttribute('data-count'))));
    const index = counts.findIndex((count) => count > 0);
    assert.ok(index >= 0, 'the demo rated some scenarios');
    const cell = cells.nth(index);
    const testId = await cell.getAttribute('data-testid');
    const [, impact, likelihood] = /risk-residual-(\d)-(\d)/.exec(testId);
    await cell.click();
    await page.getByRole('heading', { name: 'Risk register' }).waitFor();
    const url = new URL(page.url());
    assert.equal(url.pathname, '/risk-register');
    assert.equal(url.searchParams.get('residual_impact'), impact);
    assert.equal(url.searchParams.get('residual_likelihood'), likelihood);
    await page.getByTestId('cell-filter').filter({ hasText: `Residual impact ${impact} × likelihood ${likelihood}` }).waitFor();
    await page.getByTestId('register-row').first().waitFor();
    assert.equal(await page.getByTestId('register-row').count(), Math.min(counts[index], 25), 'the register lists exactly the cell’s rows');
    for (const badge of await page.getByTestId('register-row').locator('[data-rating="residual"]').allInnerTexts()) {
      assert.match(badge, new RegExp(`^${Number(impact) * Number(likelihood)} · `), 'each row is rated in that cell');
    }
  });

  screen('a reviewer downloads the PDF report of a BRA in one click', async (page) => {
    await signIn(page, 'reviewer');
    await openScreen(page, 'BRAs');
    await page.getByRole('link', { name: 'Treasury operations BRA FY2026' }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download PDF report' }).click()]);
    assert.match(download.suggestedFilename(), /^bra-report-[0-9a-f-]+\.pdf$/);
    assert.equal(readFileSync(await download.path()).subarray(0, 5).toString('latin1'), '%PDF-');
  });

  screen('a client admin invites a user, resends the invitation, deactivates and reactivates them', async (page) => {
    await signIn(page, 'admin');
    await openScreen(page, 'Users');
    const email = `new.assessor.${Date.now()}@example.com`;
    await page.getByLabel(/^E-mail/).fill(email);
    await page.getByLabel(/^Full name/).fill('Nadia Okafor');
    await page.getByRole('button', { name: 'Invite user' }).click();
    await page.getByTestId('invited').filter({ hasText: email }).waitFor();
    const row = page.getByTestId('user-row').filter({ hasText: email });
    await row.getByTestId('invitation-status').waitFor();
    // A client admin is offered no change to another client admin (D5).
    const admins = page.getByTestId('user-row').filter({ hasText: 'Client admin' });
    assert.ok((await admins.count()) > 0);
    assert.equal(await admins.getByRole('button', { name: /^Resend invitation/ }).count(), 0);
    await row.getByRole('button', { name: 'Resend invitation to Nadia Okafor' }).click();
    await page.getByTestId('invitation-resent').filter({ hasText: email }).waitFor();
    await expectAccessible(page, 'users with invitations');
    await row.getByRole('button', { name: 'Deactivate Nadia Okafor' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Deactivate', exact: true }).click();
    await row.waitFor({ state: 'detached' });
    await page.getByLabel('Show deactivated users').check();
    const gone = page.getByTestId('user-row').filter({ hasText: email });
    await gone.getByText('Deactivated').waitFor();
    await gone.getByRole('button', { name: 'Reactivate Nadia Okafor' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Reactivate', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Nadia Okafor is active again.' }).waitFor();
    await gone.getByRole('button', { name: 'Deactivate Nadia Okafor' }).waitFor();
  });

  screen('a reviewer finds no edit controls', async (page) => {
    await signIn(page, 'reviewer');
    await openScreen(page, 'BRAs');
    assert.equal(await page.getByRole('button', { name: 'New BRA' }).count(), 0);
    await page.getByRole('link', { name: 'Treasury operations BRA FY2026' }).click();
    await page.getByTestId('scenario-row').first().waitFor();
    assert.match(await page.getByTestId('bra-status').innerText(), /in progress/i);
    for (const label of ['Add scenario', 'Submit for review', 'Approve', 'Cancel BRA', 'Return to assessor']) {
      assert.equal(await page.getByRole('button', { name: label }).count(), 0, label);
    }
    assert.equal(await page.getByRole('button', { name: /^Rate / }).count(), 0);
    assert.ok((await page.getByRole('button', { name: /^View ratings of / }).count()) > 0);
    for (const toggle of await page.getByRole('switch').all()) assert.ok(await toggle.isDisabled());
    await page.getByRole('tab', { name: 'Controls' }).click();
    assert.equal(await page.getByRole('button', { name: 'Link control' }).count(), 0);
    await expectAccessible(page, 'BRA workspace (reviewer)');
    await openScreen(page, 'Controls');
    assert.equal(await page.getByRole('button', { name: /^Record test/ }).count(), 0);
    assert.equal(await page.getByLabel('New key control').count(), 0);
    await openScreen(page, 'Mitigation actions');
    await page.getByTestId('action-row').first().waitFor();
    assert.equal(await page.getByRole('checkbox').count(), 0);
    assert.equal(await page.getByRole('button', { name: /^(New action|Archive)/ }).count(), 0);
    await openScreen(page, 'Risk appetite');
    assert.equal(await page.getByRole('button', { name: 'Save appetite' }).count(), 0);
  });

  screen('on a 390-pixel phone the dashboard and a BRA read without sideways scrolling', async (page) => {
    await signIn(page, 'admin');
    await page.getByTestId('heat-A-1').waitFor();
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok((await overflow()) <= 0, 'the dashboard fits the width');
    await page.screenshot({ path: `${SCREENSHOTS}/phone-dashboard.png`, fullPage: true });
    await page.getByRole('button', { name: 'Navigation' }).click();
    await page.getByRole('link', { name: 'BRAs', exact: true }).click();
    await page.getByRole('link', { name: 'Treasury operations BRA FY2026' }).click();
    await page.getByTestId('scenario-row').first().waitFor();
    assert.ok((await overflow()) <= 0, 'the workspace fits the width');
    await expectAccessible(page, 'BRA workspace on a phone');
  }, { width: 390, height: 844 });
});
