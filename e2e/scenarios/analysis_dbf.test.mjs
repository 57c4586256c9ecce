// Browser scenario (headless Chromium against the real yezi binary, a server of this file's own):
// the analysis says why in Da Bai Fen, as analysis_why.test.mjs shows it for Madiao — a finished
// deal's analysis opened by its deep link (and reloaded): each searched decision's position drawn
// with the table's cards (the hand, the trick so far, the trump), the best move and the move made
// marked on them, the reasons in the page's language, the moves weighed sorted with the
// difference to the best and the defenders' points, at desktop (1366×768) and phone (390×844)
// sizes in English and Chinese. The person plays one deal; the host then ends the match and keeps
// it (a Da Bai Fen match runs to the Ace), so the deal is a finished game's hand.
//
// The server is seeded (`--table-seed 74`: the same deal every run) and analyses with a small
// budget (`--analysis-think-ms 10`), so that the debug build analyses the whole deal in time.

import { after, before, test } from 'node:test';
import { assert, closeSuite, createTable, enterName, log, openSuite, playDabaifenDeal, snap, watchedPage } from '../lib/harness.mjs';
import { cardsOf, openSharedAnalysis, showCostlyAndReload } from '../lib/analysis.mjs';

/** The suite's server, browser and pages (see openSuite). */
let suite;
let browser, base;
before(async () => {
  suite = await openSuite({ named: true, extra: ['--table-seed', '74', '--analysis-think-ms', '10'] });
  ({ browser, base } = suite);
});
after(() => closeSuite(suite));

/** The same cards, in any order (the hand shows a burial's cards in its own order). @param {string[]} x @param {string[]} y */
function same(x, y) {
  return JSON.stringify([...x].sort()) === JSON.stringify([...y].sort());
}

