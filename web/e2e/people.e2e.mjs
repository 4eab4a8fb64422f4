// End-to-end: the people of an enterprise (issue 46, "People") in Debian's Chromium against the real service.
// A client admin invites an assessor and a reviewer, who join through the invitation mail's link (followed
// as a browser follows it, then a password); the admin grants them entities, changes the
// reviewer's role, removes a grant, deactivates and reactivates one; every screen checked with axe-core.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { SCREENSHOTS } from './browser.mjs';
import { expectAccessible, joinFromMail, screen, service, signIn } from './scenario.mjs';

async function openUsers(page) {
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Users', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
  await page.waitForLoadState('networkidle');
}

async function toast(page, text) {
  await page.locator('.mantine-Notification-root').filter({ hasText: text }).first().waitFor();
}

async function confirm(page, button) {
  await page.getByRole('dialog').getByRole('button', { name: button, exact: true }).click();
}

const rowOf = (page, email) => page.getByTestId('user-row').filter({ hasText: email });

async function invite(page, { email, name, role }) {
  await page.getByLabel(/^E-mail/).fill(email);
  await page.getByLabel(/^Full name/).fill(name);
  await page.getByLabel('Role', { exact: true }).selectOption(role);
  await page.getByRole('button', { name: 'Invite user' }).click();
  await toast(page, `${name} was invited as ${role}.`);
  await rowOf(page, email).getByText('Invited, not yet joined').waitFor();
}

/** Grants the member the legal entity at `entityIndex` of the list, and its first unit when asked. */
async function grant(page, name, { entityIndex, withUnit }) {
  const drawer = page.getByRole('dialog', { name: `Entity access of ${name}` });
  const entities = drawer.getByLabel('Legal entity');
  await entities.waitFor();
  const options = await entities.locator('option').evaluateAll((nodes) => nodes.map((node) => ({ value: node.value, label: node.textContent })));
  const entity = options.filter((option) => option.value !== '')[entityIndex];
  assert.ok(entity, 'the demo enterprise has legal entities to grant');
  await entities.selectOption(entity.value);
  let unitLabel = null;
  if (withUnit) {
    const units = await drawer.getByLabel('Business unit').locator('option').evaluateAll((nodes) => nodes.map((node) => ({ value: node.value, label: node.textContent })));
    const unit = units.find((option) => option.value !== '');
    if (unit) {
      await drawer.getByLabel('Business unit').selectOption(unit.value);
      unitLabel = unit.label;
    }
  }
  await drawer.getByRole('button', { name: 'Grant access' }).click();
  await toast(page, `${name} now sees ${entity.label}${unitLabel ? ` › ${unitLabel}` : ''}.`);
  return { entity: entity.label, unit: unitLabel };
}

