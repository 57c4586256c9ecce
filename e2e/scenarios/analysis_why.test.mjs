// Browser scenarios (headless Chromium against the real yezi binary, a server of this file's own):
// the analysis says why — a finished Madiao hand's analysis opened by its deep link (and
// reloaded), each searched decision's position drawn with the table's cards, the best move and
// the move made marked on them, the reasons in the page's language, the moves weighed sorted
// with the difference to the best, the accuracy, luck and play and the graph, at desktop
// (1366×768) and phone (390×844) sizes in English and Chinese; and a hand in which the seat had no
// decision (settled by a meld) says so, with no accuracy and no error.
//
// The server is given table seed 74 (as ready.test.mjs): its first table's first hand goes
// straight to play (no meld, four lowest or long suit; `crates/server/src/lib.rs`
// table_seed_74_…), so the person's seat has decisions to analyse, and its second hand is
// settled by a meld. Unseeded, a first hand settled by a meld or four lowest, or redealt for a
// bot's long suit (the record's hand 0 then has no decision of the person's seat), left the
// analysis without an accuracy now and then.

import { after, before, test } from 'node:test';
import { assert, closeSuite, createTable, enterName, log, openSuite, playMadiaoMatch, snap, watchedPage } from '../lib/harness.mjs';
import { cardsOf, openSharedAnalysis, showCostlyAndReload } from '../lib/analysis.mjs';

/** The suite's server, browser and pages (see openSuite). */
let suite;
let browser, base;
before(async () => {
  suite = await openSuite({ named: true, extra: ['--table-seed', '74'] });
  ({ browser, base } = suite);
});
after(() => closeSuite(suite));

test('the analysis says why: position, marks, reasons, sorted moves, accuracy and graph, by deep link and reload, desktop and phone, English and Chinese', { timeout: 600000 }, async () => {
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 768 }, baseURL: base, locale: 'en-US' });
  const a = await watchedPage(ctx, 'why');
  let id;
  /** The person's seat and the hand analysed (the first hand played out), from the record. */
  let seat = 0;
  let hand = 0;
  /** A hand settled before the first trick, if the match had one. */
  let settled = -1;
  try {
    await a.goto('/');
    await enterName(a, 'Wendy Why');
    await a.locator('.new-table').waitFor();
    id = await createTable(a, 'madiao', { variants: { game_length: 'hands:2' }, name: 'Why' });
    log(`analysis_why table ${id}`);
    await a.locator('.felt').waitFor({ timeout: 20000 });
    assert(await playMadiaoMatch(a), 'the two-hand match is over');
    const record = await (await a.request.get(`/api/records/${id}`)).json();
    seat = record.players.indexOf('Wendy Why');
    assert(seat >= 0, `the person's seat in ${JSON.stringify(record.players)}`);
    hand = record.hands.findIndex((/** @type {any} */ h) => h.result && h.result.outcome === 'played' && h.actions.some((/** @type {any} */ x) => x.seat === seat));
    settled = record.hands.findIndex((/** @type {any} */ h) => h.result && ['meld', 'four_lowest', 'redeal'].includes(h.result.outcome) && !h.actions.some((/** @type {any} */ x) => x.seat === seat));
    log(`outcomes ${record.hands.map((/** @type {any} */ h) => h.result && h.result.outcome)}: seat ${seat}, hand ${hand} analysed, hand ${settled} without a decision`);
    // Seed 74: the first hand is played out, the second settled by a meld.
    assert(hand === 0 && settled === 1, `the seeded deals: hand ${hand} played, hand ${settled} settled`);
    // Ask for the analysis by its deep link (the server serves the page there).
    await a.goto(`/analysis/${id}?hand=${hand}&seat=${seat}`);
    await a.locator('.analysis-page[data-status="done"]').waitFor({ timeout: 180000 });
    // The hand without a decision of the seat: analysed, it says why there is nothing, no accuracy.
    await a.goto(`/analysis/${id}?hand=${settled}&seat=${seat}`);
    await a.locator('.analysis-page[data-status="done"]').waitFor({ timeout: 60000 });
    const empty = await (await a.request.get(`/api/games/${id}/analysis?hand=${settled}&seat=${seat}`)).json();
    assert(empty.analysis.decisions.length === 0 && empty.analysis.summary.accuracy === undefined, `no decision, no accuracy: ${JSON.stringify(empty.analysis.summary)}`);
    const outcome = record.hands[settled].result.outcome;
    await a.locator(`.analysis-empty[data-outcome="${outcome}"]`).waitFor({ timeout: 5000 });
    const said = await a.locator('.analysis-empty').textContent();
    assert(said.includes(outcome === 'meld' ? 'meld' : outcome === 'redeal' ? 'dealt again' : 'four lowest'), `the page says why: ${said}`);
    assert((await a.locator('.analysis-accuracy, .value-graph').count()) === 0, 'no accuracy or graph without a decision');
    await snap(a, 'analysis-why-no-decision-en');
  } finally {
    await ctx.close();
  }
  const runs = /** @type {const} */ ([
    [{ width: 1366, height: 768 }, 'en-US', 'analysis-why-desktop-en'],
    [{ width: 390, height: 844 }, 'zh-CN', 'analysis-why-phone-zh'],
    [{ width: 1366, height: 768 }, 'zh-CN', 'analysis-why-desktop-zh'],
    [{ width: 390, height: 844 }, 'en-US', 'analysis-why-phone-en'],
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
        };
      });
      assert(JSON.stringify(shown.hand) === JSON.stringify(d.position.hand), `${label} ${i}: the hand ${shown.hand} vs ${d.position.hand}`);
      assert(shown.trick === d.position.trick.length, `${label} ${i}: the trick so far`);
      const inHand = (/** @type {string} */ x) => d.position.hand.includes(x);
      assert(JSON.stringify(shown.best) === JSON.stringify(cardsOf(v.bot).filter(inHand)), `${label} ${i}: best marked ${shown.best} for ${v.bot}`);
      assert(JSON.stringify(shown.made) === JSON.stringify(cardsOf(d.played).filter(inHand)), `${label} ${i}: made marked ${shown.made} for ${d.played}`);
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
    log(`${label}: ${an.decisions.length} decisions, accuracy ${an.summary.accuracy}, a reason against a move shown: ${shownWhyNot}`);
    // Show a decision with a cost when there is one, for the screenshot; then a reload.
    await showCostlyAndReload(p, an, hand, label);
    await c.close();
  }
});
