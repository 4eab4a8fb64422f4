// End-to-end: a BRA's history in Chromium against the real service. An approved BRA keeps its approved view
// while today's appetite breaches show; the client admin rolls it forward, sees the open actions to re-link
// and the diff against the approval, edits the new BRA, adds scenarios in bulk, links a control to one
// scenario and unlinks it, reads a scenario's trend across periods and downloads the XLSX report.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { apiAs, expectAccessible, expectWholeOnPhone, screen, service, signIn } from './scenario.mjs';

/** An approved BRA of a new entity, within an appetite of 20, then the appetite lowered to 10 (below one residual score). */
async function approvedBra() {
  const admin = await apiAs('admin');
  const stamp = Date.now();
  const entity = (await admin('POST', '/admin/legal-entities', { name: `Harbour History ${stamp}` })).data;
  const appetite = (threshold) => admin('POST', '/governance/risk-appetite', { risk_level: 'High', threshold_value: threshold, legal_entity_id: entity.id });
  await appetite(20);
  const catalogue = (await admin('GET', '/risk-scenarios?page_size=100')).data;
  assert.ok(catalogue.length >= 4, 'the demo catalogue has four scenarios or more');
  const bra = (await admin('POST', '/bras', { name: `Card payments FY2026 ${stamp}`, legal_entity_id: entity.id, period: 'FY2026', assessor: 'Demo assessor' })).data;
  const links = [];
  for (const scenario of catalogue.slice(0, 2)) links.push((await admin('POST', `/bras/${bra.id}/scenarios`, { risk_scenario_id: scenario.id })).data);
  for (const link of links) {
    await admin('POST', `/bras/${bra.id}/ratings`, { bra_risk_scenario_id: link.id, rating_type: 'inherent', impact_score: 5, likelihood_score: 4 });
    await admin('POST', `/bras/${bra.id}/ratings`, { bra_risk_scenario_id: link.id, rating_type: 'residual', impact_score: 4, likelihood_score: 3 });
  }
  await admin('POST', '/mitigation-actions', {
    action: 'Move card payments to tokenised storage',
    owner: 'Payments lead',
    priority: 'high',
    action_type: 'Preventive',
    due_date: '2027-03-31',
    bra_id: bra.id,
    bra_risk_scenario_id: links[0].id,
  });
  await admin('POST', `/bras/${bra.id}/approve`, { final_comment: 'Residual risk within appetite.' });
  await appetite(10);
  return { bra, scenarios: catalogue.slice(0, 4) };
}

let rolledId;

