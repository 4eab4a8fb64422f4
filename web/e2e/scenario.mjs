// What every end-to-end file shares: the service it runs against (started once per file), a test with a
// browser page of its own that saves a screenshot pass or fail, the axe-core check, and signing in as a
// person of the demo data.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { SCREENSHOTS, launchBrowser, seriousViolations } from './browser.mjs';
import { startService } from './service.mjs';

/** The file's running service (a live binding: set by its `before`, stopped by its `after`). */
export let service;

before(async () => {
  service = await startService();
});

after(async () => {
  await service?.stop();
});

/** A test with a page of its own (1280×800 unless given), screenshotted at the end, pass or fail. */
export function screen(name, body, viewport = { width: 1280, height: 800 }) {
  it(name, async () => {
    const chromium = await launchBrowser(viewport);
    const page = chromium.context.pages()[0] ?? (await chromium.context.newPage());
    const file = name.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
    try {
      await body(page);
      await page.screenshot({ path: `${SCREENSHOTS}/${file}.png`, fullPage: true });
    } catch (error) {
      await page.screenshot({ path: `${SCREENSHOTS}/${file}-FAILED.png`, fullPage: true }).catch(() => undefined);
      throw error;
    } finally {
      await chromium.close();
    }
  });
}

export async function expectAccessible(page, where) {
  assert.deepEqual(await seriousViolations(page), [], `${where}: serious or critical axe-core violations`);
}

/** Signs in as the demo's person of this role through the sign-in screen; answers who that is. */
export async function signIn(page, role) {
  const person = service.people[role];
  await page.goto(`${service.baseUrl}/`);
  await page.getByLabel('E-mail', { exact: true }).fill(person.email);
  await page.getByLabel('Password', { exact: true }).fill(person.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
  return person;
}
