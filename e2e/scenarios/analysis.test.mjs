// Browser scenarios (headless Chromium against the real yezi binary, a server of this file's own):
// analysis: a finished hand analysed from the hand-end scoring and from its replay, stepped through
// and checked against the API, at desktop and phone widths.

import { after, before, test } from 'node:test';
import { assert, closeSuite, createTable, enterName, log, openSuite, playMadiaoMatch, snap, watchedPage } from '../lib/harness.mjs';
import { noHorizontalOverflow } from '../lib/tables.mjs';

/** The suite's server, browser and pages (see openSuite). */
let suite;
let browser, desktop, page, player;
before(async () => {
  suite = await openSuite({ named: true });
  ({ browser, desktop, page, player } = suite);
});
after(() => closeSuite(suite));

test('analysis: a finished hand analysed from the hand-end scoring and from its replay, stepped through and checked against the API, at desktop and phone widths', async () => {
  const ctx = await browser.newContext(desktop);
  const a = await watchedPage(ctx, 'analyst');
  try {
    await a.goto('/');
    await enterName(a, 'Ada Analyst');
    await a.locator('.new-table').waitFor();
    const id = await createTable(a, 'madiao', { variants: { game_length: 'hands:1' }, name: 'To analyse' });
    log(`analysis table ${id}`);
    await a.locator('.felt').waitFor({ timeout: 20000 });
    assert(await playMadiaoMatch(a), 'the one-hand match is over');
    // The hand-end scoring of the finished match offers the analysis of the player's seat.
    await a.locator('.hand-end button[data-action="analyse"]').click({ timeout: 30000 });
    await a.waitForURL(`**/analysis/${id}?seat=0`);
    await a.locator('.analysis-page').waitFor();
    // Its progress shows while it runs (it may be done before the page looks).
    await a.locator('.analysis-progress, .analysis-page[data-status="done"]').first().waitFor({ timeout: 15000 });
    await a.locator('.analysis-page[data-status="done"]').waitFor({ timeout: 120000 });
    const hand = Number(await a.locator('.analysis-page').getAttribute('data-hand'));
    const res = await a.request.get(`/api/games/${id}/analysis?hand=${hand}&seat=0`);
    assert(res.ok(), `GET the analysis: ${res.status()}`);
    const reply = await res.json();
    const decisions = reply.analysis.decisions;
    assert(reply.status === 'done' && decisions.length > 0 && reply.analysis.seat === 0, `the API's analysis: ${JSON.stringify(reply).slice(0, 300)}`);
    assert((await a.locator('.decision-strip li').count()) === decisions.length, 'one chip per decision');
    await snap(a, 'analysis-first-decision');
    // Step through with the arrow keys (and once with the button), checking each decision shown.
    let marked = 0;
    for (let i = 0; i < decisions.length; i++) {
      await a.locator(`.analysis-page[data-at="${i}"]`).waitFor({ timeout: 5000 });
      const d = decisions[i];
      const shown = await a.evaluate(() => {
        const el = document.querySelector('.decision');
        return {
          kind: el.getAttribute('data-kind'),
          mark: el.getAttribute('data-mark'),
          played: el.querySelector('.played .move').getAttribute('data-move'),
          bot: el.querySelector('.bot .move')?.getAttribute('data-move') ?? null,
          cost: el.querySelector('.cost')?.getAttribute('data-cost') ?? null,
          rows: el.querySelectorAll('.candidates tbody tr').length,
          faceUp: el.querySelector('.face-up')?.getAttribute('data-status') ?? null,
          chip: document.querySelector('.decision-strip .chip.on')?.textContent ?? '',
        };
      });
      const v = d.verdict;
      assert(shown.kind === v.kind && shown.played === d.played, `decision ${i}: shown ${JSON.stringify(shown)}, API ${JSON.stringify(d).slice(0, 200)}`);
      if (v.kind === 'searched') {
        assert(shown.bot === v.bot && Number(shown.cost) === v.cost && shown.rows === v.candidates.length && shown.faceUp === v.face_up.status,
          `decision ${i}: shown ${JSON.stringify(shown)}, API ${JSON.stringify(v).slice(0, 300)}`);
        assert(shown.mark === (v.mark ?? ''), `decision ${i}: mark ${shown.mark} vs ${v.mark}`);
        const sign = { inaccuracy: '?!', mistake: '?', blunder: '??' }[v.mark] ?? '';
        assert(shown.chip === `${i + 1}${sign}`, `decision ${i}: the chip reads ${shown.chip}`);
        if (v.mark) marked += 1;
      }
      if (i + 1 < decisions.length) {
        if (i === 0) await a.locator('button[data-action="next-decision"]').click();
        else await a.keyboard.press('ArrowRight');
      }
    }
    log(`analysis: ${decisions.length} decisions stepped through, ${marked} marked`);
    await a.keyboard.press('ArrowLeft');
    if (decisions.length > 1) await a.locator(`.analysis-page[data-at="${decisions.length - 2}"]`).waitFor({ timeout: 5000 });
    await snap(a, 'analysis-stepped');
    // Another seat's analysis: asked for from the page.
    await a.locator('.seat-choice button[data-seat="1"]').click();
    await a.locator('.analysis-page[data-seat="1"][data-status="done"]').waitFor({ timeout: 120000 });
    // From the replay: the hand's analysis, served from the store at once.
    await a.goto(`/replay/${id}`);
    await a.locator('.replay-body').waitFor({ timeout: 15000 });
    if (hand !== 0) {
      // The match's hand came after one that was dealt again or settled at once: the replay
      // opens at the first hand, so go to the one analysed.
      await a.locator('.replay-controls select').selectOption(String(hand));
      await a.waitForFunction((k) => document.querySelector('.replay-page')?.getAttribute('data-hand') === String(k), hand, { timeout: 15000 });
    }
    await a.locator('a[data-action="analyse"]').click();
    await a.waitForURL(`**/analysis/${id}?hand=${hand}&seat=0`);
    await a.locator('.analysis-page[data-status="done"]').waitFor({ timeout: 30000 });
    assert((await a.locator('.decision-strip li').count()) === decisions.length, 'the same analysis from the replay');
    // In Chinese, at phone width, it fits.
    await a.setViewportSize({ width: 390, height: 844 });
    await a.locator('button[data-action="lang"]').click();
    await a.locator('.analysis-page h2', { hasText: '复盘分析' }).waitFor({ timeout: 5000 });
    await noHorizontalOverflow(a, 'the analysis at 390 px');
    await snap(a, 'analysis-phone-zh');
    await a.locator('button[data-action="lang"]').click();
  } finally {
    await ctx.close();
  }
});
