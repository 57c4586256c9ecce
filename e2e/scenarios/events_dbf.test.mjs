// Browser scenarios (headless Chromium against the real yezi binary, a server of this file's own):
// events_dbf: a host with an account makes a Da Bai Fen duplicate event from the events page (two
// boards, one table of one person, one table of the expert bots: the par), enters it, plays each
// board's one deal from the event page's "Play it", and finds the travelling score sheets (in card
// points), the standings and the records: each board dealt the same deck at both tables from the
// board's starter (seat 0, then seat 1) with both sides at rank 2; the page in Chinese on a
// desktop (1366×768) and on a phone (390×844).

import { after, before, test } from 'node:test';
import { checkFinished, checkPages, makeEvent, playBoards } from '../lib/events.mjs';
import { assert, claimAccount, closeSuite, enterName, openSuite, playDabaifenDeal, playMatch, snap, watchedPage } from '../lib/harness.mjs';

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
  await a.goto('/');
  await enterName(a, 'Lan');
  await claimAccount(a, `dbf_${Date.now().toString(36)}`);
  // The events page from the menu: none yet, and the form with the game chosen; entering fills
  // it (one seat for people): it begins, and each board's one deal waits at a table.
  const id = await makeEvent(a, { name: 'Bai Fen duplicate', game: 'dabaifen', boards: 2, shot: 'events-dbf' });
  // A board is one deal; an annulled deal is dealt again, so the board is played to the end of
  // its match, not of its first deal.
  const playBoard = async (/** @type {import('playwright-core').Page} */ p) => assert(await playMatch(p, (q) => playDabaifenDeal(q, {})), 'the board is played out');
  await playBoards(a, id, 2, playBoard, async (board) => {
    if (board === 0) await snap(a, 'events-dbf-playing-desktop-en');
  });
  // Both boards are over at both tables: the event is finished.
  const { ev, records } = await checkFinished(a, id, 2, 'Lan');
  for (const board of [0, 1]) {
    const of = records.filter((/** @type {any} */ r) => r.event.board === board);
    assert(of.every((/** @type {any} */ r) => r.game === 'dabaifen'), `board ${board}: two Da Bai Fen records`);
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
  // In Chinese too, and on a phone in Chinese with no name: the event, its game named in
  // Chinese, and the list still show.
  await checkPages(browser, base, a, id, 'events-dbf', async (p) => {
    assert(((await p.locator('.event-facts .event-game').textContent()) ?? '').includes('打百分'), 'the game named in Chinese');
  });
  await ctx.close();
});
