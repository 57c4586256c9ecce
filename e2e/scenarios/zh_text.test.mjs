// Issue 26 item 7: no English left under 简体中文. Every screen of both games is rendered in
// Chinese (the lobby and its new-table form with every variant, a Madiao table waiting, in play,
// at its hand's end and at its match's end, a Da Bai Fen table in its draw, in play and at its
// deal's end, the rules of both games, both tutorials, the replay of a finished table and of a
// whole simulated Da Bai Fen match, the analysis, the archive, the leaderboards, the account
// with its games, a profile), and the page's words are read: its text, its title, and every
// title, aria-label and placeholder. Any Latin word fails the test unless it is on the short
// allow-list: the name yezi and the card ranks A K Q J (and JOKER, printed on the jokers). Not words of the page, so not read: the
// player names and the username this test chose, the key caps (<kbd>), a key named as "F键",
// the language switch (it names English in English), addresses (the invite link), a bot's
// internal name where it is the tooltip of its readable name (data-bot), and the cited source
// cread.tw on the rules page.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  bin, claimAccount, createTable, enterName, launchBrowser, log, playDabaifenDeal, playMadiaoHand, problems, sleep, snap, startServer,
  tableState, waitNextHand, watchedPage,
} from '../lib/harness.mjs';

/** The Latin words a Chinese page may show. */
const ALLOWED = new Set(['yezi', 'A', 'K', 'Q', 'J',
  // Printed on a joker's face, as on the jokers of Chinese packs.
  'JOKER']);
/** The names this test gives its player and its account. */
const NAME = '小明';
const USERNAME = `xm${Date.now().toString(36)}`;
/** The screens kept as screenshots even when they pass. */
const SHOTS = new Set(['lobby with a table', 'Madiao table in play', 'Madiao hand end', 'Da Bai Fen draw', 'Da Bai Fen deal end', 'replay of a Da Bai Fen match, its end', 'analysis, decision 2']);

/**
 * The Latin words of `text` that are not allowed (with a little of the text around each).
 * @param {string} text @returns {string[]}
 */
