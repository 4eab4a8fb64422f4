// End-to-end: what a client admin and a reviewer oversee, in Chromium against the real service (embedded
// engine, demo data): the audit trail's entries in detail with their filters and signed checkpoints, the
// register's flags, the dashboard's overdue actions, trend and untested controls, and the appetite of a
// business unit with its history. Screenshots in web/test-results/screenshots; axe-core on each screen.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { apiAs, expectAccessible, screen, service, signIn } from './scenario.mjs';

async function openScreen(page, label) {
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: label, exact: true }).click();
  await page.getByRole('heading', { name: label, level: 1 }).waitFor();
  await page.waitForLoadState('networkidle');
}

describe('oversight: audit trail, register, dashboard, appetite', () => {
  screen('a reviewer reads what changed on a record, keeps to that record, signs a checkpoint and checks the trail against it', async (page) => {
    await signIn(page, 'reviewer');
    await openScreen(page, 'Audit trail');
    await page.getByRole('combobox', { name: 'Record kind' }).click();
    await page.getByRole('option', { name: 'BRA', exact: true }).click();
    await page.waitForLoadState('networkidle');
    await page.getByRole('button', { name: /^Open the entry of / }).first().click();
    const drawer = page.getByRole('dialog', { name: 'Audit entry' });
    await drawer.getByRole('heading', { name: 'What changed' }).waitFor();
    assert.match(await drawer.innerText(), /BRA/);
    await drawer.getByRole('link', { name: 'Open this BRA' }).waitFor();
    await expectAccessible(page, 'an audit entry in detail');
    await drawer.getByRole('button', { name: "Only this record's entries" }).click();
    await page.getByTestId('chosen-filters').waitFor();
    await page.waitForLoadState('networkidle');
    assert.ok((await page.getByRole('button', { name: /^Open the entry of / }).count()) >= 1);

    await page.getByRole('tab', { name: 'Signed checkpoints' }).click();
    await page.getByRole('button', { name: 'Sign the trail now' }).click();
    await page.getByText('Checkpoint signed').waitFor();
    const kept = (await (await apiAs('reviewer'))('GET', '/audit/checkpoints?page_size=1')).data[0];
    await page.getByLabel('The checkpoint (JSON, as listed)').fill(JSON.stringify(kept));
    await page.getByRole('button', { name: 'Check against this checkpoint' }).click();
    const verdict = page.getByTestId('verification');
    await verdict.waitFor();
    assert.match(await verdict.innerText(), /intact/);
    assert.match(await verdict.innerText(), /the checkpoint you kept/);
    await expectAccessible(page, 'signed checkpoints');
  });

  screen('the register flags a scenario not yet rated instead of calling it within appetite', async (page) => {
    const assessor = await apiAs('assessor');
    const entity = (await assessor('GET', '/legal-entities')).data[0];
    const scenario = (await assessor('GET', '/risk-scenarios')).data[0];
    const bra = (await assessor('POST', '/bras', { name: `Unrated scenarios ${Date.now()}`, legal_entity_id: entity.id, period: 'FY2028', assessor: 'Demo assessor' })).data;
    await assessor('POST', `/bras/${bra.id}/scenarios`, { risk_scenario_id: scenario.id });
    await signIn(page, 'assessor');
    await page.goto(`${service.baseUrl}/risk-register?include_live=true&legal_entity_id=${entity.id}`);
    const row = page.getByTestId('register-row').filter({ hasText: bra.name });
    await row.first().waitFor();
    assert.equal(await row.first().locator('[data-flag="unrated"]').count(), 1);
    assert.doesNotMatch(await row.first().innerText(), /Within \d+/);
    await expectAccessible(page, 'register with flags');
  });

  screen('the dashboard shows overdue actions by priority, the residual trend and the untested controls', async (page) => {
    await signIn(page, 'admin');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await page.getByTestId('overdue-actions').waitFor();
    await page.getByTestId('residual-trend').waitFor();
    await page.getByTestId('untested-controls').waitFor();
    assert.match(await page.getByTestId('untested-controls').innerText(), /\d+ of \d+/);
    await expectAccessible(page, 'dashboard');
  });

  screen("a client admin sets a business unit's appetite, sees it named with its entity and who set it, and removes it", async (page) => {
    const admin = await apiAs('admin');
    const entity = (await admin('GET', '/legal-entities')).data.find((candidate) => candidate.business_units.some((unit) => unit.archived_at === null));
    assert.ok(entity, 'the demo has a legal entity with a business unit');
    const unit = entity.business_units.find((candidate) => candidate.archived_at === null);
    const person = await signIn(page, 'admin');
    await openScreen(page, 'Risk appetite');
    await page.getByRole('combobox', { name: 'Legal entity' }).click();
    await page.getByRole('option', { name: entity.name, exact: true }).click();
    await page.getByRole('combobox', { name: 'Business unit' }).click();
    await page.getByRole('option', { name: unit.name, exact: true }).click();
    // Outside 1–25 the form refuses the threshold itself: nothing is sent, nothing is clamped.
    await page.getByLabel(/^Threshold/).fill('30');
    await page.getByRole('button', { name: 'Save appetite' }).click();
    await page.getByText('A whole number from 1 to 25').waitFor();
    assert.equal(await page.getByLabel(/^Threshold/).inputValue(), '30');
    await page.getByLabel(/^Threshold/).fill('7');
    await page.getByLabel('Reason for the change').fill('The unit runs card payments.');
    await page.getByRole('button', { name: 'Save appetite' }).click();
    await page.getByText('Appetite saved').waitFor();
    const scope = `${entity.name} › ${unit.name}`;
    const history = page.getByRole('row').filter({ hasText: 'The unit runs card payments.' });
    await history.first().waitFor();
    assert.match(await history.first().innerText(), new RegExp(`${scope.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[\\s\\S]*${person.name}`));
    await expectAccessible(page, 'appetite per business unit');
    await page.getByRole('button', { name: `Remove the override of ${scope}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await page.getByText('Override removed').waitFor();
  });

  screen('a screen a role may not open says "no access", an unknown address says nothing is there', async (page) => {
    await signIn(page, 'reviewer');
    await page.goto(`${service.baseUrl}/admin/users`);
    await page.getByTestId('no-access').waitFor();
    assert.match(await page.getByTestId('no-access').innerText(), /No access/);
    await expectAccessible(page, 'no access');
    await page.goto(`${service.baseUrl}/no-such-screen`);
    await page.getByRole('heading', { name: 'Nothing here' }).waitFor();
  });
});
