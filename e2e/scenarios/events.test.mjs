// Browser scenarios (headless Chromium against the real yezi binary, a server of this file's own):
// events: a host with an account makes a duplicate event from the events page (two boards, one
// table of one person, one table of the expert bots: the par), enters it, plays each board from
// the event page's "Play it", and finds the travelling score sheets, the standings and the
// records; the page in Chinese on a desktop (1366×768) and on a phone (390×844).

import { after, before, test } from 'node:test';
import { assert, claimAccount, closeSuite, enterName, log, openSuite, playMadiaoHand, snap, watchedPage } from '../lib/harness.mjs';
import { noHorizontalOverflow, noSidewaysScroll } from '../lib/tables.mjs';

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
  const user = `host_${Date.now().toString(36)}`;
  await a.goto('/');
  await enterName(a, 'Hana');
  await claimAccount(a, user);

  // The events page from the menu: none yet, and the form.
  await a.locator('header a[data-nav="events"]').click();
  await a.locator('.events-page [data-empty]').waitFor({ timeout: 15000 });
  await a.locator('form.new-event input[name="name"]').fill('Tuesday duplicate');
  await a.locator('form.new-event input[name="boards"]').fill('2');
  await a.locator('form.new-event input[name="tables"]').fill('1');
  await a.locator('form.new-event input[name="par"]').fill('1');
  await snap(a, 'events-new-desktop-en');
  await a.locator('form.new-event button[data-action="create-event"]').click();
  await a.locator('.event-page[data-status="open"]').waitFor({ timeout: 15000 });
  const id = await a.locator('.event-page').getAttribute('data-event');
  log(`event ${id}`);
  // Entering fills it (one seat for people): it begins, and the first board waits at a table.
  await a.locator('button[data-action="enter-event"]').click();
  for (let board = 0; board < 2; board += 1) {
    await a.locator(`.event-you[data-board="${board}"] a[data-action="play-board"]`).waitFor({ timeout: 20000 });
    if (board === 0) {
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
    }
    await a.locator('a[data-action="play-board"]').click();
    await a.locator('.felt').waitFor({ timeout: 20000 });
    await playMadiaoHand(a, {});
    await a.goto(`/events/${id}`);
  }
  // Both boards are over at both tables: the event is finished.
  await a.locator('.event-page[data-status="finished"]').waitFor({ timeout: 60000 });
  assert((await a.locator('.traveller').count()) === 2, 'a travelling score sheet per board');
  for (const board of [0, 1]) {
    const lines = await a.locator(`.traveller[data-board="${board}"] tbody tr`).count();
    assert(lines === 2, `board ${board}: the person's table and the par's (${lines} lines)`);
  }
  assert((await a.locator('.event-standings tbody tr').count()) === 8, 'every seat of both tables in the standings');
  assert(await a.locator('.event-standings tr[data-standing="Hana"]').isVisible(), 'the player in the standings');
  // The same event through the API: the travellers match the page, the records are one array.
  const ev = await (await a.request.get(`/api/events/${id}`)).json();
  assert(ev.travellers.every((/** @type {any} */ t) => t.complete && t.lines.length === 2), 'the API has both tables on each board');
  const records = await (await a.request.get(`/api/events/${id}/records`)).json();
  assert(records.length === 4, `four records (${records.length})`);
  for (const board of [0, 1]) {
    const decks = records.filter((/** @type {any} */ r) => r.event.board === board).map((/** @type {any} */ r) => JSON.stringify(r.hands[0].deck));
    assert(decks.length === 2 && decks[0] === decks[1], `board ${board}: the same deck at both tables`);
  }
  const score = await a.locator('.event-standings tr[data-standing="Hana"] td.score').textContent();
  assert(/%$/.test(score ?? ''), `a matchpoint percentage: ${score}`);
  await snap(a, 'events-finished-desktop-en');
  await a.locator('button[data-action="lang"]').click();
  await a.locator('h2', { hasText: '排名' }).waitFor({ timeout: 5000 });
  await snap(a, 'events-finished-desktop-zh');
  await noHorizontalOverflow(a, 'the event page on a desktop');

  // A phone, in Chinese, with no name: the event and the list still show.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, baseURL: base, locale: 'zh-CN', isMobile: true, hasTouch: true });
  const p = await watchedPage(phone, 'phone');
  await p.goto(`/events/${id}`);
  await p.locator('.event-page[data-status="finished"]').waitFor({ timeout: 15000 });
  assert((await p.locator('h2', { hasText: '成绩单' }).count()) === 1, 'the travellers titled in Chinese');
  await noSidewaysScroll(p, 'the event page on a phone');
  await snap(p, 'events-finished-phone-zh');
  await p.goto('/events');
  await p.locator(`.events-page tr[data-event="${id}"]`).waitFor({ timeout: 15000 });
  await noSidewaysScroll(p, 'the events list on a phone');
  await snap(p, 'events-list-phone-zh');
  await phone.close();
  await ctx.close();
});
