// What every end-to-end file shares: the service it runs against (started once per file), a test with a
// browser page of its own that saves a screenshot pass or fail, the axe-core check, and signing in as a
// person of the demo data.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
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

/** On a narrow screen: no badge cut short (its text wider than its box) and no sideways scrolling of the page. */
export async function expectWholeOnPhone(page) {
  const cut = await page.evaluate(() =>
    [...document.querySelectorAll('.mantine-Badge-root')]
      .filter((badge) => badge.scrollWidth > badge.clientWidth + 1 || [...badge.querySelectorAll('*')].some((part) => part.scrollWidth > part.clientWidth + 1))
      .map((badge) => badge.textContent),
  );
  assert.deepEqual(cut, [], 'no badge is cut short');
  assert.ok((await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)) <= 0, 'the page does not scroll sideways');
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

/** The anon key the console is served with: the provider's calls need it, as the console's do. */
export async function anonKey() {
  const html = await (await fetch(`${service.baseUrl}/`)).text();
  return html.match(/name="auth-anon-key" content="([^"]*)"/)?.[1] ?? '';
}

/** The API as whoever signs in with this e-mail and password: a password sign-in, then bearer calls that must succeed. */
export async function apiWith(email, password) {
  const session = await (
    await fetch(`${service.baseUrl}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', apikey: await anonKey() },
      body: JSON.stringify({ email, password }),
    })
  ).json();
  return async (method, path, body) => {
    const response = await fetch(`${service.baseUrl}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${session.access_token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const answer = await response.json();
    assert.ok(response.ok, `${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
    return answer;
  };
}

/** The API as a person of the demo. */
export const apiAs = (role) => apiWith(service.people[role].email, service.people[role].password);

/** The newest mail the service wrote to this address (DATA_DIR/mail/*.eml), parsed; waits for its outbox. */
export async function mailTo(address, subject) {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const dir = join(service.dataDir, 'mail');
    const files = (() => { try { return readdirSync(dir).filter((name) => name.endsWith('.eml')).sort().reverse(); } catch { return []; } })();
    for (const file of files) {
      const mail = await simpleParser(readFileSync(join(dir, file)));
      if (mail.to?.text.includes(address) && subject.test(mail.subject ?? '')) return mail;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no mail to ${address} matching ${subject}`);
}

export const linkIn = (mail) => {
  const link = (mail.text ?? '').match(/https?:\/\/\S+\/auth\/v1\/verify\?\S+/)?.[0];
  assert.ok(link, `a verify link in the mail:\n${mail.text}`);
  return link;
};

/** A person invited by mail joins as a browser would: the mail's link followed (its session in the fragment), then a password. */
export async function joinFromMail(email, password) {
  const link = linkIn(await mailTo(email, /invit/i));
  const landed = await fetch(link, { redirect: 'manual' });
  const fragment = new URLSearchParams(new URL(landed.headers.get('location') ?? '', service.baseUrl).hash.slice(1));
  assert.ok(fragment.get('access_token'), `the link signs the person in: ${landed.headers.get('location')}`);
  const set = await fetch(`${service.baseUrl}/auth/v1/user`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', apikey: await anonKey(), authorization: `Bearer ${fragment.get('access_token')}` },
    body: JSON.stringify({ password }),
  });
  assert.equal(set.status, 200, await set.text());
}

/** Signs in through the sign-in screen with an e-mail and password of one's own (not a demo person). */
export async function signInAs(page, email, password) {
  await page.goto(`${service.baseUrl}/`);
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}
