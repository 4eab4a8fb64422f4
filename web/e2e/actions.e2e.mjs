// End-to-end: mitigation actions in Chromium against the real service. A client admin creates an action
// linked to a scenario of a BRA, edits it, attaches a file to it, changes two actions at once (owner and due date), archives one
// after confirming and finds it again among the archived; overdue actions are marked in words, and the
// screen keeps its badges whole on a phone.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { apiAs, expectAccessible, expectWholeOnPhone, screen, service, signIn } from './scenario.mjs';

async function choose(page, scope, label, option) {
  await scope.getByLabel(new RegExp(`^${label}( \\*)?$`)).first().click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function openActions(page) {
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Mitigation actions', exact: true }).click();
  await page.getByRole('heading', { name: 'Mitigation actions' }).waitFor();
  await page.waitForLoadState('networkidle');
}

describe('mitigation actions', () => {
  screen('a client admin links an action to a scenario, edits it, changes two at once, archives it and finds it again', async (page) => {
    const admin = await apiAs('admin');
    const entity = (await admin('GET', '/legal-entities')).data[0];
    const scenario = (await admin('GET', '/risk-scenarios')).data[0];
    const bra = (await admin('POST', '/bras', { name: `Treasury actions BRA ${Date.now()}`, legal_entity_id: entity.id, period: 'FY2027', assessor: 'Demo assessor' })).data;
    await admin('POST', `/bras/${bra.id}/scenarios`, { risk_scenario_id: scenario.id });
    const stamp = Date.now();
    const title = `Tokenise stored card numbers ${stamp}`;
    const second = (await admin('POST', '/mitigation-actions', { action: `Rotate HSM keys ${stamp}`, owner: 'Security', priority: 'low', action_type: 'Technology', due_date: '2020-01-31' })).data;

    await signIn(page, 'admin');
    await openActions(page);
    // The overdue action is marked in words, not by colour alone.
    const overdue = page.getByTestId('action-row').filter({ hasText: second.action });
    await overdue.waitFor();
    assert.match(await overdue.innerText(), /Overdue/i);

    await page.getByRole('button', { name: 'New action' }).click();
    const create = page.getByRole('dialog');
    await create.getByLabel(/^Action/).fill(title);
    await create.getByLabel(/^Owner/).fill('Payments lead');
    await create.getByLabel(/^Type/).fill('Technology');
    await create.getByRole('textbox', { name: /^Due date/ }).fill('2027-06-30');
    await page.keyboard.press('Enter');
    // Away from the date, so its calendar closes before the next field.
    await create.getByLabel(/^Type/).click();
    await choose(page, create, 'BRA', bra.name);
    await choose(page, create, 'Scenario it treats', scenario.name);
    await expectAccessible(page, 'new action linked to a scenario');
    await create.getByRole('button', { name: 'Create action' }).click();
    await create.waitFor({ state: 'detached' });
    const row = page.getByTestId('action-row').filter({ hasText: title });
    await row.waitFor();
    assert.match(await row.innerText(), new RegExp(`${bra.name}[\\s\\S]*${scenario.name}`));

    // Edited: priority and status.
    await row.getByRole('button', { name: `Edit ${title}` }).click();
    const edit = page.getByRole('dialog');
    await choose(page, edit, 'Priority', 'Critical');
    await choose(page, edit, 'Status', 'In progress');
    // Assigned to a member: the client admin picks themself among the enterprise's members.
    await edit.getByLabel(/^Assigned to \(user\)/).click();
    await page.getByRole('option', { name: /\(me\)$/ }).click();
    await edit.getByRole('button', { name: 'Save action' }).click();
    await edit.waitFor({ state: 'detached' });
    await row.filter({ hasText: 'critical' }).filter({ hasText: 'In progress' }).waitFor();
    await row.filter({ hasText: 'Assigned to' }).waitFor();
    // "Assigned to me" lists it, and not the unassigned one.
    await page.getByRole('switch', { name: 'Assigned to me' }).click();
    await overdue.waitFor({ state: 'detached' });
    await row.waitFor();
    await page.getByRole('switch', { name: 'Assigned to me' }).click();
    await overdue.waitFor();

    // Proof of the work, attached to the action.
    await row.getByRole('button', { name: `Files of ${title}` }).click();
    const files = page.getByRole('dialog').getByTestId('evidence-mitigation_action');
    await files.getByRole('button', { name: 'Choose a file' }).waitFor();
    await files.locator('input[type=file]').setInputFiles({ name: 'tokenisation design.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.7\n%%EOF\n') });
    await files.getByTestId('evidence-file').filter({ hasText: 'tokenisation design.pdf' }).waitFor();
    await expectAccessible(page, 'an action’s evidence');
    await page.keyboard.press('Escape');
    await files.waitFor({ state: 'detached' });

    // Two at once: a new owner and due date for both.
    await row.getByRole('checkbox').check();
    await overdue.getByRole('checkbox').check();
    const bar = page.getByTestId('bulk-bar');
    await bar.getByLabel('New owner').fill('Treasury operations');
    await bar.getByRole('textbox', { name: 'New due date' }).fill('2027-09-30');
    await page.keyboard.press('Enter');
    await bar.getByLabel('New owner').click();
    await bar.getByRole('button', { name: 'Apply to selected' }).click();
    await page.getByText('2 actions updated.').first().waitFor();
    for (const name of [title, second.action]) {
      await page.getByTestId('action-row').filter({ hasText: name }).filter({ hasText: 'Treasury operations' }).filter({ hasText: '2027-09-30' }).waitFor();
    }
    assert.doesNotMatch(await page.getByTestId('action-row').filter({ hasText: second.action }).innerText(), /Overdue/i);
    await expectAccessible(page, 'actions after a bulk change');

    // Archived after confirming; gone from the list, found with "Archived too".
    await row.getByRole('button', { name: `Archive ${title}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Archive' }).click();
    await page.getByText(`${title} is archived.`).waitFor();
    await row.waitFor({ state: 'detached' });
    await page.getByRole('switch', { name: 'Archived too' }).click();
    const found = page.getByTestId('action-row').filter({ hasText: title });
    await found.waitFor();
    assert.match(await found.innerText(), /Archived/i);
    assert.equal(await found.getByRole('button', { name: `Edit ${title}` }).count(), 0);
    await expectAccessible(page, 'archived actions');
  });

  screen('on a 390-pixel phone the actions keep every badge whole', async (page) => {
    await signIn(page, 'admin');
    await page.goto(`${service.baseUrl}/actions`);
    await page.getByTestId('action-row').first().waitFor();
    await expectWholeOnPhone(page);
    await expectAccessible(page, 'actions on a phone');
  }, { width: 390, height: 844 });
});
