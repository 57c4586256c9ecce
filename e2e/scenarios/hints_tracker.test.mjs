// Browser scenarios (headless Chromium against the real yezi binary, a server of this file's own):
// hints and the card tracker: a hint at your turn, the tracker checked against the record.

import { after, before, test } from 'node:test';
import { assert, clickAction, closeSuite, createTable, enterName, log, openSuite, sleep, snap, tableState, watchedPage } from '../lib/harness.mjs';
import { playFirstCard } from '../lib/tables.mjs';

/** The suite's server, browser and pages (see openSuite). */
let suite;
let browser, desktop, page;
before(async () => {
  suite = await openSuite({ named: true });
  ({ browser, desktop, page } = suite);
});
after(() => closeSuite(suite));

test('hints and the card tracker: a hint at your turn, the tracker checked against the record', async () => {
  const ctx = await browser.newContext(desktop);
  const h = await watchedPage(ctx, 'hints');
  await h.goto('/');
  await enterName(h, 'Hana');
  const id = await createTable(h, 'madiao', { variants: { game_length: 'hands:1' }, name: 'Hints' });
  await h.locator('.felt').waitFor({ timeout: 20000 });
  // The tracker is switched on and shown in both languages' words (English here).
  await h.locator('button[data-action="tracker"]').click();
  await h.locator('.tracker-panel .tracker').waitFor({ timeout: 15000 });
  let hinted = null;
  const finished = () => h.evaluate(() => document.querySelector('.table-page')?.getAttribute('data-status') === 'finished');
  const deadline = Date.now() + 240000;
  while (!(await finished()) && Date.now() < deadline) {
    const s = await tableState(h);
    if (s.legal === 'redeal') { await clickAction(h, 'keep'); await sleep(200); continue; }
    if (s.handEnd) {
      await h.locator('.hand-end button[data-action="next"]').click({ timeout: 5000 }).catch(() => {});
      await sleep(200);
      continue;
    }
    if (s.myTurn && s.legal === 'actions' && s.legalCards.length) {
      if (!hinted) {
        // The hint: the suggested card is marked and chosen, the reason shown.
        await h.locator('button[data-action="hint"]').click();
        const box = h.locator('.hint-box');
        await box.waitFor({ timeout: 20000 });
        const action = JSON.parse(await box.getAttribute('data-hint'));
        const card = action.play ?? action.slough;
        assert(s.legalCards.includes(card), `the hinted card ${card} is legal: ${s.legalCards}`);
        await h.waitForFunction((c) => !!document.querySelector(`.hand .card.hinted.selected[data-card="${c}"]`), card, { timeout: 5000 });
        const reason = await box.locator('.hint-reason').textContent();
        assert(reason && reason.length > 10, `a reason is shown: ${reason}`);
        log(`hint: ${JSON.stringify(action)} (${await box.getAttribute('data-kind')}): ${reason}`);
        await snap(h, 'hint');
        // Playing it: the choice of the hint is the one the buttons play.
        const buttons = (await tableState(h)).buttons;
        const choice = action.slough ? 'slough' : ['lead', 'capture'].find((b) => buttons.includes(b)) ?? buttons[0];
        await clickAction(h, choice);
        await h.waitForFunction((c) => !document.querySelector(`.hand .card[data-card="${c}"]`), card, { timeout: 10000 });
        hinted = action;
        continue;
      }
      await playFirstCard(h, s);
      continue;
    }
    await sleep(100);
  }
  assert(hinted, 'a hint was given');
  assert(await finished(), 'the one-hand match is over');
  // The tracker at the end of the hand against the record: the cards played are the record's plays.
  await h.waitForFunction(() => {
    const cells = [...document.querySelectorAll('.tracker td.played')];
    return cells.reduce((n, c) => n + (c.getAttribute('data-cards') || '').split(' ').filter((x) => x).length, 0) >= 32;
  }, null, { timeout: 15000 }).catch(() => {});
  const shown = await h.evaluate(() => [...document.querySelectorAll('.tracker td.played')].flatMap((c) => (c.getAttribute('data-cards') || '').split(' ').filter((x) => x)));
  const rec = await (await ctx.request.get(`/api/records/${id}`)).json();
  const last = rec.hands[rec.hands.length - 1];
  const plays = last.actions.flatMap((a) => (a.play ? [a.play] : a.slough ? [a.slough] : []));
  assert(plays.length === 32, `the record's last hand has 32 plays: ${plays.length}`);
  assert(JSON.stringify([...shown].sort()) === JSON.stringify([...plays].sort()), `the tracker shows the record's plays: ${shown.length} shown`);
  // The record notes the hint: the seat, the hand, how many.
  assert(JSON.stringify(rec.hints) === JSON.stringify([{ hand: rec.hands.length - 1, seat: 0, count: 1 }]) || (rec.hints && rec.hints.length === 1 && rec.hints[0].seat === 0 && rec.hints[0].count === 1), `the record notes the hint: ${JSON.stringify(rec.hints)}`);
  await snap(h, 'tracker-end');
  await ctx.close();
});