describe("a BRA's history", () => {
  screen('the approved view stays as approved, the client admin rolls forward, compares with the approval and works the next period', async (page) => {
    const { bra, scenarios } = await approvedBra();
    await signIn(page, 'admin');
    await page.goto(`${service.baseUrl}/bras/${bra.id}`);
    await page.getByTestId('approval').waitFor();
    // Approved under a threshold of 20: nothing above it as approved, while today's 10 is crossed by both residual 12s.
    assert.equal(await page.getByTestId('stat-Above appetite').locator('p').last().innerText(), '0');
    assert.match(await page.getByTestId('current-breaches').innerText(), new RegExp(`${scenarios[0].name}: residual 12 above 10`));
    await expectAccessible(page, 'approved BRA with today’s breaches');

    // Roll forward: the open action stays behind, listed to re-link.
    await page.getByRole('button', { name: 'Roll forward' }).click();
    const roll = page.getByRole('dialog');
    const next = `Card payments FY2027 ${Date.now()}`;
    await roll.getByLabel(/^Name of the new BRA/).fill(next);
    await roll.getByLabel(/^Period/).fill('FY2027');
    await roll.getByRole('button', { name: 'Open the next period' }).click();
    assert.match(await roll.getByTestId('open-actions').innerText(), /Move card payments to tokenised storage \(Payments lead\)/);
    await expectAccessible(page, 'rolled forward with its open actions');
    await roll.getByRole('link', { name: next }).click();
    await page.getByRole('heading', { name: next }).waitFor();
    assert.match(await page.getByTestId('bra-status').innerText(), /draft/i);
    rolledId = new URL(page.url()).pathname.split('/').pop();
    assert.match(await page.getByTestId('scenario-row').first().innerText(), /12 · high/i);

    // The diff against the previous period's approval: the ratings not carried, the figures they move.
    await page.getByRole('tab', { name: 'Snapshots' }).click();
    await page.getByTestId('snapshot-row').filter({ hasText: 'previous period' }).waitFor();
    await page.getByRole('button', { name: 'Show changes' }).click();
    const ratings = page.getByTestId('diff-Ratings');
    await ratings.waitFor();
    assert.match(await ratings.locator('thead').innerText(), /At approval \(previous period\)[\s\S]*Now/);
    assert.match(await ratings.innerText(), new RegExp(`${scenarios[0].name}\\s+Residual\\s+12 · \\w+[^\\n]*\\s+Not rated`, 'i'));
    assert.match(await page.getByTestId('diff-Figures').innerText(), /Assessed\s+2\s+0\s+-2/i);
    await expectAccessible(page, 'diff against the approval');

    // The new BRA's own fields.
    await page.getByRole('button', { name: 'Edit details' }).click();
    const edit = page.getByRole('dialog');
    await edit.getByLabel('Description').fill('Card payments after the move to tokenised storage.');
    await edit.getByRole('button', { name: 'Save details' }).click();
    await edit.waitFor({ state: 'detached' });
    assert.match(await page.getByTestId('bra-description').innerText(), /tokenised storage/);

    // Two catalogue scenarios at once.
    await page.getByRole('tab', { name: 'Scenarios' }).click();
    await page.getByRole('combobox', { name: 'Scenario from the catalogue' }).click();
    for (const scenario of scenarios.slice(2, 4)) await page.getByRole('option', { name: new RegExp(`^${scenario.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(`) }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Add 2 scenarios' }).click();
    await page.getByTestId('scenario-row').nth(3).waitFor();

    // A control linked to one scenario, shown on its row, then unlinked after confirming.
    await page.getByRole('tab', { name: 'Controls' }).click();
    await page.getByRole('combobox', { name: 'Sub-control from the library' }).click();
    const subControl = (await page.getByRole('option').first().innerText()).trim();
    await page.getByRole('option').first().click();
    await page.getByRole('combobox', { name: 'Mitigates' }).click();
    await page.getByRole('option', { name: `Scenario: ${scenarios[0].name}` }).click();
    await page.getByRole('button', { name: 'Link control' }).click();
    const linkRow = page.getByTestId('control-link').filter({ hasText: subControl }).filter({ hasText: scenarios[0].name });
    await linkRow.waitFor();
    await expectAccessible(page, 'a control linked to a scenario');
    await page.getByRole('tab', { name: 'Scenarios' }).click();
    assert.match(await page.getByTestId('scenario-row').filter({ hasText: scenarios[0].name }).getByTestId('scenario-controls').innerText(), /^1 · /);
    await page.getByRole('tab', { name: 'Controls' }).click();
    await linkRow.getByRole('button', { name: `Unlink ${subControl}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Unlink' }).click();
    await linkRow.waitFor({ state: 'detached' });

    // The scenario across approved periods, beside its ratings.
    await page.getByRole('tab', { name: 'Scenarios' }).click();
    await page.getByTestId('scenario-row').filter({ hasText: scenarios[0].name }).getByRole('button', { name: /^Rate / }).click();
    const trend = page.getByRole('dialog').getByTestId('scenario-trend');
    await trend.waitFor();
    assert.match(await trend.getAttribute('aria-label'), new RegExp(`FY2026 · ${bra.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} inherent 20, residual 12`));
    await expectAccessible(page, 'ratings with the trend');
    await page.keyboard.press('Escape');

    // The report as a workbook.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download XLSX report' }).click()]);
    assert.match(download.suggestedFilename(), /\.xlsx$/);
  });

  screen('on a 390-pixel phone the workspace shows every badge whole', async (page) => {
    assert.ok(rolledId, 'the scenario above opened a BRA');
    await signIn(page, 'admin');
    await page.goto(`${service.baseUrl}/bras/${rolledId}`);
    await page.getByTestId('scenario-row').first().waitFor();
    await expectWholeOnPhone(page);
    await expectAccessible(page, 'workspace on a phone');
  }, { width: 390, height: 844 });
});
