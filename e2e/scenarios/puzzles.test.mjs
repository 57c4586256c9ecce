// Browser scenarios (headless Chromium against the real yezi binary, a server of this file's own):
// puzzles: the puzzles page reached from the menu in both games and both languages, on a desktop
// (1366×768) and a phone (390×844): the position drawn with the table's felt and hand, a right
// answer (rated: the player's puzzle rating moves) and a wrong one (the reason and what it costs),
// the line, the next puzzle; and a tutorial's practice after its guided hand.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { assert, enterName, launchBrowser, log, root, snap, startServer, watchedPage } from '../lib/harness.mjs';
import { noHorizontalOverflow, playTutorial } from '../lib/tables.mjs';

/** The shipped puzzles of a game, as the server loads them. @param {'madiao' | 'dabaifen'} game */
function shipped(game) {
  return JSON.parse(readFileSync(join(root, `crates/server/data/puzzles-${game}.json`), 'utf8'));
}
const DATA = { madiao: shipped('madiao'), dabaifen: shipped('dabaifen') };

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

/** The cards of an action, and the button that sends it. @param {any} action */
function how(action) {
  if (action.slough) return { cards: [action.slough], button: 'slough' };
  if (action.bury) return { cards: action.bury, button: 'bury' };
  const cards = Array.isArray(action.play) ? action.play : [action.play];
  return { cards, button: Array.isArray(action.play) ? 'play' : null };
}

/**
 * Plays `action` on the puzzle shown: selects its cards, then presses its button (a Madiao card
 * face up: the lead or capture button).
 * @param {import('playwright-core').Page} p @param {any} action
 */
async function choose(p, action) {
  const { cards, button } = how(action);
  for (const c of cards) await p.locator(`.puzzle .hand .card[data-card="${c}"]`).click();
  const sel = button ? `.puzzle .prompt button[data-action="${button}"]` : '.puzzle .prompt button[data-action="lead"], .puzzle .prompt button[data-action="capture"]';
  await p.locator(sel).first().click();
  await p.locator('.verdict[data-verdict]').waitFor({ timeout: 15000 });
}

/** The puzzle shown and its data. @param {import('playwright-core').Page} p @param {'madiao' | 'dabaifen'} game */
async function shown(p, game) {
  await p.locator('.puzzle[data-puzzle]').waitFor({ timeout: 15000 });
  const id = await p.locator('.puzzle').getAttribute('data-puzzle');
  const puzzle = DATA[game].puzzles.find((/** @type {any} */ x) => x.id === id);
  assert(puzzle, `${id} is a shipped ${game} puzzle`);
  return puzzle;
}

test('puzzles: both games, both languages, desktop and phone: a right answer rated, a wrong one explained, the line, the next puzzle', async () => {
  const runs = /** @type {const} */ ([
    ['madiao', { width: 1366, height: 768 }, 'en-US', 'puzzles-madiao-desktop-en'],
    ['dabaifen', { width: 390, height: 844 }, 'zh-CN', 'puzzles-dabaifen-phone-zh'],
    ['madiao', { width: 390, height: 844 }, 'zh-CN', 'puzzles-madiao-phone-zh'],
    ['dabaifen', { width: 1366, height: 768 }, 'en-US', 'puzzles-dabaifen-desktop-en'],
  ]);
  for (const [game, viewport, locale, label] of runs) {
    const phone = viewport.width < 500;
    const zh = locale.startsWith('zh');
    const ctx = await suite.browser.newContext({ viewport, baseURL: suite.base, locale, ...(phone ? { deviceScaleFactor: 2, isMobile: true, hasTouch: true } : {}) });
    const p = await watchedPage(ctx, label);
    await p.goto('/');
    await enterName(p, zh ? '解题人' : 'Solver');
    // Reached from the menu.
    await p.locator('nav a[data-nav="puzzles"]').click();
    await p.locator('.puzzles-page').waitFor({ timeout: 15000 });
    if (game === 'dabaifen') await p.locator('[data-game-tab="dabaifen"]').click();
    await p.locator(`.puzzles-page[data-game="${game}"] .puzzle[data-puzzle]`).waitFor({ timeout: 15000 });
    const heading = await p.locator('.puzzles-head h2').textContent();
    assert(zh ? heading.includes('谜题') : heading.includes('Puzzles'), `${label}: in its language (${heading})`);
    // The position as at a table: the felt with four seats, the seat's own hand.
    let puzzle = await shown(p, game);
    assert((await p.locator('.puzzle .felt .seat').count()) === 4, `${label}: the felt has four seats`);
    const hand = await p.locator('.puzzle .hand .card').count();
    assert(hand > 0, `${label}: the hand is drawn (${hand} cards)`);
    await noHorizontalOverflow(p, `${label} puzzle`);
    await snap(p, `${label}-position`);

    // The puzzle of the day answered right: rated, the line shown.
    await choose(p, puzzle.answers[0]);
    assert((await p.locator('.verdict').getAttribute('data-verdict')) === 'right', `${label}: the answer is right`);
    const reason = (await p.locator('.verdict .puzzle-reason').textContent()) ?? '';
    assert(reason.length > 20 && !reason.includes('{') && !reason.includes('puzzle.'), `${label}: the reason is written out: ${reason}`);
    assert(zh ? /[\u4e00-\u9fff]/.test(reason) : /[a-z]{4}/.test(reason), `${label}: the reason is in the page's language: ${reason}`);
    assert((await p.locator('.verdict .puzzle-line li').count()) === puzzle.line.length, `${label}: the whole line is listed`);
    const before = Number(await p.locator('.verdict .puzzle-rating').getAttribute('data-rating'));
    assert(before > 1500, `${label}: the first right answer raises the puzzle rating above 1500 (${before})`);
    await p.locator('.puzzle-me[data-my-rating]').waitFor({ timeout: 5000 });
    await snap(p, `${label}-right`);

    // The next puzzle, answered wrong: the reason against the move, its cost, the best move.
    await p.locator('button[data-action="puzzle-next"]').click();
    await p.waitForFunction((id) => document.querySelector('.puzzle')?.getAttribute('data-puzzle') !== id, puzzle.id, { timeout: 15000 });
    puzzle = await shown(p, game);
    await noHorizontalOverflow(p, `${label} next puzzle`);
    await choose(p, puzzle.moves[1].action);
    assert((await p.locator('.verdict').getAttribute('data-verdict')) === 'wrong', `${label}: another move is wrong`);
    const mistake = (await p.locator('.verdict .puzzle-mistake').textContent()) ?? '';
    assert(mistake.length > 10 && (zh ? mistake.includes('少得') : mistake.includes('less than')), `${label}: what the move costs: ${mistake}`);
    const after = Number(await p.locator('.verdict .puzzle-rating').getAttribute('data-rating'));
    assert(after < before, `${label}: a wrong answer lowers the rating (${before} → ${after})`);
    // The best move is marked on the hand.
    const marked = await p.locator('.puzzle .hand .card.hinted').count();
    assert(marked === how(puzzle.answers[0]).cards.length, `${label}: the best move's cards are marked (${marked})`);
    await noHorizontalOverflow(p, `${label} verdict`);
    await snap(p, `${label}-wrong`);
    await ctx.close();
  }
});

