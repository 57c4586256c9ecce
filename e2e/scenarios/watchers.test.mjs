// Browser scenarios (headless Chromium against the real yezi binary, a server of this file's own):
// the host sees who watches the table, live.

import { after, before, test } from 'node:test';
import { assert, closeSuite, createTable, enterName, openSuite, snap, watchedPage } from '../lib/harness.mjs';

/** The suite's server, browser and pages (see openSuite). */
let suite;
let browser, desktop, page;
before(async () => {
  suite = await openSuite({ named: true });
  ({ browser, desktop, page } = suite);
});
after(() => closeSuite(suite));

test('the host sees who watches the table, live', async () => {
  const hostCtx = await browser.newContext(desktop);
  const samCtx = await browser.newContext(desktop);
  const h = await watchedPage(hostCtx, 'host');
  const sam = await watchedPage(samCtx, 'sam');
  try {
    await h.goto('/');
    await enterName(h, 'Hostess Hana');
    await h.locator('.new-table').waitFor();
    const id = await createTable(h, 'madiao', { seat3: 'open', name: 'Hana waits' });
    assert((await h.locator('.watchers').count()) === 0, 'nobody watches yet');
    await sam.goto(`/t/${id}?watch`);
    await enterName(sam, 'Spectator Sam');
    await sam.locator('.table-page').waitFor({ timeout: 15000 });
    await h.locator('.watchers', { hasText: 'Spectator Sam' }).waitFor({ timeout: 15000 });
    await sam.locator('.watchers', { hasText: 'Spectator Sam' }).waitFor({ timeout: 15000 });
    await snap(h, 'host-sees-spectator');
    // Sam goes: the host's page no longer lists him.
    await sam.close();
    await h.locator('.watchers').waitFor({ state: 'detached', timeout: 15000 });
  } finally {
    await hostCtx.close();
    await samCtx.close();
  }
});
