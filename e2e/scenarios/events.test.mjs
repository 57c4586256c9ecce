// Browser scenarios (headless Chromium against the real yezi binary, a server of this file's own):
// events: a host with an account makes a duplicate event from the events page (two boards, one
// table of one person, one table of the expert bots: the par), enters it, plays each board from
// the event page's "Play it", and finds the travelling score sheets, the standings and the
// records; the page in Chinese on a desktop (1366×768) and on a phone (390×844).

import { after, before, test } from 'node:test';
import { checkFinished, checkPages, makeEvent, playBoards } from '../lib/events.mjs';
import { assert, claimAccount, closeSuite, enterName, openSuite, playMadiaoMatch, snap, watchedPage } from '../lib/harness.mjs';
import { noSidewaysScroll } from '../lib/tables.mjs';

/** @type {any} */
let suite;
before(async () => {
  suite = await openSuite({ named: false });
});
after(() => closeSuite(suite));

test('events: a duplicate event is made, entered and played board by board, with its travellers, standings and records, in both languages on a desktop and a phone', async () => {
  const { browser, base } = suite;
  const desktop = { viewport: { width: 1366, height: 768 }, baseURL: base, locale: 'en-US' };
  const ctx = await browser.newContext(desktop);
  const a = await watchedPage(ctx, 'host');
  await a.goto('/');
  await enterName(a, 'Hana');
  await claimAccount(a, `host_${Date.now().toString(36)}`);
  // The events page from the menu: none yet, and the form; entering fills it (one seat for
  // people): it begins, and each board waits at a table.
  const id = await makeEvent(a, { name: 'Tuesday duplicate', game: 'madiao', boards: 2, shot: 'events' });
  // A board is a one-hand match; a hand that nobody pays is dealt again (Madiao §7), so the
  // board is played to the end of its match, not of its first hand.
  const playBoard = async (/** @type {import('playwright-core').Page} */ p) => assert(await playMadiaoMatch(p), 'the board is played out');
  await playBoards(a, id, 2, playBoard, async (board) => {
    if (board !== 0) return;
    await snap(a, 'events-playing-desktop-en');
    // On a phone while it plays: each table with its board's watch link, on the screen,
    // nothing scrolling sideways (neither the page nor a list in it).
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, baseURL: base, locale: 'zh-CN', isMobile: true, hasTouch: true });
    const p = await watchedPage(phone, 'phone-playing');
    await p.goto(`/events/${id}`);
    const watch = p.locator('.event-tables a[data-watch]').first();
    await watch.waitFor({ timeout: 15000 });
    await noSidewaysScroll(p, 'the event in play on a phone');
    const box = await watch.boundingBox();
    assert(box && box.x >= 0 && box.x + box.width <= 390, `the watch link is on the phone's screen: ${JSON.stringify(box)}`);
    await snap(p, 'events-playing-phone-zh');
    await phone.close();
  });
  // Both boards are over at both tables: the event is finished, the same on the page and
  // through the API, its records one array.
  await checkFinished(a, id, 2, 'Hana');
  // In Chinese too, and on a phone in Chinese with no name: the event and the list still show.
  await checkPages(browser, base, a, id, 'events');
  await ctx.close();
});
