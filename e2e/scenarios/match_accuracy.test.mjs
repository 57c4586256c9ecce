// Browser scenario (headless Chromium against the real yezi binary, a server of this file's own):
// a player's accuracy over a whole match (docs/analysis.md, "Over a match"). At the end of a
// two-hand Madiao match the final score says the match is not analysed yet; *Analyse my play*
// analyses its hands one after the other and then shows the accuracy over the match — the
// server's (`GET /api/games/{id}/accuracy`), which is the documented formula over the searched
// moves of both hands' analyses pooled (worked out here again from the analyses). Then My games
// and the finished table's final score show it, at desktop (1366×768) and phone (390×844) sizes
// in English and Chinese.
//
// Table seed 74 (as ready.test.mjs): the first hand is played out, the second is settled by a
// meld (no decision, so it adds no move).

import { after, before, test } from 'node:test';
import { assert, closeSuite, createTable, enterName, log, openSuite, playMadiaoMatch, snap, watchedPage } from '../lib/harness.mjs';
import { noHorizontalOverflow } from '../lib/tables.mjs';

/** The suite's server, browser and pages (see openSuite). */
let suite;
let browser, base;
before(async () => {
  suite = await openSuite({ named: true, extra: ['--table-seed', '74'] });
  ({ browser, base } = suite);
});
after(() => closeSuite(suite));

/** Lichess's accuracy of a move of cost `c` on a scale of `scale` (written out independently of the server). */
function moveAccuracy(/** @type {number} */ c, /** @type {number} */ scale) {
  return Math.min(100, Math.max(0, 103.1668 * Math.exp((-0.04354 * 100 * c) / scale) - 3.1669));
}

/** The documented accuracy of moves of costs `costs`: the mean of the arithmetic and harmonic means, to 1/10. */
function documented(/** @type {number[]} */ costs, /** @type {number} */ scale) {
  const acc = costs.map((c) => moveAccuracy(c, scale));
  const mean = acc.reduce((x, y) => x + y, 0) / acc.length;
  const harmonic = acc.length / acc.reduce((x, y) => x + 1 / Math.max(y, 1), 0);
  return Math.round(((mean + harmonic) / 2) * 10) / 10;
}

