// Browser scenarios (headless Chromium against the real yezi binary, a server of this file's own):
// an invite link: a second person takes the open seat and the match begins.

import { after, before, test } from 'node:test';
import { assert, closeSuite, createTable, openSuite, snap } from '../lib/harness.mjs';

/** The suite's server, browser and pages (see openSuite). */
let suite;
let page, spy;
before(async () => {
  suite = await openSuite({ named: true });
  ({ page, spy } = suite);
});
after(() => closeSuite(suite));

test('an invite link: a second person takes the open seat and the match begins', async () => {
  await page.goto('/');
  await page.locator('.new-table').waitFor();
  const id = await createTable(page, 'dabaifen', { seat3: 'open', name: 'Ann waits for a friend' });
  const input = page.locator('.waiting .invite input');
  await input.waitFor({ timeout: 15000 });
  const invite = await input.inputValue();
  assert(invite.endsWith(`/t/${id}`), `the invite link: ${invite}`);
  await snap(page, 'invite-waiting');
  // The lobby offers to join it; the friend follows the link itself.
  await spy.goto('/');
  await spy.locator(`.open-tables li[data-table="${id}"] button[data-action="join"]`).waitFor({ timeout: 15000 });
  await spy.goto(invite);
  await spy.locator('.felt').waitFor({ timeout: 20000 });
  await spy.waitForFunction(() => document.querySelectorAll('.hand .card').length > 0, null, { timeout: 20000 });
  await page.waitForFunction(() => document.querySelector('.table-page')?.getAttribute('data-status') === 'playing', null, { timeout: 20000 });
  const names = await page.locator('.seat-name').allTextContents();
  assert(names.includes('Spy'), `the friend sits at the table: ${names}`);
  await snap(spy, 'invite-joined');
});
