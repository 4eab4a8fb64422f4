// End-to-end: a new enterprise sets itself up in the browser (Chromium, the real service, embedded engine): its
// client admin, invited by a super admin and joined from the mail, creates two legal entities with a business
// unit, adds a risk scenario, loads the starter library, checks a control file whose dry run refuses one row,
// applies the corrected file with the keyboard only, renames and archives an entity and finds it among the
// archived. Screenshots in web/test-results/screenshots; axe-core on each panel.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe } from 'node:test';
import { apiAs, apiWith, expectAccessible, joinFromMail, screen, service, signInAs } from './scenario.mjs';

const HEADER = 'key_control,sub_control,tod,toe';

describe('a new enterprise sets itself up', () => {
  screen('the client admin creates entities and a unit, a scenario, loads the starter library and imports a corrected control file', async (page) => {
    const superAdmin = await apiAs('super_admin');
    const stamp = Date.now();
    const enterprise = (await superAdmin('POST', '/admin/enterprises', { name: `Lakeside Mutual ${stamp}`, country: 'IE', registration_number: `LM${stamp}` })).data;
    const email = `owen.${stamp}@lakeside.example`;
    await superAdmin('POST', `/admin/enterprises/${enterprise.id}/users`, { email, full_name: 'Owen Brady', role: 'admin' });
    await joinFromMail(email, 'lakeside-passphrase');
    await signInAs(page, email, 'lakeside-passphrase');

    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Organisation', exact: true }).click();
    await page.getByRole('heading', { name: 'Organisation', level: 1 }).waitFor();
    await page.getByText('No legal entity yet').waitFor();
    for (const name of ['Lakeside Bank DAC', 'Lakeside Insurance DAC']) {
      await page.getByLabel('New legal entity').fill(name);
      await page.getByRole('button', { name: 'Create legal entity' }).click();
      await page.getByTestId('entity-card').filter({ hasText: name }).waitFor();
    }
    const bank = page.getByTestId('entity-card').filter({ hasText: 'Lakeside Bank DAC' });
    await bank.getByLabel('New business unit of Lakeside Bank DAC').fill('Retail Banking');
    await bank.getByRole('button', { name: 'Add business unit' }).click();
    await bank.getByRole('cell', { name: 'Retail Banking', exact: true }).waitFor();
    await expectAccessible(page, 'legal entities and units');

    await page.getByRole('tab', { name: 'Risk scenarios' }).click();
    await page.getByRole('textbox', { name: 'Name' }).fill('Card-not-present fraud');
    await page.getByRole('combobox', { name: 'Category' }).fill('External fraud');
    await page.getByRole('button', { name: 'Add scenario' }).click();
    await page.getByTestId('scenario-row').filter({ hasText: 'Card-not-present fraud' }).waitFor();
    await expectAccessible(page, 'risk scenarios');

    await page.getByRole('tab', { name: 'Control library' }).click();
    await page.getByTestId('starter-offer').waitFor();
    await page.getByRole('button', { name: 'Load the starter library' }).click();
    await page.getByText('Starter library loaded').waitFor();
    await page.getByTestId('starter-offer').waitFor({ state: 'detached' });

    // A file whose third row has a test of design no scale knows: the dry run refuses it beside its row.
    const refused = join(service.dataDir, 'library-refused.csv');
    writeFileSync(refused, `${HEADER}\nPayments oversight,Daily reconciliation,A,1\nPayments oversight,Dual approval,Z,2\n`);
    await page.locator('input[type="file"]').setInputFiles(refused);
    await page.getByRole('button', { name: 'Check the file' }).click();
    const refusal = page.getByTestId('refused-row');
    await refusal.first().waitFor();
    assert.equal(await refusal.count(), 1);
    assert.match(await refusal.first().innerText(), /^3\s+tod[\s\S]*Payments oversight,Dual approval,Z,2/);
    assert.equal(await page.getByRole('button', { name: 'Apply the import' }).isDisabled(), true, 'a refused file cannot be applied');
    await expectAccessible(page, 'import refused');

    // The corrected file, with the keyboard only: choose it, Tab to "Check the file", Enter, then "Apply".
    const corrected = join(service.dataDir, 'library-corrected.csv');
    writeFileSync(corrected, `${HEADER}\nPayments oversight,Daily reconciliation,A,1\nPayments oversight,Dual approval,B,2\n`);
    await page.locator('input[type="file"]').setInputFiles(corrected);
    await page.getByRole('button', { name: 'Check the file' }).focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('import-checked').waitFor();
    assert.match(await page.getByTestId('import-checked').innerText(), /2 rows: key controls 1 new/);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByText('Library imported').waitFor();
    const library = await (await apiWith(email, 'lakeside-passphrase'))('GET', '/controls/key-controls?page_size=100');
    assert.ok(library.data.some((control) => control.name === 'Payments oversight'), 'the imported key control is in the library');

    // Rename, then archive an entity (confirmed), and find it among the archived.
    await page.getByRole('tab', { name: 'Legal entities and units' }).click();
    const insurance = page.getByTestId('entity-card').filter({ hasText: 'Lakeside Insurance DAC' });
    await insurance.getByRole('button', { name: 'Rename Lakeside Insurance DAC' }).click();
    await page.getByRole('dialog').getByLabel('New name').fill('Lakeside Life DAC');
    await page.getByRole('dialog').getByRole('button', { name: 'Rename' }).click();
    const life = page.getByTestId('entity-card').filter({ hasText: 'Lakeside Life DAC' });
    await life.waitFor();
    await life.getByRole('button', { name: 'Archive Lakeside Life DAC' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Archive' }).click();
    await life.waitFor({ state: 'detached' });
    await page.getByLabel('Show archived entities and units').check();
    await page.getByTestId('entity-card').filter({ hasText: 'Lakeside Life DAC' }).getByText('Archived').waitFor();
  });
});
