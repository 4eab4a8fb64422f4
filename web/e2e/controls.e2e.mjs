// End-to-end: control assurance in Chromium against the real service. An assessor finds an untested
// sub-control, is refused an incomplete test with the service's field errors (nothing stored), records a
// complete test with evidence notes, sees it in the history and attaches a PDF to it, which the reviewer
// downloads; a client admin edits and archives key controls and sub-controls and finds them among the archived.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe } from 'node:test';
import { apiAs, expectAccessible, screen, service, signIn } from './scenario.mjs';

const PDF = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

async function choose(page, scope, label, option) {
  // A required field's name carries its asterisk; the first match is the input (its list shares the label).
  await scope.getByLabel(new RegExp(`^${label}( \\*)?$`)).first().click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

let tested;

describe('control assurance', () => {
  screen('an assessor records a complete test with evidence, after an incomplete one is refused', async (page) => {
    const admin = await apiAs('admin');
    const keyControl = (await admin('POST', '/controls/key-controls', { name: `Payments reconciliation ${Date.now()}`, description: 'Daily reconciliation of card settlements' })).data;
    tested = (await admin('POST', '/controls/sub-controls', { key_control_id: keyControl.id, name: `Settlement sign-off ${Date.now()}` })).data;
    await signIn(page, 'assessor');
    await page.goto(`${service.baseUrl}/controls?not_assessed=true`);
    await page.getByRole('textbox', { name: 'Search' }).fill(tested.name);
    const row = page.getByTestId('finder-row').filter({ hasText: tested.name });
    await row.waitFor();
    await expectAccessible(page, 'library finder');
    await row.getByRole('link', { name: tested.name }).click();
    await page.getByRole('heading', { name: tested.name }).waitFor();
    await page.getByTestId('test-history-empty').waitFor();

    // Incomplete: the service's field errors beside the fields, nothing recorded.
    const form = page.getByRole('region', { name: 'Record a complete test' });
    await form.getByRole('button', { name: 'Record test' }).click();
    await form.getByText('The test was not recorded').waitFor();
    assert.ok((await form.locator('[aria-invalid="true"]').count()) >= 3, 'the missing fields are marked');
    assert.equal(await page.getByText(/^Test recorded/).count(), 0);
    assert.equal(await page.getByTestId('test-record').count(), 0);
    await expectAccessible(page, 'incomplete test refused');

    await choose(page, form, 'Test of Design', 'B · Good');
    await choose(page, form, 'Test of Effectiveness', '2 · Effective');
    await form.getByRole('textbox', { name: 'Why this ToE' }).fill('Two sign-offs late, within tolerance.');
    await form.getByRole('textbox', { name: /^Testing date/ }).fill('2026-11-20');
    await page.keyboard.press('Enter');
    await form.getByRole('textbox', { name: /^Evidence notes/ }).fill('Sample of 25 settlement days; all signed off by the controller.');
    await form.getByRole('button', { name: 'Record test' }).click();
    const record = page.getByTestId('test-record').filter({ hasText: 'Sample of 25 settlement days' });
    await record.waitFor();
    assert.match(await record.innerText(), /2026-11-20[\s\S]*B[\s\S]*2[\s\S]*Two sign-offs late[\s\S]*Effective[\s\S]*Complete test/i);
    // The current result is read again once the test is stored: wait for it rather than for the first paint.
    await page.getByTestId('current-result').filter({ hasText: '2026-11-20' }).waitFor();
    assert.match(await page.getByTestId('current-result').innerText(), /B[\s\S]*2[\s\S]*2026-11-20/);

    // A quarterly schedule: the next test is due three months after this one.
    await page.getByRole('button', { name: 'Correct the current result or the testing frequency' }).click();
    const correction = page.getByRole('region', { name: 'Correct the current result or the testing frequency' });
    await choose(page, correction, 'Testing frequency', 'Quarterly');
    await correction.getByRole('button', { name: 'Save current result' }).click();
    await page.getByTestId('current-result').filter({ hasText: '2027-02-20' }).waitFor();
    assert.match(await page.getByTestId('current-result').innerText(), /Next test due[\s\S]*2027-02-20/);

    // A PDF behind the test.
    await record.getByRole('button', { name: /^Files of the test of / }).click();
    const files = page.getByRole('dialog').getByTestId('evidence-sub_control_test');
    await files.getByRole('button', { name: 'Choose a file' }).waitFor();
    await files.locator('input[type=file]').setInputFiles({ name: 'settlement sign-offs.pdf', mimeType: 'application/pdf', buffer: PDF });
    await files.getByTestId('evidence-file').filter({ hasText: 'settlement sign-offs.pdf' }).waitFor();
    await expectAccessible(page, 'test history with its files');
    await page.keyboard.press('Escape');

    // The heat map's B/2 cell lists it.
    await page.goto(`${service.baseUrl}/controls?tod=B&toe=2`);
    await page.getByTestId('finder-row').filter({ hasText: tested.name }).waitFor();
  });

  screen('the reviewer reads the test history and downloads the test’s PDF, and records nothing', async (page) => {
    assert.ok(tested, 'the scenario above recorded a test');
    await signIn(page, 'reviewer');
    await page.goto(`${service.baseUrl}/controls/sub-controls/${tested.id}`);
    const record = page.getByTestId('test-record').filter({ hasText: 'Sample of 25 settlement days' });
    await record.waitFor();
    assert.equal(await page.getByRole('region', { name: 'Record a complete test' }).count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Archive sub-control' }).count(), 0);
    await record.getByRole('button', { name: /^Files of the test of / }).click();
    const files = page.getByRole('dialog').getByTestId('evidence-sub_control_test');
    const [download] = await Promise.all([page.waitForEvent('download'), files.getByRole('button', { name: 'Download settlement sign-offs.pdf' }).click()]);
    assert.equal(sha256(readFileSync(await download.path())), sha256(PDF));
    assert.equal(await files.getByRole('button', { name: 'Choose a file' }).count(), 0);
  });

  screen('the finder searches the service, a page at a time, and loads more on request', async (page) => {
    const admin = await apiAs('admin');
    const stamp = `Cash count ${Date.now()}`;
    const keyControl = (await admin('POST', '/controls/key-controls', { name: `Branch cash ${stamp}` })).data;
    // One more than a page of the finder (100): the service answers a page and a cursor for the rest.
    for (let i = 0; i < 101; i += 1) {
      await admin('POST', '/controls/sub-controls', { key_control_id: keyControl.id, name: `${stamp} vault ${String(i).padStart(3, '0')}`, description: i === 42 ? `Needle ${stamp}` : undefined });
    }
    await signIn(page, 'admin');
    await page.goto(`${service.baseUrl}/controls`);
    // The search is the service's: the request carries q (once typing pauses) and the page size.
    const asked = page.waitForRequest((request) => {
      const url = new URL(request.url());
      return url.pathname === '/api/v1/controls/sub-controls' && url.searchParams.get('q') === stamp && url.searchParams.get('limit') === '100';
    });
    await page.getByRole('textbox', { name: 'Search' }).fill(stamp);
    await asked;
    await page.getByTestId('finder-row').filter({ hasText: `${stamp} vault 100` }).waitFor();
    assert.equal(await page.getByTestId('finder-row').count(), 100);
    const more = page.getByRole('button', { name: 'Load more sub-controls' });
    await expectAccessible(page, 'finder with more to load');
    await more.click();
    await page.getByTestId('finder-row').filter({ hasText: `${stamp} vault 000` }).waitFor();
    assert.equal(await page.getByTestId('finder-row').count(), 101);
    await more.waitFor({ state: 'detached' });
    assert.match(await page.getByTestId('finder-count').innerText(), /^101 sub-controls$/);

    // A description matches too, case-insensitively; the name shown is the row's.
    await page.getByRole('textbox', { name: 'Search' }).fill(`needle ${stamp.toLowerCase()}`);
    await page.getByTestId('finder-row').filter({ hasText: `${stamp} vault 042` }).waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="finder-row"]').length === 1);
  });

  screen('a client admin edits and archives a key control, archives a sub-control, and finds both among the archived', async (page) => {
    const admin = await apiAs('admin');
    const stamp = Date.now();
    const keyControl = (await admin('POST', '/controls/key-controls', { name: `Vendor access ${stamp}` })).data;
    const sub = (await admin('POST', '/controls/sub-controls', { key_control_id: keyControl.id, name: `Quarterly vendor review ${stamp}` })).data;
    const other = (await admin('POST', '/controls/sub-controls', { key_control_id: keyControl.id, name: `Vendor offboarding ${stamp}` })).data;
    await signIn(page, 'admin');
    await page.goto(`${service.baseUrl}/controls/sub-controls/${sub.id}`);
    await page.getByRole('button', { name: 'Archive sub-control' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Archive sub-control' }).click();
    await page.getByText(`${sub.name} is archived.`).waitFor();
    await page.goto(`${service.baseUrl}/controls`);
    await page.getByRole('textbox', { name: 'Search' }).fill(String(stamp));
    await page.getByTestId('finder-row').filter({ hasText: other.name }).waitFor();
    assert.equal(await page.getByTestId('finder-row').filter({ hasText: sub.name }).count(), 0);
    await page.getByRole('switch', { name: 'Archived too' }).click();
    await page.getByTestId('finder-row').filter({ hasText: sub.name }).filter({ hasText: 'Archived' }).waitFor();

    const card = page.getByTestId('key-control').filter({ hasText: keyControl.name });
    await card.getByRole('button', { name: `Edit ${keyControl.name}` }).click();
    const edit = page.getByRole('dialog');
    await edit.getByRole('textbox', { name: 'Name' }).fill(`Third-party access ${stamp}`);
    await edit.getByRole('button', { name: 'Save key control' }).click();
    const renamed = page.getByTestId('key-control').filter({ hasText: `Third-party access ${stamp}` });
    await renamed.waitFor();
    await expectAccessible(page, 'control library with its finder');
    await renamed.getByRole('button', { name: `Archive Third-party access ${stamp}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Archive' }).click();
    await renamed.waitFor({ state: 'detached' });
    await page.getByRole('switch', { name: 'Show archived key controls' }).click();
    await page.getByTestId('key-control').filter({ hasText: `Third-party access ${stamp}` }).filter({ hasText: 'Archived' }).waitFor();
  });
});
