// End-to-end: single sign-on through OIDC (issue 50) in Chromium against the real service, with a real OpenID
// provider (panva's oidc-provider, web/e2e/oidc-idp.mjs) in this process. The demo's client admin creates a
// connection to the provider and claims the demo's e-mail domain on the Single sign-on screen; the super admin
// verifies the domain on the Enterprises screen; then, signed out, a member of the domain continues with their
// organisation's sign-in, signs in at the provider's page and lands signed in on the console. The connection's
// "Test this connection" takes the client admin through the provider too, where a newcomer of the domain
// becomes a member with the connection's just-in-time role; the test's page shows who signed in and ends that
// session, and the client admin's own tab stays theirs. axe-core on the console's screens.
import assert from 'node:assert/strict';
import { after, before, describe } from 'node:test';
import { SCREENSHOTS } from './browser.mjs';
import { startIdp } from './oidc-idp.mjs';
import { apiAs, expectAccessible, screen, service, signIn } from './scenario.mjs';

const DOMAIN = 'harbourview-demo.example';
const CONNECTION = 'Harbourview Entra ID';
const NEWCOMER = { email: `new.joiner@${DOMAIN}`, name: 'Nia Joiner' };

/** The provider, started once the service is up (its redirect URI is the service's callback). */
let idp;
/** The client admin's enterprise, as the super admin's Enterprises screen names it. */
let enterpriseName;

async function openScreen(page, label, heading = label) {
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: label, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  await page.waitForLoadState('networkidle');
}

async function toast(page, text) {
  await page.locator('.mantine-Notification-root').filter({ hasText: text }).first().waitFor();
}

/** At the provider's sign-in page: the person types their e-mail and signs in there. */
async function signInAtProvider(page, email) {
  await page.getByRole('heading', { name: 'Sign in to Harbourview' }).waitFor();
  assert.equal(new URL(page.url()).origin, idp.issuer, "the browser is at the organisation's provider");
  await page.getByLabel('Corporate e-mail').fill(email);
  await page.getByRole('button', { name: 'Sign in at the provider' }).click();
}

/** Back on the console, signed in: who the header names, and no session left in the address. */
async function landedSignedInAs(page, who) {
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
  assert.equal(new URL(page.url()).origin, service.baseUrl, 'back on the console');
  assert.equal(new URL(page.url()).hash, '', 'the tokens are taken out of the address at once');
  await page.getByTestId('signed-in-as').filter({ hasText: who }).waitFor();
}

