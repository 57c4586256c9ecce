// Browser scenarios (headless Chromium against the real yezi binary, a server of this file's own):
// accounts: sign up on one browser, sign in on another as the same player with the same tables,
// sign out everywhere.

import { after, before, test } from 'node:test';
import { assert, claimAccount, closeSuite, createTable, enterName, expect, openSuite, snap, watchedPage } from '../lib/harness.mjs';

/** The suite's server, browser and pages (see openSuite). */
let suite;
let browser, desktop, page, player;
before(async () => {
  suite = await openSuite({ named: true });
  ({ browser, desktop, page, player } = suite);
});
after(() => closeSuite(suite));

test('accounts: sign up on one browser, sign in on another as the same player with the same tables, sign out everywhere', async () => {
  const one = await browser.newContext(desktop);
  const two = await browser.newContext(desktop);
  const a = await watchedPage(one, 'account-one');
  const b = await watchedPage(two, 'account-two');
  const user = `e2e_${Date.now().toString(36)}`;
  const pw = 'a long enough password';
  // A guest plays, then claims an account.
  await a.goto('/');
  await enterName(a, 'Mei 梅');
  await a.locator('.new-table').waitFor();
  const table = await createTable(a, 'madiao', { name: 'Mei’s table' });
  await claimAccount(a, user, pw);
  assert((await a.locator('header .account-name').textContent()) === `@${user}`, 'the header does not show the username');
  assert((await a.locator('header .me').textContent()) === 'Mei 梅', 'the header does not show the name');
  await a.locator(`.my-tables li[data-table="${table}"]`).waitFor({ timeout: 15000 });
  await snap(a, 'account-claimed');
  // Another browser signs in (the username in another case): the same name, the same tables.
  await b.goto('/');
  await b.locator('a.sign-in-link').click();
  await b.locator('form.sign-in input[name="username"]').fill(user.toUpperCase());
  await b.locator('form.sign-in input[name="password"]').fill(pw);
  await b.locator('form.sign-in button[data-action="sign-in"]').click();
  await b.locator('header .account-name').waitFor({ timeout: 15000 });
  assert((await b.locator('header .me').textContent()) === 'Mei 梅', 'the other browser shows another name');
  await b.locator(`.my-tables li[data-table="${table}"]`).waitFor({ timeout: 15000 });
  await snap(b, 'account-signed-in');
  // The table opens on the other browser in the account's own seat.
  await b.locator(`.my-tables li[data-table="${table}"] a`).click();
  await b.locator('.table-page').waitFor({ timeout: 15000 });
  const tokenB = await b.evaluate(() => JSON.parse(localStorage.getItem('yezi.guest') ?? 'null')?.token);
  assert(typeof tokenB === 'string', 'no session kept on the other browser');
  // Signing out everywhere on the first browser refuses the other's session.
  await a.locator('button[data-action="sign-out-everywhere"]').click();
  await a.locator('.name-form, form.sign-in').first().waitFor({ timeout: 15000 });
  expect.authError = true;
  try {
    const refused = await b.evaluate(async (token) => {
      const r = await fetch('/api/account', { headers: { Authorization: `Bearer ${token}` } });
      return { status: r.status, body: await r.json() };
    }, tokenB);
    assert(refused.status === 401 && refused.body.error.code === 'session_revoked', `the other session was not refused: ${JSON.stringify(refused)}`);
    // Reloaded, the other browser forgets the session and asks for a name (or a sign-in).
    await b.goto('/');
    await b.locator('.name-form').waitFor({ timeout: 15000 });
    assert((await b.locator('header .account-name').count()) === 0, 'the other browser still shows the account');
    await snap(b, 'account-signed-out-everywhere');
  } finally {
    expect.authError = false;
  }
  await one.close();
  await two.close();
});