describe('the people of an enterprise', () => {
  screen('a client admin invites an assessor and a reviewer, grants them entities, changes a role, removes a grant, deactivates and reactivates', async (page) => {
    const stamp = Date.now();
    const assessor = { email: `priya.raman.${stamp}@example.com`, name: 'Priya Raman', role: 'assessor' };
    const reviewer = { email: `tom.becker.${stamp}@example.com`, name: 'Tom Becker', role: 'reviewer' };
    const admin = await signIn(page, 'admin');
    await openUsers(page);

    // Invitations: a client admin is offered assessor and reviewer only (D5).
    const offered = await page.getByLabel('Role', { exact: true }).locator('option').allTextContents();
    assert.deepEqual(offered, ['Assessor', 'Reviewer']);
    await invite(page, assessor);
    await invite(page, reviewer);
    await expectAccessible(page, 'users with two invitations');

    // They join through their mail's link; the screen says so in words.
    await joinFromMail(assessor.email, 'a long enough passphrase');
    await joinFromMail(reviewer.email, 'a long enough passphrase');
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    await rowOf(page, assessor.email).getByText('Joined').waitFor();
    await rowOf(page, reviewer.email).getByText('Joined').waitFor();

    // One's own membership is explained, not offered.
    const own = rowOf(page, admin.email);
    await own.getByText('You cannot change your own role.').waitFor();
    assert.equal(await own.getByRole('button', { name: /^Deactivate/ }).count(), 0);
    assert.equal(await own.getByRole('combobox').count(), 0);

    // Entity access: the assessor gets two places, the reviewer one.
    await rowOf(page, assessor.email).getByRole('button', { name: `Manage access of ${assessor.name}` }).click();
    const first = await grant(page, assessor.name, { entityIndex: 0, withUnit: false });
    const second = await grant(page, assessor.name, { entityIndex: 1, withUnit: true });
    const drawer = page.getByRole('dialog', { name: `Entity access of ${assessor.name}` });
    await drawer.getByTestId('entity-grant').nth(1).waitFor();
    await expectAccessible(page, 'entity access drawer');
    await page.screenshot({ path: `${SCREENSHOTS}/people-entity-access.png`, fullPage: true });

    // Removing a grant asks first.
    const firstPlace = `${first.entity} (whole entity)`;
    await drawer.getByRole('button', { name: `Remove ${firstPlace}` }).click();
    await page.getByRole('dialog', { name: `Remove ${assessor.name}'s access to ${firstPlace}?` }).waitFor();
    await expectAccessible(page, 'remove grant confirmation');
    await confirm(page, 'Remove');
    await toast(page, `${assessor.name} no longer sees ${firstPlace}.`);
    await drawer.getByTestId('entity-grant').first().waitFor();
    assert.equal(await drawer.getByTestId('entity-grant').count(), 1);
    assert.match(await drawer.getByTestId('entity-grant').first().textContent(), new RegExp(second.entity));
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });

    await rowOf(page, reviewer.email).getByRole('button', { name: `Manage access of ${reviewer.name}` }).click();
    await grant(page, reviewer.name, { entityIndex: 0, withUnit: false });
    await page.keyboard.press('Escape');

    // The reviewer becomes an assessor: only the roles the caller may grant are offered.
    const reviewerRole = rowOf(page, reviewer.email).getByLabel(`Role of ${reviewer.name}`);
    assert.deepEqual(await reviewerRole.locator('option').allTextContents(), ['Assessor', 'Reviewer']);
    await reviewerRole.selectOption('assessor');
    await toast(page, `${reviewer.name} is now assessor.`);
    await page.waitForLoadState('networkidle');
    assert.equal(await rowOf(page, reviewer.email).getByLabel(`Role of ${reviewer.name}`).inputValue(), 'assessor');

    // Deactivate and reactivate, each after confirming.
    await rowOf(page, assessor.email).getByRole('button', { name: `Deactivate ${assessor.name}` }).click();
    await page.getByRole('dialog', { name: `Deactivate ${assessor.name}?` }).waitFor();
    await expectAccessible(page, 'deactivate confirmation');
    await confirm(page, 'Deactivate');
    await toast(page, `${assessor.name} can no longer sign in.`);
    await rowOf(page, assessor.email).waitFor({ state: 'detached' });
    await page.getByLabel('Show deactivated users').check();
    const gone = rowOf(page, assessor.email);
    await gone.getByText('Deactivated').waitFor();
    await gone.getByText('Reactivate the user to change their role.').waitFor();
    await gone.getByRole('button', { name: `Reactivate ${assessor.name}` }).click();
    await confirm(page, 'Reactivate');
    await toast(page, `${assessor.name} is active again.`);
    await gone.getByRole('button', { name: `Deactivate ${assessor.name}` }).waitFor();
    await expectAccessible(page, 'users after the changes');
  });

  screen('the users screen at 390 pixels wide', async (page) => {
    await signIn(page, 'admin');
    await page.goto(`${service.baseUrl}/admin/users`);
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    await page.getByTestId('user-row').first().waitFor();
    await expectAccessible(page, 'users at 390 px');
  }, { width: 390, height: 844 });
});
