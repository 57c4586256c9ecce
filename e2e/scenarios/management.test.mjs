// Browser scenarios (headless Chromium against the real yezi binary, a server of this file's own):
// table management: the host closes a table; a rematch at the end of a short match.

import { after, before, test } from 'node:test';
import { assert, closeSuite, createTable, enterName, log, openSuite, playMadiaoHand, snap, tableState, waitNextHand, watchedPage } from '../lib/harness.mjs';

/** The suite's server, browser and pages (see openSuite). */
let suite;
let browser, desktop, page, watcher;
before(async () => {
  suite = await openSuite({ named: true });
  ({ browser, desktop, page, watcher } = suite);
});
after(() => closeSuite(suite));

test('table management: the host closes a table; a rematch at the end of a short match', async () => {
  const hostCtx = await browser.newContext(desktop);
  const watchCtx = await browser.newContext(desktop);
  const host = await watchedPage(hostCtx, 'host');
  const guest = await watchedPage(watchCtx, 'host-watcher');
  // Every confirmation (closing the table) is accepted.
  host.on('dialog', (d) => d.accept());
  await host.goto('/');
  await enterName(host, 'Rex');
  await guest.goto('/');
  await enterName(guest, 'Wes');
  // 1. A table of Rex and three bots, watched by Wes; Rex closes it.
  const closing = await createTable(host, 'madiao', { name: 'Rex closes this' });
  await host.locator('.felt').waitFor({ timeout: 20000 });
  await guest.goto(`/t/${closing}?watch=1`);
  await guest.locator('.table-page[data-status="playing"]').waitFor({ timeout: 20000 });
  assert((await guest.locator('button[data-action="close-table"]').count()) === 0, 'only the host has the close button');
  await host.locator('button[data-action="close-table"]').click();
  for (const p of [host, guest]) {
    await p.locator('.table-page[data-status="closed"]').waitFor({ timeout: 15000 });
    await p.locator('.banner.closed').waitFor({ timeout: 15000 });
  }
  const banner = await guest.locator('.banner.closed').textContent();
  assert(/Rex \(the host\) closed this table/.test(banner ?? ''), `the watcher is told who closed it: ${banner}`);
  await snap(guest, 'table-closed');
  const closedSummary = await (await host.request.get(`/api/tables/${closing}`)).json();
  assert(closedSummary.status === 'closed', `the server says closed: ${closedSummary.status}`);
  const lobby = await (await host.request.get('/api/tables')).json();
  assert(!lobby.tables.some((x) => x.id === closing), 'a closed table leaves the lobby');
  // 2. A one-hand match played to its end; Rex offers a rematch; both go to the new table.
  await host.goto('/');
  await host.locator('.new-table').waitFor();
  const first = await createTable(host, 'madiao', { name: 'Rex plays once', variants: { game_length: 'hands:1' } });
  await host.locator('.felt').waitFor({ timeout: 20000 });
  await guest.goto(`/t/${first}?watch=1`);
  await guest.locator('.table-page').waitFor({ timeout: 20000 });
  // A long-suit redeal is the same hand dealt again, not one of the match's hands
  // (docs/rules/madiao.md §7): after one, Rex is ready for the next deal and plays it.
  for (let deal = 0; ; deal += 1) {
    await playMadiaoHand(host, {});
    const status = await host.locator('.table-page').getAttribute('data-status');
    if (status === 'finished') break;
    const summary = await (await host.request.get(`/api/tables/${first}`)).json();
    if (summary.status === 'finished') break;
    const banner = (await host.locator('.hand-end').first().textContent()) ?? '';
    assert(deal < 5 && /redeal/i.test(banner), `a one-hand match goes on after a hand that was not a redeal: ${banner}`);
    log('the hand was dealt again (a long suit): the match goes on');
    const redealt = (await tableState(host)).hand_no;
    await host.locator('.hand-end button[data-action="next"]').click();
    await waitNextHand(host, redealt, 20000);
  }
  await host.locator('.table-page[data-status="finished"]').waitFor({ timeout: 30000 });
  assert((await guest.locator('button[data-action="rematch"]').count()) === 0, 'only the host offers a rematch');
  await snap(host, 'rematch-button');
  await host.locator('button[data-action="rematch"]').click();
  let next = null;
  for (const p of [host, guest]) {
    await p.locator('.banner.rematch button[data-action="go-rematch"]').waitFor({ timeout: 15000 });
    next = await p.locator('.banner.rematch').getAttribute('data-rematch');
  }
  assert(next && next !== first, `a new table is offered: ${next}`);
  await snap(guest, 'rematch-offer');
  await host.locator('button[data-action="go-rematch"]').click();
  await host.locator(`.table-page[data-table="${next}"]`).waitFor({ timeout: 20000 });
  await host.locator(`.table-page[data-table="${next}"][data-status="playing"]`).waitFor({ timeout: 20000 });
  await guest.locator('button[data-action="go-rematch"]').click();
  await guest.locator(`.table-page[data-table="${next}"]`).waitFor({ timeout: 20000 });
  const summary = await (await host.request.get(`/api/tables/${next}`)).json();
  assert(summary.seats[0].name === 'Rex' && summary.seats.slice(1).every((s) => s.kind === 'bot'), `the same seats: ${JSON.stringify(summary.seats.map((s) => s.name))}`);
  assert(summary.variants.game_length === 'hands:1', `the same settings: ${summary.variants.game_length}`);
  // 3. The finished match is in Rex's games, with its result; the filters keep or drop it; it opens its replay.
  await host.locator('a[data-nav="account"]').click();
  const row = host.locator(`.my-games li[data-game="${first}"]`);
  await row.waitFor({ timeout: 15000 });
  const result = await row.getAttribute('data-result');
  assert(['won', 'lost', 'drawn'].includes(result ?? ''), `a result: ${result}`);
  assert((await host.locator(`.my-games li[data-game="${closing}"]`).count()) === 0, 'a closed table is not a game');
  const other = result === 'won' ? 'lost' : 'won';
  await host.locator('.games-filter select[name="result"]').selectOption(other);
  await host.locator('button[data-action="filter-games"]').click();
  await host.locator(`.my-games li[data-game="${first}"]`).waitFor({ state: 'detached', timeout: 15000 });
  await host.locator('.games-filter select[name="result"]').selectOption(result ?? '');
  await host.locator('.games-filter input[name="opponent"]').fill('bot:');
  await host.locator('button[data-action="filter-games"]').click();
  await row.waitFor({ timeout: 15000 });
  await snap(host, 'my-games');
  await row.locator('[data-action="replay"]').click();
  await host.waitForURL(`**/replay/${first}`, { timeout: 15000 });
  await hostCtx.close();
  await watchCtx.close();
});
