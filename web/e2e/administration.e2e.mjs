// End-to-end: the platform and integration screens (issue 46) in Debian's Chromium against the real service
// (embedded engine, demo data), each test saving a screenshot and checking its screens with axe-core.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { expectAccessible, screen, service, signIn } from './scenario.mjs';

async function openScreen(page, label) {
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: label, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: label }).waitFor();
  await page.waitForLoadState('networkidle');
}

async function toast(page, text) {
  await page.locator('.mantine-Notification-root').filter({ hasText: text }).first().waitFor();
}

async function confirm(page, button) {
  await page.getByRole('dialog').getByRole('button', { name: button, exact: true }).click();
}

/** The secret a dialog shows once, read and the dialog closed. */
async function secretShownOnce(page) {
  const secret = (await page.getByTestId('secret-once').textContent()).trim();
  await page.getByRole('button', { name: 'I have kept it' }).click();
  await page.getByTestId('secret-once').waitFor({ state: 'detached' });
  return secret;
}

/** Refused sign-ins for one account, enough (10 in 5 minutes) for the authentication alert of its enterprise. */
async function refusedSignIns(email) {
  const html = await (await fetch(`${service.baseUrl}/`)).text();
  const anonKey = html.match(/name="auth-anon-key" content="([^"]*)"/)?.[1] ?? '';
  for (let attempt = 0; attempt < 11; attempt += 1) {
    await fetch(`${service.baseUrl}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', apikey: anonKey },
      body: JSON.stringify({ email, password: `wrong-${attempt}` }),
    });
  }
}

describe('platform administration and integrations', () => {
  screen("the super admin sees an enterprise's health, changes its tier and resolves an alert", async (page) => {
    await refusedSignIns(service.people.reviewer.email);
    await signIn(page, 'super_admin');
    await openScreen(page, 'Enterprises');
    const row = page.getByRole('row').filter({ has: page.getByRole('button', { name: /^Health of / }) }).first();
    const name = (await row.getByRole('cell').first().textContent()).trim();
    await row.getByRole('button', { name: `Health of ${name}` }).click();
    const drawer = page.getByRole('dialog', { name: `Health of ${name}` });
    await drawer.getByTestId('health-score').waitFor();
    await drawer.getByText('Trend (last 90 days)').waitFor();
    await drawer.getByRole('columnheader', { name: 'Points off' }).waitFor();
    await expectAccessible(page, 'enterprise health');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });

    await row.getByLabel(`Tier of ${name}`).selectOption('professional');
    await toast(page, `${name} is now on the professional tier.`);
    await expectAccessible(page, 'enterprises');

    await openScreen(page, 'System alerts');
    const alert = page.getByRole('row').filter({ hasText: 'Repeated refused sign-ins for one account' }).first();
    for (let attempt = 0; attempt < 30 && !(await alert.isVisible()); attempt += 1) {
      await page.waitForTimeout(500);
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'System alerts' }).waitFor();
      await page.waitForLoadState('networkidle');
    }
    assert.ok(!(await page.getByRole('table').textContent()).includes('/api/v1'), 'alert texts name screens, not API paths');
    await alert.getByRole('link', { name: 'Open Users' }).waitFor();
    await expectAccessible(page, 'system alerts');
    await alert.getByRole('button', { name: 'Resolve' }).click();
    await toast(page, 'was resolved');
    await page.getByRole('row').filter({ hasText: 'Repeated refused sign-ins for one account' }).waitFor({ state: 'detached' });
  });

  screen('the super admin adds a super admin and removes them after confirming', async (page) => {
    await signIn(page, 'super_admin');
    await openScreen(page, 'Super admins');
    await page.getByLabel(/^E-mail/).fill('sam.ops@example.com');
    await page.getByLabel(/^Full name/).fill('Sam Ops');
    await page.getByRole('button', { name: 'Add super admin' }).click();
    await toast(page, 'Sam Ops was invited by mail as a super admin.');
    const row = page.getByRole('row').filter({ hasText: 'sam.ops@example.com' });
    await row.getByText('Invited, not yet joined').waitFor();
    await expectAccessible(page, 'super admins');
    await row.getByRole('button', { name: 'Remove' }).click();
    await confirm(page, 'Remove');
    await toast(page, 'Sam Ops is no longer a super admin.');
    await row.waitFor({ state: 'detached' });
  });

  screen('the client admin adds a webhook, sends a test, sees its delivery attempts and rotates its secret', async (page) => {
    await signIn(page, 'admin');
    await openScreen(page, 'Webhooks');
    await page.getByLabel(/^URL/).fill('https://hooks.example.com/risk-console-e2e');
    await page.getByLabel(/^Events( \*)?$/).first().click({ force: true });
    await page.getByRole('option', { name: 'bra.approved', exact: true }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const first = await secretShownOnce(page);
    assert.match(first, /^whsec_/);
    await toast(page, 'The endpoint was added.');
    const row = page.getByRole('row').filter({ hasText: 'https://hooks.example.com/risk-console-e2e' });
    await row.getByRole('button', { name: 'Send test' }).click();
    await toast(page, 'A test event is on its way');
    const deliveries = page.getByRole('heading', { name: 'Deliveries to https://hooks.example.com/risk-console-e2e' });
    await deliveries.waitFor();
    await page.getByRole('cell', { name: 'webhook.test' }).first().waitFor();
    await expectAccessible(page, 'webhooks and deliveries');
    await row.getByRole('button', { name: 'Rotate secret' }).click();
    await confirm(page, 'Rotate secret');
    const second = await secretShownOnce(page);
    assert.match(second, /^whsec_/);
    assert.notEqual(second, first);
    await toast(page, 'The secret was rotated');
    await row.getByRole('button', { name: 'Delete' }).click();
    await confirm(page, 'Delete');
    await toast(page, 'The endpoint was deleted.');
    await row.waitFor({ state: 'detached' });
  });

  screen('the client admin creates a service account with a token, rotates and revokes it, and provisions through SCIM', async (page) => {
    await signIn(page, 'admin');
    await openScreen(page, 'Service accounts');
    await page.getByLabel(/^Name/).fill('GRC data warehouse');
    await page.getByLabel('Role', { exact: true }).selectOption('reviewer');
    await page.getByLabel('Legal entities', { exact: true }).first().click({ force: true });
    await page.getByRole('listbox').getByRole('option').first().click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Create service account' }).click();
    await toast(page, 'GRC data warehouse was created');
    await page.getByRole('heading', { name: 'Tokens of GRC data warehouse' }).waitFor();
    await page.getByLabel(/^Token name/).fill('nightly load');
    await page.getByRole('button', { name: 'Issue token' }).click();
    const token = await secretShownOnce(page);
    assert.match(token, /^rsk_sa_/);
    const read = await fetch(`${service.baseUrl}/api/v1/legal-entities`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(read.status, 200, 'the token shown once works');
    await expectAccessible(page, 'service accounts');
    const tokenRow = page.getByRole('row').filter({ hasText: 'nightly load' }).filter({ hasText: 'active' }).first();
    await tokenRow.getByRole('button', { name: 'Rotate' }).click();
    await confirm(page, 'Rotate');
    const rotated = await secretShownOnce(page);
    assert.notEqual(rotated, token);
    await toast(page, 'nightly load was rotated');
    await page.getByRole('row').filter({ hasText: 'nightly load' }).filter({ hasText: 'active' }).first().getByRole('button', { name: 'Revoke' }).click();
    await confirm(page, 'Revoke');
    await toast(page, 'nightly load was revoked.');

    await openScreen(page, 'Provisioning (SCIM)');
    await page.getByLabel(/^Which provider holds it/).fill('Entra ID provisioning');
    await page.getByRole('button', { name: 'Issue provider token' }).click();
    const tenantUrl = (await page.getByRole('dialog').getByText(/\/scim\/v2$/).textContent()).trim();
    const scimToken = await secretShownOnce(page);
    assert.match(scimToken, /^rsk_scim_/);
    const pushed = await fetch(`${tenantUrl}/Groups`, {
      method: 'POST',
      headers: { 'content-type': 'application/scim+json', authorization: `Bearer ${scimToken}` },
      body: JSON.stringify({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: 'Risk assessors' }),
    });
    assert.equal(pushed.status, 201, await pushed.text());
    await page.reload();
    const group = page.getByRole('row').filter({ hasText: 'Risk assessors' });
    await group.getByRole('button', { name: 'Change mapping' }).click();
    await page.getByLabel('Role its members get').selectOption('assessor');
    await page.getByLabel('Legal entities its members may see', { exact: true }).first().click({ force: true });
    await page.getByRole('listbox').getByRole('option').first().click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Save mapping' }).click();
    await toast(page, 'Risk assessors is mapped to assessor.');
    await group.getByRole('cell', { name: 'assessor', exact: true }).waitFor();
    await expectAccessible(page, 'provisioning');
  });
});
