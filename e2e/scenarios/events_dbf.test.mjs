// Browser scenarios (headless Chromium against the real yezi binary, a server of this file's own):
// events_dbf: a host with an account makes a Da Bai Fen duplicate event from the events page (two
// boards, one table of one person, one table of the expert bots: the par), enters it, plays each
// board's one deal from the event page's "Play it", and finds the travelling score sheets (in card
// points), the standings and the records: each board dealt the same deck at both tables from the
// board's starter (seat 0, then seat 1) with both sides at rank 2; the page in Chinese on a
// desktop (1366×768) and on a phone (390×844).

import { after, before, test } from 'node:test';
import { assert, claimAccount, closeSuite, enterName, log, openSuite, playDabaifenDeal, snap, watchedPage } from '../lib/harness.mjs';
import { noHorizontalOverflow } from '../lib/tables.mjs';

/** @type {any} */
let suite;
before(async () => {
  suite = await openSuite({ named: false });
});
after(() => closeSuite(suite));

test('events_dbf: a Da Bai Fen duplicate event is made, entered and played board by board, with its travellers, standings and records, in both languages on a desktop and a phone', async () => {
  const { browser, base } = suite;
  const desktop = { viewport: { width: 1366, height: 768 }, baseURL: base, locale: 'en-US' };
  const ctx = await browser.newContext(desktop);
  const a = await watchedPage(ctx, 'host');
  const user = `dbf_${Date.now().toString(36)}`;
  await a.goto('/');
  await enterName(a, 'Lan');
  await claimAccount(a, user);

  // The events page from the menu: none yet, and the form.
  await a.locator('header a[data-nav="events"]').click();
  await a.locator('.events-page [data-empty]').waitFor({ timeout: 15000 });
  await a.locator('form.new-event input[name="name"]').fill('Bai Fen duplicate');
  await a.locator('form.new-event select[name="game"]').selectOption('dabaifen');
  await a.locator('form.new-event p.hint[data-hint="dabaifen"]').waitFor({ timeout: 5000 });
  await a.locator('form.new-event input[name="boards"]').fill('2');
  await a.locator('form.new-event input[name="tables"]').fill('1');
  await a.locator('form.new-event input[name="par"]').fill('1');
  await snap(a, 'events-dbf-new-desktop-en');
  await a.locator('form.new-event button[data-action="create-event"]').click();
  await a.locator('.event-page[data-status="open"][data-game="dabaifen"]').waitFor({ timeout: 15000 });
  const id = await a.locator('.event-page').getAttribute('data-event');
  log(`event ${id}`);
  // Entering fills it (one seat for people): it begins, and the first board waits at a table.
  await a.locator('button[data-action="enter-event"]').click();
  for (let board = 0; board < 2; board += 1) {
    await a.locator(`.event-you[data-board="${board}"] a[data-action="play-board"]`).waitFor({ timeout: 20000 });
    if (board === 0) await snap(a, 'events-dbf-playing-desktop-en');
    await a.locator('a[data-action="play-board"]').click();
    await a.locator('.felt').waitFor({ timeout: 20000 });
    await playDabaifenDeal(a, {});
    if (board === 0) await snap(a, 'events-dbf-deal-over-desktop-en');
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
  assert(await a.locator('.event-standings tr[data-standing="Lan"]').isVisible(), 'the player in the standings');
  // The same event through the API: the travellers match the page, the records are one array.
  const ev = await (await a.request.get(`/api/events/${id}`)).json();
  assert(ev.travellers.every((/** @type {any} */ t) => t.complete && t.lines.length === 2), 'the API has both tables on each board');
  const records = await (await a.request.get(`/api/events/${id}/records`)).json();
  assert(records.length === 4, `four records (${records.length})`);
  for (const board of [0, 1]) {
    const of = records.filter((/** @type {any} */ r) => r.event.board === board);
    assert(of.length === 2 && of.every((/** @type {any} */ r) => r.game === 'dabaifen'), `board ${board}: two Da Bai Fen records`);
    const decks = of.map((/** @type {any} */ r) => JSON.stringify(r.hands[0].deck));
    assert(decks[0] === decks[1], `board ${board}: the same deck at both tables`);
    for (const r of of) {
      const h = r.hands[0];
      assert(h.starter === board && !h.first_deal && h.ranks.join() === '2,2', `board ${board}: starter ${h.starter}, first_deal ${h.first_deal}, ranks ${h.ranks}`);
      // The board's score: the margin from 40 of the deal that was not annulled, by side.
      const played = r.hands.filter((/** @type {any} */ x) => x.result?.outcome !== 'annulled');
      assert(played.length === 1, `board ${board}: one deal played`);
      const res = played[0].result;
      const line = ev.travellers[board].lines.find((/** @type {any} */ l) => l.table === r.event.table);
      const want = [0, 1, 2, 3].map((s) => (s % 2 === res.starter % 2 ? 40 - res.defender_points : res.defender_points - 40));
      assert(JSON.stringify(line.scores) === JSON.stringify(want), `board ${board} table ${r.event.table}: ${line.scores} vs ${want}`);
    }
  }
  assert(await a.locator('.travellers p.hint[data-scores="dabaifen"]').isVisible(), 'the scores are said to be card points');
  const score = await a.locator('.event-standings tr[data-standing="Lan"] td.score').textContent();
  assert(/%$/.test(score ?? ''), `a matchpoint percentage: ${score}`);
  await snap(a, 'events-dbf-finished-desktop-en');
  await a.locator('button[data-action="lang"]').click();
  await a.locator('h2', { hasText: '排名' }).waitFor({ timeout: 5000 });
  await snap(a, 'events-dbf-finished-desktop-zh');
  await noHorizontalOverflow(a, 'the event page on a desktop');

  // A phone, in Chinese, with no name: the event and the list still show.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, baseURL: base, locale: 'zh-CN', isMobile: true, hasTouch: true });
  const p = await watchedPage(phone, 'phone');
  await p.goto(`/events/${id}`);
  await p.locator('.event-page[data-status="finished"]').waitFor({ timeout: 15000 });
  assert((await p.locator('h2', { hasText: '成绩单' }).count()) === 1, 'the travellers titled in Chinese');
  assert(((await p.locator('.event-facts .event-game').textContent()) ?? '').includes('打百分'), 'the game named in Chinese');
  await noHorizontalOverflow(p, 'the event page on a phone');
  await snap(p, 'events-dbf-finished-phone-zh');
  await p.goto('/events');
  await p.locator(`.events-page tr[data-event="${id}"]`).waitFor({ timeout: 15000 });
  await noHorizontalOverflow(p, 'the events list on a phone');
  await snap(p, 'events-dbf-list-phone-zh');
  await phone.close();
  await ctx.close();
});