test('Da Bai Fen: the analysis says why — position, trump, marks, reasons, sorted moves, by deep link and reload, desktop and phone, English and Chinese', { timeout: 900000 }, async () => {
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 768 }, baseURL: base, locale: 'en-US' });
  const a = await watchedPage(ctx, 'dbf-why');
  let id;
  let seat = 0;
  let hand = 0;
  try {
    await a.goto('/');
    await enterName(a, 'Dai Why');
    await a.locator('.new-table').waitFor();
    id = await createTable(a, 'dabaifen', { name: 'Why DBF' });
    log(`analysis_dbf table ${id}`);
    await a.locator('.felt').waitFor({ timeout: 20000 });
    const played = await playDabaifenDeal(a, {});
    log(`played ${played} times in the deal`);
    // End the match, keeping the finished deal as a game.
    // The host's confirmation of "End and keep" (the deal's own dialogs are the harness's).
    // (A dialog listener of the harness's may still wait for a multi-card lead's warning that
    // never came: it then accepts this one first.)
    a.once('dialog', (d) => d.accept().catch(() => {}));
    await a.locator('[data-action="end-keep"]').click({ force: true });
    // The record is served once the match has ended.
    /** @type {any} */
    let record = null;
    for (let i = 0; i < 60 && !record; i++) {
      const r = await a.request.get(`/api/records/${id}`);
      if (r.status() === 200) record = await r.json();
      else await new Promise((res) => setTimeout(res, 500));
    }
    assert(record, 'the match ended and kept: its record is served');
    seat = record.players.indexOf('Dai Why');
    assert(seat >= 0, `the person's seat in ${JSON.stringify(record.players)}`);
    hand = record.hands.findIndex((/** @type {any} */ h) => h.result && h.actions.some((/** @type {any} */ x) => x.seat === seat && x.play));
    assert(hand >= 0, `a deal the person played: ${record.hands.length} hands`);
    log(`seat ${seat}, hand ${hand} of ${record.hands.length}`);
    // Ask for the analysis by its deep link (the server serves the page there).
    await a.goto(`/analysis/${id}?hand=${hand}&seat=${seat}`);
    await a.locator('.analysis-page[data-status="done"]').waitFor({ timeout: 600000 });
  } finally {
    await ctx.close();
  }
  const runs = /** @type {const} */ ([
    [{ width: 1366, height: 768 }, 'en-US', 'analysis-dbf-desktop-en'],
    [{ width: 390, height: 844 }, 'zh-CN', 'analysis-dbf-phone-zh'],
  ]);
  for (const [viewport, locale, label] of runs) {
    const { c, p, an, zh } = await openSharedAnalysis(browser, base, { id, hand, seat }, viewport, locale, label);
    // Every searched decision: its position, marks, reasons and sorted candidates.
    let shownWhyNot = false;
    for (let i = 0; i < an.decisions.length; i++) {
      const d = an.decisions[i];
      await p.locator(`.decision-strip .chip[data-index="${i}"]`).click();
      await p.locator(`.analysis-page[data-at="${i}"]`).waitFor({ timeout: 5000 });
      if (d.verdict.kind !== 'searched' || !d.position) continue;
      const v = d.verdict;
      const shown = await p.evaluate(() => {
        const el = /** @type {HTMLElement} */ (document.querySelector('.decision'));
        const cards = (/** @type {string} */ sel) => [...el.querySelectorAll(sel)].map((x) => x.getAttribute('data-card'));
        return {
          hand: cards('.pos-hand .pos-card'),
          best: cards('.pos-hand .pos-card.best'),
          made: cards('.pos-hand .pos-card.made'),
          trick: el.querySelectorAll('.pos-trick .pos-play').length,
          whyBest: el.querySelector('.why-best')?.textContent ?? '',
          whyNot: el.querySelector('.why-not')?.textContent ?? null,
          values: [...el.querySelectorAll('.candidates tbody tr td:nth-child(2)')].map((x) => Number(x.textContent)),
          firstAction: el.querySelector('.candidates tbody tr')?.getAttribute('data-action') ?? '',
          trump: el.querySelector('.trump-shown')?.getAttribute('data-trump') ?? '',
          points: [...el.querySelectorAll('.candidates tbody tr td:nth-child(4)')].map((x) => x.textContent),
        };
      });
      assert(JSON.stringify(shown.hand) === JSON.stringify(d.position.hand), `${label} ${i}: the hand ${shown.hand} vs ${d.position.hand}`);
      assert(shown.trick === d.position.trick.length, `${label} ${i}: the trick so far`);
      const inHand = (/** @type {string} */ x) => d.position.hand.includes(x);
      assert(same(shown.best, cardsOf(v.bot).filter(inHand)), `${label} ${i}: best marked ${shown.best} for ${v.bot}`);
      assert(same(shown.made, cardsOf(d.played).filter(inHand)), `${label} ${i}: made marked ${shown.made} for ${d.played}`);
      if (d.trick !== null) assert(shown.trump === (d.position.trump ?? ''), `${label} ${i}: the trump shown ${shown.trump} vs ${d.position.trump}`);
      assert(shown.whyBest.includes(zh ? d.why.best.zh : d.why.best.en), `${label} ${i}: the reason for the best move ${shown.whyBest}`);
      if (d.why.played) {
        assert(shown.whyNot !== null && shown.whyNot.includes(zh ? d.why.played.zh : d.why.played.en), `${label} ${i}: the reason against ${shown.whyNot}`);
        shownWhyNot = true;
      }
      for (let k = 1; k < shown.values.length; k++) assert(shown.values[k - 1] >= shown.values[k], `${label} ${i}: moves sorted by value ${shown.values}`);
      const top = Math.max(...v.candidates.map((/** @type {any} */ x) => x.value));
      assert(v.candidates.find((/** @type {any} */ x) => x.action === shown.firstAction)?.value === top, `${label} ${i}: the best value first`);
      // The face-up verdict in a player's words.
      const fu = await p.locator('.decision .face-up').textContent();
      assert(!fu.includes('exact solver is used') && !fu.includes('tricks remain'), `${label} ${i}: face-up words for players: ${fu}`);
    }
    assert(an.game === 'dabaifen' && an.unit === 'levels', `${label}: a Da Bai Fen analysis in levels`);
    log(`${label}: ${an.decisions.length} decisions, accuracy ${an.summary.accuracy}, a reason against a move shown: ${shownWhyNot}`);
    // Show a decision with a cost when there is one, for the screenshot; then a reload.
    await showCostlyAndReload(p, an, hand, label);
    await c.close();
  }
});