describe('single sign-on through OIDC', () => {
  // In the suite, so that they run once the file's service is up (its before hook is the root's).
  before(async () => {
    const reviewer = service.people.reviewer;
    idp = await startIdp(`${service.baseUrl}/auth/v1/sso/callback`, { [reviewer.email]: { name: reviewer.name }, [NEWCOMER.email]: { name: NEWCOMER.name } });
    enterpriseName = (await (await apiAs('admin'))('GET', '/me')).data.enterprise_name;
  });

  after(async () => {
    await idp?.close();
  });

  screen("the client admin connects the enterprise's OIDC provider and claims its e-mail domain", async (page) => {
    await signIn(page, 'admin');
    await openScreen(page, 'Single sign-on');
    await page.getByText('No connection yet').waitFor();

    await page.getByRole('button', { name: 'New connection' }).click();
    await page.getByRole('heading', { name: 'New connection (OpenID Connect)' }).waitFor();
    await page.getByText(`${service.baseUrl}/auth/v1/sso/callback`).waitFor();
    await page.getByRole('textbox', { name: /^Name/ }).fill(CONNECTION);
    await page.getByRole('textbox', { name: /^Issuer URL/ }).fill(idp.issuer);
    await page.getByRole('textbox', { name: /^Client ID/ }).fill(idp.clientId);
    await page.getByLabel(/^Client secret/).fill(idp.clientSecret);
    await page.getByLabel('Just-in-time membership').selectOption('reviewer');
    await expectAccessible(page, 'the new connection form');
    await page.getByRole('button', { name: 'Save connection' }).click();
    await toast(page, `${CONNECTION} is saved.`);
    const connection = page.getByRole('row').filter({ hasText: CONNECTION });
    await connection.waitFor();
    assert.match(await connection.innerText(), new RegExp(idp.issuer.replace(/[.:/]/g, '\\$&')));
    assert.match(await connection.innerText(), /reviewer/);

    await page.getByRole('textbox', { name: /^E-mail domain/ }).fill(DOMAIN);
    await page.getByRole('button', { name: 'Claim domain' }).click();
    await toast(page, `${DOMAIN} is claimed`);
    const domain = page.getByRole('row').filter({ hasText: DOMAIN });
    await domain.getByText('Awaiting its record').waitFor();
    assert.match(await domain.innerText(), new RegExp(`_risk-assurance-challenge\\.${DOMAIN.replace(/\./g, '\\.')}`), 'the TXT record to publish');
    await expectAccessible(page, 'single sign-on');

    // Unverified, the domain routes nobody yet.
    const refused = await fetch(`${service.baseUrl}/auth/v1/sso?domain=${DOMAIN}`, { redirect: 'manual' });
    assert.equal(refused.status, 404);
  });

  screen("the super admin verifies the enterprise's domain on the Enterprises screen", async (page) => {
    await signIn(page, 'super_admin');
    await openScreen(page, 'Enterprises');
    await page.getByRole('button', { name: `SSO domains of ${enterpriseName}` }).click();
    const drawer = page.getByRole('dialog', { name: `SSO domains of ${enterpriseName}` });
    const row = drawer.getByRole('row').filter({ hasText: DOMAIN });
    await row.getByText('Awaiting its record').waitFor();
    await expectAccessible(page, "an enterprise's SSO domains");

    await row.getByRole('button', { name: `Verify ${DOMAIN}` }).click();
    const confirm = page.getByRole('dialog', { name: `Verify ${DOMAIN} for ${enterpriseName}?` });
    await confirm.getByRole('button', { name: 'Verify the domain' }).click();
    await toast(page, `${DOMAIN} is verified for ${enterpriseName}.`);
    await row.getByText('Verified', { exact: true }).waitFor();
    assert.equal(await row.getByRole('button', { name: `Verify ${DOMAIN}` }).count(), 0, 'nothing left to verify');
    await expectAccessible(page, "an enterprise's verified SSO domain");
  });

  screen("a member of the domain continues with their organisation's sign-in and lands signed in on the console", async (page) => {
    const reviewer = service.people.reviewer;
    await page.goto(`${service.baseUrl}/`);
    await page.getByRole('button', { name: "Continue with your organisation's sign-in" }).click();
    await page.getByRole('heading', { name: "Your organisation's sign-in" }).waitFor();
    await expectAccessible(page, "your organisation's sign-in");
    // A domain no organisation verified goes nowhere: said on the screen.
    await page.getByLabel('Work e-mail').fill('someone@elsewhere.example');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await page.getByText("Your organisation's sign-in is not available").waitFor();
    await expectAccessible(page, "your organisation's sign-in, refused");

    await page.getByLabel('Work e-mail').fill(reviewer.email);
    await page.getByRole('button', { name: 'Continue', exact: true }).click();

    await signInAtProvider(page, reviewer.email);
    await landedSignedInAs(page, `${reviewer.name} · Reviewer · ${enterpriseName}`);

    // The session is the provider's usual one: protected screens load with it.
    await openScreen(page, 'BRAs', 'Business risk assessments');
    await page.getByRole('table').getByRole('link').first().waitFor();
    await page.getByRole('link', { name: 'Profile' }).click();
    await page.getByRole('heading', { level: 1, name: 'Your profile' }).waitFor();
    await page.getByText(`E-mail: ${reviewer.email}`).waitFor();
  });

  screen("the client admin tests the connection: a newcomer of the domain signs in and becomes a member with its just-in-time role", async (page) => {
    await signIn(page, 'admin');
    await openScreen(page, 'Single sign-on');
    const connection = page.getByRole('row').filter({ hasText: CONNECTION });
    const opened = page.context().waitForEvent('page');
    await connection.getByRole('button', { name: 'Test this connection' }).click();
    const test = await opened;
    await test.waitForLoadState();

    await signInAtProvider(test, NEWCOMER.email);
    // The test's own page: who the provider signed in, and that session ended at once, never kept.
    await test.getByRole('heading', { level: 1, name: 'Single sign-on test' }).waitFor();
    await test.getByText('The connection works').waitFor();
    await test.getByText(NEWCOMER.email, { exact: false }).waitFor();
    assert.equal(new URL(test.url()).hash, '', 'the tokens are taken out of the address at once');
    await expectAccessible(test, 'the single sign-on test result');
    await test.screenshot({ path: `${SCREENSHOTS}/sso-test-connection-result.png` });

    // The client admin's own tab, reloaded, is still the client admin's: the test's session was not kept.
    await page.reload();
    await page.getByTestId('signed-in-as').filter({ hasText: 'Client admin' }).waitFor();

    // The newcomer is a member now, a reviewer, on the client admin's list.
    const admin = await apiAs('admin');
    const members = (await admin('GET', `/admin/enterprises/${(await admin('GET', '/me')).data.enterprise_id}/users`)).data;
    assert.equal(members.find((member) => member.email === NEWCOMER.email)?.role, 'reviewer');
  });
});
