// Browser scenarios (headless Chromium against the real yezi binary, a server of this file's own):
// Da Bai Fen burial puzzles on the puzzles page, in English on a desktop (1366×768) and in Chinese
// on a phone (390×844): the starter's 18 cards drawn with the burial prompt, six chosen and
// buried; a right burial (rated: the puzzle rating rises) and a wrong one (the rule broken, what
// it costs on average, the best burial glowing), the rule and the line in the page's language.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { assert, enterName, launchBrowser, log, root, snap, startServer, watchedPage } from '../lib/harness.mjs';
import { noHorizontalOverflow } from '../lib/tables.mjs';

const DATA = JSON.parse(readFileSync(join(root, 'crates/server/data/puzzles-dabaifen.json'), 'utf8'));
/** The shipped burial puzzles. */
const BURIALS = DATA.puzzles.filter((/** @type {any} */ p) => p.burial);

/** @type {any} */
let suite = {};
before(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'yezi-e2e-'));
  const { proc, base } = await startServer(dir);
  log(`yezi serve at ${base}`);
  suite = { dir, proc, base, browser: await launchBrowser() };
});
after(async () => {
  await suite.browser?.close();
  suite.proc?.kill('SIGTERM');
  if (suite.dir) rmSync(suite.dir, { recursive: true, force: true });
  const { problems } = await import('../lib/harness.mjs');
  assert(problems.length === 0, `no console errors or warnings: ${problems.length} found:\n${problems.join('\n')}`);
});

/**
 * True when a burial follows the puzzle's rule. @param {any} puzzle @param {string[]} cards
 */
function follows(puzzle, cards) {
  const r = puzzle.burial;
  return r.must_bury.every((/** @type {string} */ c) => cards.includes(c)) && !r.must_keep.some((/** @type {string} */ c) => cards.includes(c));
}

/**
 * Buries `cards` in the puzzle shown: taps each card of the hand, then "Bury these six".
 * @param {import('playwright-core').Page} p @param {string[]} cards
 */
async function bury(p, cards) {
  const button = p.locator('.puzzle .prompt button[data-action="bury"]');
  for (const c of cards) {
    assert(await button.isDisabled(), 'the bury button waits for six cards');
    await p.locator(`.puzzle .hand .card[data-card="${c}"]`).click();
  }
  await button.click();
  await p.locator('.verdict[data-verdict]').waitFor({ timeout: 15000 });
}

test('burial puzzles: English desktop and Chinese phone: the 18 cards, six buried, right and wrong with the rule', async () => {
  assert(BURIALS.length >= 2, `burial puzzles are shipped (${BURIALS.length})`);
  const runs = /** @type {const} */ ([
    [{ width: 1366, height: 768 }, 'en-US', 'burial-desktop-en', 0],
    [{ width: 390, height: 844 }, 'zh-CN', 'burial-phone-zh', 1],
  ]);
  for (const [viewport, locale, label, k] of runs) {
    const phone = viewport.width < 500;
    const zh = locale.startsWith('zh');
    const ctx = await suite.browser.newContext({ viewport, baseURL: suite.base, locale, ...(phone ? { deviceScaleFactor: 2, isMobile: true, hasTouch: true } : {}) });
    const p = await watchedPage(ctx, label);
    await p.goto('/');
    await enterName(p, zh ? '埋底人' : 'Burier');

    // A burial puzzle by its link: the starter's 18 cards and the burial prompt.
    const right = BURIALS[k];
    await p.goto(`/puzzles?game=dabaifen&id=${encodeURIComponent(right.id)}`);
    await p.locator(`.puzzle[data-puzzle="${right.id}"]`).waitFor({ timeout: 15000 });
    assert((await p.locator('.puzzle .hand .card').count()) === 18, `${label}: the 18 cards are drawn`);
    const ask = (await p.locator('.puzzle-ask').textContent()) ?? '';
    assert(zh ? ask.includes('埋') : ask.includes('bury six'), `${label}: the task is the burial: ${ask}`);
    const themes = (await p.locator('.puzzle-themes').textContent()) ?? '';
    assert(zh ? themes.includes('埋底') : themes.includes('the burial'), `${label}: the theme: ${themes}`);
    await noHorizontalOverflow(p, `${label} position`);
    await snap(p, `${label}-position`);

    // The right burial: rated, the rule stated, the line of the actual deal.
    const answer = right.answers[0].bury;
    assert(follows(right, answer), `${label}: the shipped answer follows its rule`);
    await bury(p, answer);
    assert((await p.locator('.verdict').getAttribute('data-verdict')) === 'right', `${label}: the burial is right`);
    const reason = (await p.locator('.verdict .puzzle-reason').textContent()) ?? '';
    assert(zh ? reason.includes('要点：埋') : reason.includes('The rule: bury'), `${label}: the rule is stated: ${reason}`);
    assert(!reason.includes('{') && !reason.includes('puzzle.'), `${label}: written out: ${reason}`);
    assert((await p.locator('.verdict .puzzle-line li').count()) === right.line.length, `${label}: the line is listed`);
    const rated = Number(await p.locator('.verdict .puzzle-rating').getAttribute('data-rating'));
    assert(rated > 1500, `${label}: a right first answer raises the puzzle rating (${rated})`);
    const summary = (await p.locator('.verdict .puzzle-moves summary').textContent()) ?? '';
    assert(summary.length > 3, `${label}: the burials' values are offered`);
    await noHorizontalOverflow(p, `${label} right`);
    await snap(p, `${label}-right`);

    // Another burial puzzle, buried wrong: a listed burial that breaks the rule.
    const other = BURIALS[BURIALS.length - 1 - k];
    await p.goto(`/puzzles?game=dabaifen&id=${encodeURIComponent(other.id)}`);
    await p.locator(`.puzzle[data-puzzle="${other.id}"]`).waitFor({ timeout: 15000 });
    const wrong = other.moves.map((/** @type {any} */ m) => m.action.bury).find((/** @type {string[]} */ b) => !follows(other, b));
    assert(wrong, `${label}: ${other.id} lists a wrong burial`);
    await bury(p, wrong);
    assert((await p.locator('.verdict').getAttribute('data-verdict')) === 'wrong', `${label}: the burial is wrong`);
    const mistake = (await p.locator('.verdict .puzzle-mistake').textContent()) ?? '';
    assert(zh ? mistake.includes('违反要点') && mistake.includes('少得') : mistake.includes('breaks the rule') && mistake.includes('less than'), `${label}: why it is wrong: ${mistake}`);
    const after = Number(await p.locator('.verdict .puzzle-rating').getAttribute('data-rating'));
    assert(after < rated, `${label}: a wrong first answer lowers the rating (${rated} → ${after})`);
    // The best burial glows in the hand.
    assert((await p.locator('.puzzle .hand .card.hinted').count()) === 6, `${label}: the best burial's six cards are marked`);
    await noHorizontalOverflow(p, `${label} wrong`);
    await snap(p, `${label}-wrong`);
    await ctx.close();
  }
});
