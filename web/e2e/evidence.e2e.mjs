// End-to-end: evidence files in Chromium against the real service. An assessor attaches a PDF to a BRA and a
// file to one of its scenarios; a refused file says why; the reviewer downloads the PDF and gets the bytes
// that were attached, and the audit trail's verification finds every file as uploaded; the assessor removes a
// file after confirming.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe } from 'node:test';
import { apiAs, expectAccessible, screen, service, signIn } from './scenario.mjs';

const PDF = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** A BRA of the assessor's (drafts are theirs to change), with one scenario. */
async function assessorsBra() {
  const assessor = await apiAs('assessor');
  const entity = (await assessor('GET', '/legal-entities')).data[0];
  const scenario = (await assessor('GET', '/risk-scenarios')).data[0];
  const bra = (await assessor('POST', '/bras', { name: `Evidence BRA ${Date.now()}`, legal_entity_id: entity.id, period: 'FY2027', assessor: 'Demo assessor' })).data;
  await assessor('POST', `/bras/${bra.id}/scenarios`, { risk_scenario_id: scenario.id });
  return { bra, scenario };
}

let shared;

describe('evidence files', () => {
  screen('an assessor attaches a PDF to a BRA and a file to a scenario; a refused file says why', async (page) => {
    shared = await assessorsBra();
    await signIn(page, 'assessor');
    await page.goto(`${service.baseUrl}/bras/${shared.bra.id}`);
    await page.getByRole('tab', { name: 'Evidence' }).click();
    const panel = page.getByTestId('evidence-bra');
    await panel.getByRole('button', { name: 'Choose a file' }).waitFor();
    await panel.locator('input[type=file]').setInputFiles({ name: 'Q3 access review.pdf', mimeType: 'application/pdf', buffer: PDF });
    const row = panel.getByTestId('evidence-file').filter({ hasText: 'Q3 access review.pdf' });
    await row.waitFor();
    assert.match(await row.innerText(), /application\/pdf/);
    assert.equal(await row.locator('[data-sha256]').getAttribute('data-sha256'), sha256(PDF));
    // An executable, whatever it is called, is refused with the service's reason.
    await panel.locator('input[type=file]').setInputFiles({ name: 'minutes.pdf', mimeType: 'application/pdf', buffer: readFileSync('/bin/true') });
    await panel.getByText(/cannot be kept as evidence/).waitFor();
    assert.equal(await panel.getByTestId('evidence-file').count(), 1);
    await expectAccessible(page, 'BRA evidence');

    await page.getByRole('tab', { name: 'Scenarios' }).click();
    await page.getByTestId('scenario-row').first().getByRole('button', { name: /^Rate / }).click();
    const dialog = page.getByRole('dialog');
    const scenarioPanel = dialog.getByTestId('evidence-bra_scenario');
    await scenarioPanel.getByRole('button', { name: 'Choose a file' }).waitFor();
    await scenarioPanel.locator('input[type=file]').setInputFiles({ name: 'loss-data.csv', mimeType: 'text/csv', buffer: Buffer.from('month,loss\n2026-09,1200\n') });
    await scenarioPanel.getByTestId('evidence-file').filter({ hasText: 'loss-data.csv' }).waitFor();
    await expectAccessible(page, 'scenario evidence');
    await page.keyboard.press('Escape');

    // Removed after confirming: gone from the list.
    await page.getByRole('tab', { name: 'Evidence' }).click();
    await panel.locator('input[type=file]').setInputFiles({ name: 'draft notes.txt', mimeType: 'text/plain', buffer: Buffer.from('superseded') });
    await panel.getByTestId('evidence-file').filter({ hasText: 'draft notes.txt' }).waitFor();
    await panel.getByRole('button', { name: 'Remove draft notes.txt' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await panel.getByTestId('evidence-file').filter({ hasText: 'draft notes.txt' }).waitFor({ state: 'detached' });
  });

  screen('the reviewer downloads the PDF as it was attached, and may not attach', async (page) => {
    assert.ok(shared, 'the scenario above made a BRA');
    await signIn(page, 'reviewer');
    await page.goto(`${service.baseUrl}/bras/${shared.bra.id}`);
    await page.getByRole('tab', { name: 'Evidence' }).click();
    const panel = page.getByTestId('evidence-bra');
    const row = panel.getByTestId('evidence-file').filter({ hasText: 'Q3 access review.pdf' });
    await row.waitFor();
    assert.equal(await panel.getByRole('button', { name: 'Choose a file' }).count(), 0);
    assert.equal(await panel.getByRole('button', { name: /^Remove / }).count(), 0);
    const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: 'Download Q3 access review.pdf' }).click()]);
    assert.equal(download.suggestedFilename(), 'Q3 access review.pdf');
    assert.equal(sha256(readFileSync(await download.path())), sha256(PDF));
    await expectAccessible(page, 'BRA evidence (reviewer)');

    // The audit trail's verification, asked to, hashes every evidence file again against its upload's entry.
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Audit trail', exact: true }).click();
    await page.getByRole('checkbox', { name: 'Hash the evidence files again' }).check();
    await page.getByRole('button', { name: 'Verify the trail' }).click();
    const verdict = page.getByTestId('evidence-verification');
    await verdict.waitFor();
    assert.match(await verdict.innerText(), /The evidence files are as uploaded[\s\S]*\d+ evidence files? hashed again/);
    await expectAccessible(page, 'verification with evidence');
  });
});