test('tutorial practice: after the guided hand, the easiest puzzles: the learner chooses alone and is told why', async () => {
  for (const [game, viewport, locale, label] of /** @type {const} */ ([
    ['madiao', { width: 1366, height: 768 }, 'en-US', 'practice-madiao-desktop-en'],
    ['dabaifen', { width: 390, height: 844 }, 'zh-CN', 'practice-dabaifen-phone-zh'],
  ])) {
    const phone = viewport.width < 500;
    const ctx = await suite.browser.newContext({ viewport, baseURL: suite.base, locale, ...(phone ? { deviceScaleFactor: 2, isMobile: true, hasTouch: true } : {}) });
    const p = await watchedPage(ctx, label);
    await playTutorial(p, game, label, Infinity, true);
    // The end lesson leads to the practice, below the finished hand.
    await p.locator('button[data-action="practice"]').click();
    await p.locator('.practice[data-practice="0"] .puzzle[data-puzzle]').waitFor({ timeout: 15000 });
    // Easiest first: the practice's positions are the first puzzles of the list.
    for (let k = 0; k < 2; k++) {
      const id = await p.locator('.practice .puzzle').getAttribute('data-puzzle');
      const puzzle = DATA[game].puzzles[k];
      assert(id === puzzle.id, `${label}: practice ${k} is puzzle ${k} of the list (${id})`);
      assert(puzzle.difficulty <= DATA[game].puzzles[DATA[game].puzzles.length - 1].difficulty, 'easiest first');
      await p.locator('.practice .puzzle').scrollIntoViewIfNeeded();
      await choose(p, k === 0 ? puzzle.answers[0] : puzzle.moves[1].action);
      const verdict = await p.locator('.practice .verdict').getAttribute('data-verdict');
      assert(verdict === (k === 0 ? 'right' : 'wrong'), `${label}: practice ${k} judged ${verdict}`);
      const reason = (await p.locator('.practice .verdict .puzzle-reason').textContent()) ?? '';
      assert(reason.length > 20, `${label}: why (${reason})`);
      // Practice is not rated.
      assert((await p.locator('.practice .puzzle-rating').count()) === 0, `${label}: practice is not rated`);
      await snap(p, `${label}-${k}`);
      await p.locator('button[data-action="practice-next"]').click();
      await p.locator(`.practice[data-practice="${k + 1}"]`).waitFor({ timeout: 10000 });
      await p.waitForFunction((old) => { const e = document.querySelector('.practice .puzzle'); return !!e && e.getAttribute('data-puzzle') !== old; }, id, { timeout: 10000 });
    }
    await noHorizontalOverflow(p, `${label} practice`);
    await ctx.close();
  }
});