test('the accuracy over a match: at its end after Analyse my play, in My games and the final score, desktop and phone, English and Chinese', { timeout: 600000 }, async () => {
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 768 }, baseURL: base, locale: 'en-US' });
  const a = await watchedPage(ctx, 'match-accuracy');
  let id = '';
  let seat = 0;
  /** @type {any} */
  let want = null;
  /** @type {any} */
  let state = null;
  let token = '';
  try {
    await a.goto('/');
    await enterName(a, 'Mona Match');
    await a.locator('.new-table').waitFor();
    id = await createTable(a, 'madiao', { variants: { game_length: 'hands:2' }, name: 'Accuracy' });
    log(`match_accuracy table ${id}`);
    await a.locator('.felt').waitFor({ timeout: 20000 });
    assert(await playMadiaoMatch(a), 'the two-hand match is over');
    const record = await (await a.request.get(`/api/records/${id}`)).json();
    token = await a.evaluate(() => {
      for (let i = 0; i < localStorage.length; i++) {
        const v = localStorage.getItem(localStorage.key(i) ?? '') ?? '';
        const m = /"token":"([^"]+)"/.exec(v);
        if (m) return m[1];
      }
      return '';
    });
    assert(token, 'the guest token in the page\'s storage');
    seat = record.players.indexOf('Mona Match');
    assert(seat >= 0, `the person's seat in ${JSON.stringify(record.players)}`);
    const finished = record.hands.map((/** @type {any} */ h, /** @type {number} */ i) => (h.result ? i : -1)).filter((/** @type {number} */ i) => i >= 0);
    log(`outcomes ${record.hands.map((/** @type {any} */ h) => h.result && h.result.outcome)}, seat ${seat}`);

    // The final score: not analysed yet, with the button.
    const box = a.locator('.hand-end .final-score-box .match-accuracy');
    await box.waitFor({ timeout: 15000 });
    assert((await box.getAttribute('data-analysed')) === '0' && (await box.getAttribute('data-accuracy')) === '', 'nothing analysed at the end of the match');
    assert((await box.getAttribute('data-hands')) === String(finished.length), `every finished hand counted: ${await box.getAttribute('data-hands')} vs ${finished.length}`);
    assert((await box.textContent()).includes('not analysed yet'), `it says so: ${await box.textContent()}`);
    await snap(a, 'match-accuracy-end-before');
    await box.locator('[data-action="analyse-match"]').click();
    await box.locator('.analysing').waitFor({ timeout: 10000 });
    await a.locator(`.hand-end .match-accuracy[data-analysed="${finished.length}"]`).waitFor({ timeout: 300000 });

    // The server's match accuracy is the formula over both hands' searched moves, pooled.
    want = await (await a.request.get(`/api/games/${id}/accuracy?seat=${seat}`)).json();
    /** @type {number[]} */
    const costs = [];
    for (const h of finished) {
      const r = await (await a.request.get(`/api/games/${id}/analysis?hand=${h}&seat=${seat}`)).json();
      assert(r.status === 'done', `hand ${h} analysed: ${r.status}`);
      for (const d of r.analysis.decisions) if (d.verdict.kind === 'searched') costs.push(d.verdict.cost);
    }
    log(`match accuracy ${JSON.stringify(want)} from ${costs.length} moves`);
    assert(costs.length >= 2 && want.moves === costs.length, `the moves counted: ${want.moves} of ${costs.length}`);
    assert(want.accuracy === documented(costs, 4), `the pooled formula: ${want.accuracy} vs ${documented(costs, 4)}`);
    assert(want.analysed === finished.length, 'every hand analysed');
    const shown = await a.locator('.hand-end .match-accuracy').getAttribute('data-accuracy');
    assert(Number(shown) === want.accuracy, `the end shows the server's accuracy: ${shown}`);
    const text = await a.locator('.hand-end .match-accuracy').textContent();
    assert(text.includes(`${want.accuracy.toFixed(1)}%`) && text.includes('Accuracy over the match'), `the end's words: ${text}`);
    await snap(a, 'match-accuracy-end-after');
    // The same player in every context below: this context's storage (its guest token).
    state = await ctx.storageState();
  } finally {
    await ctx.close().catch(() => {});
  }
  const runs = /** @type {const} */ ([
    [{ width: 1366, height: 768 }, 'en-US', 'match-accuracy-desktop-en'],
    [{ width: 390, height: 844 }, 'zh-CN', 'match-accuracy-phone-zh'],
    [{ width: 1366, height: 768 }, 'zh-CN', 'match-accuracy-desktop-zh'],
    [{ width: 390, height: 844 }, 'en-US', 'match-accuracy-phone-en'],
  ]);
  for (const [viewport, locale, label] of runs) {
    const phone = viewport.width < 500;
    const zh = locale.startsWith('zh');
    const c = await browser.newContext({ viewport, baseURL: base, locale, storageState: state, ...(phone ? { deviceScaleFactor: 2, isMobile: true, hasTouch: true } : {}) });
    const p = await watchedPage(c, label);
    const words = zh ? '整场准确度' : 'Accuracy over the match';
    // My games: the game's row with the accuracy, the API's (My games carries the same object).
    await p.goto('/account');
    const row = p.locator(`.my-games li[data-game="${id}"]`);
    await row.waitFor({ timeout: 20000 });
    const mine = await (await p.request.get('/api/account/games', { headers: { Authorization: `Bearer ${token}` } })).json();
    const listed = mine.games.find((/** @type {any} */ g) => g.id === id);
    assert(listed && JSON.stringify(listed.accuracy) === JSON.stringify(want), `My games' API carries the match accuracy: ${JSON.stringify(listed && listed.accuracy)}`);
    const acc = row.locator('.match-accuracy');
    assert(Number(await acc.getAttribute('data-accuracy')) === want.accuracy, `${label}: My games shows ${await acc.getAttribute('data-accuracy')}`);
    const rowText = await acc.textContent();
    assert(rowText.includes(words) && rowText.includes(`${want.accuracy.toFixed(1)}%`), `${label}: My games' words ${rowText}`);
    assert((await acc.locator('[data-action="analyse-match"]').count()) === 0, `${label}: no button once every hand is analysed`);
    await noHorizontalOverflow(p, `${label}: My games`);
    await row.scrollIntoViewIfNeeded();
    await snap(p, `${label}-my-games`);
    // The finished table's final score.
    await p.goto(`/t/${id}`);
    const end = p.locator('.hand-end .final-score-box .match-accuracy');
    await end.waitFor({ timeout: 20000 });
    assert(Number(await end.getAttribute('data-accuracy')) === want.accuracy, `${label}: the final score shows ${await end.getAttribute('data-accuracy')}`);
    assert((await end.textContent()).includes(words), `${label}: the final score's words ${await end.textContent()}`);
    await noHorizontalOverflow(p, `${label}: the final score`);
    await snap(p, `${label}-final-score`);
    await c.close();
  }
});