export function latinWords(text) {
  const out = [];
  const clean = text
    .replaceAll(USERNAME, ' ')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/cread\.tw/g, ' ')
    .replace(/[A-Z](?=键)/g, ' ');
  for (const m of clean.matchAll(/[A-Za-z][A-Za-z'’_-]*/g)) {
    if (ALLOWED.has(m[0])) continue;
    out.push(`${m[0]} in “${clean.slice(Math.max(0, m.index - 30), m.index + m[0].length + 30).replace(/\s+/g, ' ')}”`);
  }
  return out;
}

/** What the page says: its text and its title, title, aria-label and placeholder attributes, options. */
function pageWords(page) {
  return page.evaluate(() => {
    const skip = (/** @type {Element} */ el) => !!el.closest('[data-action="lang"], kbd');
    const parts = [document.title];
    // The body's text less the parts not read (the language switch, the key caps).
    let text = document.body.innerText;
    for (const el of document.querySelectorAll('[data-action="lang"], kbd')) {
      const s = /** @type {HTMLElement} */ (el).innerText;
      if (s) text = text.split(s).join(' ');
    }
    parts.push(text);
    for (const el of document.querySelectorAll('[title], [aria-label], [placeholder], option')) {
      if (skip(el)) continue;
      const bot = el.getAttribute('data-bot');
      for (const a of ['title', 'aria-label', 'placeholder']) {
        let v = el.getAttribute(a);
        if (!v) continue;
        if (bot) v = v.split(bot).join(' ');
        parts.push(v);
      }
      if (el.tagName === 'OPTION') parts.push(el.textContent ?? '');
    }
    return parts.join('\n');
  });
}

test('every screen of both games under 简体中文 is in Chinese', { timeout: 180000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'yezi-zh-'));
  const { proc, base } = await startServer(dir);
  const browser = await launchBrowser();
  /** @type {string[]} */
  const found = [];
  let screens = 0;
  /** @type {import('playwright-core').Page | null} */
  let current = null;
  /** Reads the page as it is now. @param {import('playwright-core').Page} page @param {string} screen */
  const check = async (page, screen) => {
    screens += 1;
    const bad = latinWords((await pageWords(page)).replaceAll(NAME, ' '));
    for (const b of bad) found.push(`${screen}: ${b}`);
    if (bad.length || SHOTS.has(screen)) await snap(page, `zh-${screen.replace(/\W+/g, '-')}`);
  };
  try {
    const ctx = await browser.newContext({ baseURL: base, locale: 'zh-CN', viewport: { width: 1280, height: 900 } });
    const page = await watchedPage(ctx, 'zh');
    current = page;
    await page.goto('/');
    await page.locator('.name-form').waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-Hans', 'a Chinese browser gets the Chinese page');
    await check(page, 'name form');
    await enterName(page, NAME);
    await page.locator('.new-table').waitFor();
    await check(page, 'lobby');

    // The new-table form: both games, every variant, both presets.
    await page.locator('.new-table button.link').click();
    await check(page, 'new table, Madiao variants');
    await page.locator('select[name="preset"]').selectOption('feng');
    await check(page, 'new table, Madiao preset feng');
    await page.locator('.game-pick button[data-game="dabaifen"]').click();
    await check(page, 'new table, Da Bai Fen');
    await page.locator('.game-pick button[data-game="madiao"]').click();
    // Closed again: createTable opens it.
    await page.locator('.new-table button.link').click();
    await page.locator('.new-table .variant-list').waitFor({ state: 'detached' });

    // A Madiao table waiting for a person (bots in two seats), seen from the lobby and at the
    // table; then started, played, ended. Its name is the default one.
    const madiao = await createTable(page, 'madiao', { pace: 'fast', seat3: 'open', variants: { game_length: 'hands:1' } });
    await page.locator('.waiting').waitFor({ timeout: 15000 });
    await check(page, 'Madiao table waiting');
    const tableName = await page.evaluate(async (id) => (await (await fetch(`/api/tables/${id}`)).json()).name, madiao);
    assert.ok(!/[A-Za-z]/.test(tableName.replaceAll(NAME, '')), `the default table name is Chinese: ${tableName}`);
    await page.goto('/');
    await page.locator(`.open-tables li[data-table="${madiao}"]`).waitFor({ timeout: 15000 });
    await check(page, 'lobby with a table');
    await page.goto(`/t/${madiao}`);
    await page.locator('button[data-action="start"]').click({ timeout: 15000 });
    await page.locator('.felt').waitFor({ timeout: 20000 });
    await check(page, 'Madiao table, the deal');
    let tabsSeen = false;
    const sidePanels = async () => {
      // The side panels: chat, events and the match's score.
      const tabs = page.locator('[role="tab"]');
      for (let i = 0; i < (await tabs.count()); i++) {
        await tabs.nth(i).click();
        await check(page, `Madiao side panel ${i + 1}`);
      }
      await tabs.first().click();
      tabsSeen = true;
    };
    const finished = () => page.evaluate(() => document.querySelector('.table-page')?.getAttribute('data-status') === 'finished');
    // One hand (a hand redealt for a long suit does not count: then the next), at most four.
    for (let h = 0; h < 4 && !(await finished()); h++) {
      await playMadiaoHand(page, {
        after: async (/** @type {number} */ n) => {
          if (n !== 1) return;
          await check(page, 'Madiao table in play');
          if (!tabsSeen) await sidePanels();
        },
      });
      await check(page, 'Madiao hand end');
      if (!tabsSeen) await sidePanels();
      await waitNextHand(page, (await tableState(page)).hand_no, 90000);
    }
    assert.ok(await finished(), 'the one-hand match is over');
    await sleep(300);
    await check(page, 'Madiao match end');

    // Da Bai Fen: the draw (a trump-rank card to show), play, the deal's end.
    await page.goto('/');
    await page.locator('.new-table').waitFor();
    const dbf = await createTable(page, 'dabaifen', { pace: 'fast' });
    await page.locator('.felt').waitFor({ timeout: 20000 });
    await page.locator('.felt[data-phase="drawing"]').waitFor({ timeout: 10000 }).catch(() => {});
    await check(page, 'Da Bai Fen draw');
    await playDabaifenDeal(page, {
      after: async (/** @type {number} */ n) => {
        if (n === 1 || n === 4) await check(page, `Da Bai Fen play ${n}`);
      },
    });
    await check(page, 'Da Bai Fen deal end');
    const tabs = page.locator('[role="tab"]');
    await tabs.nth(2).click();
    await check(page, 'Da Bai Fen score');
    log(`Da Bai Fen table ${dbf}: ${JSON.stringify(await tableState(page)).slice(0, 120)}`);

    // The rules of both games, with every variant.
    for (const g of ['madiao', 'dabaifen']) {
      await page.goto(`/rules?game=${g}`);
      await page.locator('.rules').waitFor();
      await check(page, `rules ${g}`);
    }
    // Both tutorials: the introduction and the first lesson.
    for (const g of ['madiao', 'dabaifen']) {
      await page.goto(`/tutorial/${g}`);
      await page.locator('button[data-action="tutorial-start"]').click({ timeout: 10000 });
      await sleep(1500);
      await check(page, `tutorial ${g}`);
    }

    // The replay of the finished Madiao table, at its start and its end.
    await page.goto(`/replay/${madiao}`);
    await page.locator('.replay-body').waitFor({ timeout: 20000 });
    await page.locator('.record-title').waitFor({ timeout: 10000 });
    assert.ok((await page.locator('.replay-head h2').innerText()).includes(tableName), 'the replay is titled by the table name');
    await check(page, 'replay, first step');
    await page.locator('button[data-action="last-step"]').click();
    await check(page, 'replay, last step');

    // A whole Da Bai Fen match, simulated, opened as a record file: its last deal ends the game.
    // (Heuristic bots finish a match in 40 deals from seed 3; a run of several matches writes one
    // file a match, the first `-m001`.)
    execFileSync(bin, ['sim', 'dabaifen', '--hands', '60', '--seed', '3', '--bots', 'heuristic', '--out', join(dir, 'dbf.json')]);
    await page.goto('/replay');
    await page.locator('input[type="file"]').setInputFiles(join(dir, 'dbf-m001.json'));
    await page.locator('.replay-body').waitFor({ timeout: 30000 });
    const last = await page.locator('.replay-controls select option').count();
    await page.locator('.replay-controls select').selectOption(String(last - 1));
    await page.locator('button[data-action="last-step"]').click();
    await sleep(500);
    await check(page, 'replay of a Da Bai Fen match, its end');

    // The analysis of the Madiao hand.
    // (From the replay, as a player gets there; small_defects.test.mjs opens the address itself.)
    await page.goto(`/replay/${madiao}`);
    await page.locator('a[data-action="analyse"]').click({ timeout: 20000 });
    await page.locator('.analysis-page').waitFor();
    await page.locator('.record-title').waitFor({ timeout: 10000 });
    await check(page, 'analysis, asked');
    await page.locator('.analysis-page[data-status="done"]').waitFor({ timeout: 60000 });
    for (let i = 0; i < 8; i++) {
      await check(page, `analysis, decision ${i + 1}`);
      const next = page.locator('button[data-action="next-decision"]');
      if (!(await next.count())) break;
      await next.click();
    }

    // The archive, the leaderboards, the account with its games, a profile.
    await page.goto('/replay');
    await page.locator('.archive-games li').first().waitFor({ timeout: 15000 });
    await check(page, 'archive');
    for (const g of ['madiao', 'dabaifen']) {
      await page.goto(`/ratings?game=${g}`);
      await page.locator('h1').waitFor();
      await sleep(300);
      await check(page, `leaderboard ${g}`);
    }
    await page.goto('/account');
    await page.locator('form.claim').waitFor();
    await check(page, 'account, a guest');
    await claimAccount(page, USERNAME, '一个足够长的密码');
    await page.locator('button[data-action="sign-out"]').waitFor({ timeout: 10000 });
    await sleep(500);
    await check(page, 'account with my games');
    await page.goto(`/players/${USERNAME}`);
    await page.locator('.profile-page').waitFor();
    await sleep(500);
    await check(page, 'profile');

    log(`${screens} screens read under zh`);
    assert.ok(screens >= 30, `${screens} screens read`);
    await ctx.close();
  } catch (e) {
    if (current) {
      await snap(current, 'zh-failure').catch(() => {});
      log(`failed at ${current.url()}: ${(await current.evaluate(() => document.body.innerText).catch(() => '')).slice(0, 400)}`);
    }
    throw e;
  } finally {
    await browser.close();
    proc.kill();
    rmSync(dir, { recursive: true, force: true });
  }
  assert.deepEqual(problems, [], 'no console errors');
  assert.deepEqual(found, [], `Latin words under 简体中文:\n${found.join('\n')}`);
});
