// Browser scenarios (headless Chromium against the real yezi binary, a server of this file's own):
// a newcomer picks a name and sees the lobby; a table created with a relaxed pace and a grace
// period shows them (table, lobby, API).

import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { assert, closeSuite, createTable, enterName, openSuite, snap, watchedPage } from '../lib/harness.mjs';

/** The suite's server, browser and pages (see openSuite). */
let suite;
let browser, desktop, page;
before(async () => {
  suite = await openSuite({ named: false });
  ({ browser, desktop, page } = suite);
});
after(() => closeSuite(suite));

test('a newcomer picks a name and sees the lobby', async () => {
  await page.goto('/');
  await snap(page, 'first-visit');
  await enterName(page, 'Ann');
  await page.locator('.new-table').waitFor();
  await snap(page, 'lobby');
});

test('a table created with a relaxed pace and a grace period shows them (table, lobby, API)', async () => {
  const ctx = await browser.newContext(desktop);
  const p = await watchedPage(ctx, 'pace');
  await p.goto('/');
  await enterName(p, 'Pia');
  await p.locator('.new-table').waitFor();
  // The form offers the three paces, normal first chosen, and the default grace.
  const form = await p.evaluate(() => ({
    paces: [...document.querySelectorAll('select[name="pace"] option')].map((o) => o.getAttribute('value')),
    pace: /** @type {HTMLSelectElement} */ (document.querySelector('select[name="pace"]')).value,
    grace: /** @type {HTMLInputElement} */ (document.querySelector('input[name="grace"]')).value,
  }));
  assert(form.paces.join(' ') === 'relaxed normal fast' && form.pace === 'normal' && form.grace === '15', `the form: ${JSON.stringify(form)}`);
  const id = await createTable(p, 'madiao', { pace: 'relaxed', grace: 40, name: 'Pia takes her time' });
  await p.locator('.felt').waitFor({ timeout: 20000 });
  const head = await p.evaluate(() => {
    const tp = document.querySelector('.table-page');
    return { pace: tp?.getAttribute('data-pace'), grace: tp?.getAttribute('data-grace'), text: document.querySelector('.table-head .sub')?.textContent ?? '' };
  });
  await snap(p, 'pace-relaxed-table');
  assert(head.pace === 'relaxed' && head.grace === '40', `the table page's settings: ${JSON.stringify(head)}`);
  assert(/pace: relaxed/.test(head.text) && /grace 40 s/.test(head.text), `the header shows them: ${head.text}`);
  const summary = await (await p.request.get(`/api/tables/${id}`)).json();
  assert(summary.pace === 'relaxed' && summary.grace_seconds === 40, `the server keeps them: ${summary.pace} ${summary.grace_seconds}`);
  await p.goto('/');
  await p.locator(`.open-tables li[data-table="${id}"] .tb-pace[data-pace="relaxed"]`).waitFor({ timeout: 15000 });
  assert(/pace: relaxed/.test(await p.locator(`.open-tables li[data-table="${id}"] .tb-pace`).textContent()), 'the lobby shows the pace');
  await snap(p, 'pace-lobby');
  await ctx.close();
});
