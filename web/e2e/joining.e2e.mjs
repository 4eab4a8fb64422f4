// End-to-end: joining and recovering, in Chromium against the real service (embedded engine, demo data): a
// super admin creates an enterprise and invites its client admin; the invitation is read from the .eml file
// the service wrote; its link opens "choose your password" (tokens out of the address at once), completed with
// the keyboard only; the used link is refused in words; a member recovers a forgotten password from the mail.
// Screenshots in web/test-results/screenshots; axe-core on each screen.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { expectAccessible, linkIn, mailTo, screen, service, signIn } from './scenario.mjs';

async function signOut(page) {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByLabel('E-mail', { exact: true }).waitFor();
}

describe('joining from the invitation mail, and recovering a password', () => {
  screen("a super admin's new enterprise: its client admin joins from the invitation mail, with the keyboard only; the used link says so", async (page) => {
    await signIn(page, 'super_admin');
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Enterprises', exact: true }).click();
    const enterprise = `Northwind Savings ${Date.now()}`;
    await page.getByRole('textbox', { name: /^Name/ }).fill(enterprise);
    await page.getByLabel('Country (two letters)').fill('GB');
    await page.getByLabel('Registration number').fill(`NW${Date.now()}`);
    await page.getByRole('button', { name: 'Create enterprise' }).click();
    await page.getByText(`${enterprise} was created`).waitFor();
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Users', exact: true }).click();
    await page.getByRole('combobox', { name: 'Enterprise' }).click();
    await page.getByRole('option', { name: enterprise }).click();
    const email = `nadia.${Date.now()}@northwind.example`;
    await page.getByRole('textbox', { name: /^E-mail/ }).fill(email);
    await page.getByLabel('Full name').fill('Nadia Okafor');
    await page.getByLabel('Role', { exact: true }).selectOption('admin');
    await page.getByRole('button', { name: 'Invite user' }).click();
    await page.getByTestId('invited').waitFor();
    await signOut(page);

    const link = linkIn(await mailTo(email, /invit/i));
    await page.goto(link);
    await page.getByRole('heading', { name: 'Welcome: choose your password' }).waitFor();
    assert.equal(new URL(page.url()).hash, '', 'the tokens are taken out of the address at once');
    await expectAccessible(page, 'set your password');
    // Keyboard only: the first field, Tab to the second, Enter to submit.
    await page.getByLabel('New password').focus();
    await page.keyboard.type('north-wind-passphrase');
    await page.keyboard.press('Tab'); // the show-password toggles are out of the tab order: the next stop is the repeat field
    await page.keyboard.type('north-wind-passphrase');
    await page.keyboard.press('Enter');
    await page.getByTestId('signed-in-as').filter({ hasText: 'Nadia Okafor' }).waitFor();
    assert.match(await page.getByTestId('signed-in-as').innerText(), new RegExp(enterprise));
    await signOut(page);

    await page.goto(link);
    await page.getByTestId('link-refused').waitFor();
    assert.match(await page.getByTestId('link-refused').innerText(), /resend the invitation/);
    assert.equal(new URL(page.url()).hash, '');
    await expectAccessible(page, 'a used link');
    await page.getByRole('button', { name: 'Go to sign in' }).click();
    await page.getByLabel('E-mail', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('north-wind-passphrase');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('signed-in-as').filter({ hasText: 'Nadia Okafor' }).waitFor();
  });

  screen('a member who forgot the password gets a link by mail, chooses a new one and signs in with it', async (page) => {
    const person = service.people.reviewer;
    await page.goto(`${service.baseUrl}/`);
    await page.getByRole('button', { name: 'Forgot your password?' }).click();
    await page.getByLabel('E-mail', { exact: true }).fill(person.email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByTestId('recovery-sent').waitFor();
    await expectAccessible(page, 'recovery requested');
    const link = linkIn(await mailTo(person.email, /password/i));
    await page.goto(link);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    assert.equal(new URL(page.url()).hash, '');
    await page.getByLabel('New password').fill('a-brand-new-passphrase');
    await page.getByLabel('Repeat the password').fill('a-brand-new-passphrase');
    await page.getByRole('button', { name: 'Set password and continue' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await signOut(page);
    await page.getByLabel('E-mail', { exact: true }).fill(person.email);
    await page.getByLabel('Password', { exact: true }).fill('a-brand-new-passphrase');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    person.password = 'a-brand-new-passphrase';
  });

  screen('the profile: a member renames themselves and ends their other sessions', async (page) => {
    await signIn(page, 'assessor');
    await page.getByRole('link', { name: 'Profile' }).click();
    await page.getByRole('heading', { name: 'Your profile' }).waitFor();
    await page.getByLabel('Your name').fill('Marcus Reid-Hale');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByText('Name changed').waitFor();
    await page.getByTestId('signed-in-as').filter({ hasText: 'Marcus Reid-Hale' }).waitFor();
    await page.getByRole('button', { name: 'Sign out of other sessions' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Sign out of other sessions' }).click();
    await page.getByText('Other sessions ended').waitFor();
    await expectAccessible(page, 'profile');
  });
});
