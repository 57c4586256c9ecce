// The shared library of the browser tests (scenarios/*.test.mjs): the real `yezi` binary
// started on a free port with a temporary database, Chromium through playwright-core, pages that
// fail a test on any console error or warning, and drivers that play a hand by clicking.

import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium } from 'playwright-core';

export const root = resolve(new URL('../..', import.meta.url).pathname);
export const bin = process.env.YEZI_BIN ?? join(root, 'target/debug/yezi');
export const artifacts = process.env.YEZI_E2E_ARTIFACTS ?? join(root, 'target/e2e-artifacts');
export const chromiumPath = process.env.CHROMIUM ?? '/usr/bin/chromium';
export const started = Date.now();
let shot = 0;
/** @type {string[]} */
export const problems = [];
/**
 * Browser log lines a scenario expects for a while: `httpError`, the browser's own line for an HTTP
 * error status (a refused file); `authError`, refused sessions (401); `serverDown`, refused
 * connections while the server is down.
 */
export const expect = { httpError: false, authError: false, serverDown: false };

mkdirSync(artifacts, { recursive: true });

/** The next screenshot's number (screenshots are numbered in the order they are taken). */
export function nextShot() {
  shot += 1;
  return shot;
}

export function log(...a) {
  console.log(`[${((Date.now() - started) / 1000).toFixed(1)}s]`, ...a);
}

export function assert(cond, msg) {
  if (!cond) throw new Error(`assertion failed: ${msg}`);
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Every server this process started and that still runs: a failed test's servers are stopped with the suite. */
const servers = new Set();

/**
 * Starts `yezi serve` on a free port with a temporary database; resolves with its address. `extra`
 * adds flags, or overrides the timings below (`['--draw-ms', '150']`).
 */
export async function startServer(dir, addr = '127.0.0.1:0', extra = []) {
  const timings = [['--draw-ms', '60'], ['--window-ms', '1500'], ['--bot-delay-ms', '60'], ['--pause-ms', '60000'], ['--trick-ms', '200']];
  const args = [
    'serve', '--addr', addr, '--db', join(dir, 'yezi.db'),
    ...timings.filter(([flag]) => !extra.includes(flag)).flat(),
    // Every page of the run is a guest from this one address.
    '--guests-per-ip', '1000',
    ...extra,
  ];
  // For working on the client: serve web/ from disk instead of the copy in the binary.
  if (process.env.YEZI_WEB_DIR) args.push('--web-dir', process.env.YEZI_WEB_DIR);
  const proc = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  servers.add(proc);
  proc.once('exit', () => servers.delete(proc));
  proc.stderr.on('data', (d) => process.stderr.write(`[yezi] ${d}`));
  const lines = createInterface({ input: proc.stdout });
  // The deadline is cleared once the server answers: an armed timer would hold the file's process
  // (and so the run) open for its whole 30 s after the scenarios end.
  let deadline;
  const first = await new Promise((res, rej) => {
    lines.once('line', res);
    proc.once('exit', (code) => rej(new Error(`yezi serve exited with ${code}`)));
    deadline = setTimeout(() => rej(new Error('yezi serve printed nothing in 30 s')), 30000);
  }).finally(() => clearTimeout(deadline));
  const m = /http:\/\/([0-9.]+:\d+)\//.exec(first);
  assert(m, `the first line names the address: ${first}`);
  return { proc, base: `http://${m[1]}` };
}

/** Records a problem of a page (and says so at once: a page error can leave a scenario waiting). @param {string} text */
export function problem(text) {
  problems.push(text);
  log(`console: ${text}`);
}

/** A page that fails the run on any console error or warning, or page error. */
export async function watchedPage(context, name) {
  const page = await context.newPage();
  page.on('console', (msg) => {
    if (expect.httpError && /Failed to load resource: the server responded with a status of 400/.test(msg.text())) return;
    if (expect.authError && /Failed to load resource: the server responded with a status of 401/.test(msg.text())) return;
    if (expect.serverDown && /WebSocket connection to .* failed|ERR_CONNECTION_REFUSED|ERR_CONNECTION_RESET|ERR_EMPTY_RESPONSE/.test(msg.text())) return;
    if (msg.type() === 'error' || msg.type() === 'warning') problem(`${name} console ${msg.type()}: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problem(`${name} page error: ${err.message}`));
  return page;
}

export async function snap(page, name) {
  const file = join(artifacts, `${String(nextShot()).padStart(2, '0')}-${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
}

/** The first visit: pick a name. */
export async function enterName(page, name) {
  await page.locator('.name-form input').fill(name);
  await page.locator('.name-form button[type=submit]').click();
  await page.locator('.lobby, .table-page, .page.loading').first().waitFor({ timeout: 15000 });
}

/** From the top bar's account page, claims the guest's name as the account `user`, and waits
 * until the top bar shows it. */
export async function claimAccount(page, user, password = 'a long enough password') {
  await page.locator('header a[data-nav="account"]').click();
  await page.locator('form.claim input[name="username"]').fill(user);
  await page.locator('form.claim input[name="password"]').fill(password);
  await page.locator('form.claim button[data-action="claim"]').click();
  await page.locator('header .account-name').waitFor({ timeout: 15000 });
}

/** What the table shows now, read from the page. */
export function tableState(page) {
  return page.evaluate(() => {
    const q = (s) => document.querySelector(s);
    const prompt = q('.prompt');
    const tp = q('.table-page');
    return {
      legal: prompt ? prompt.getAttribute('data-legal') : null,
      handEnd: !!q('.hand-end'),
      hand: [...document.querySelectorAll('.hand .card')].map((c) => c.getAttribute('data-card')),
      legalCards: [...document.querySelectorAll('.hand .card[data-legal="1"]')].map((c) => c.getAttribute('data-card')),
      selected: [...document.querySelectorAll('.hand .card.selected')].map((c) => c.getAttribute('data-card')),
      phase: q('.felt') ? q('.felt').getAttribute('data-phase') : null,
      hand_no: tp ? Number(tp.getAttribute('data-hand')) : -1,
      status: tp ? tp.getAttribute('data-status') : null,
      tricks: document.querySelectorAll('.trick .play').length,
      myTurn: !!q('.my-area.my-turn'),
      buttons: [...document.querySelectorAll('.prompt button[data-action]')].map((b) => b.getAttribute('data-action')),
    };
  });
}

export async function clickAction(page, action) {
  const b = page.locator(`.prompt button[data-action="${action}"]`).first();
  try {
    await b.click({ timeout: 2000 });
    return true;
  } catch {
    return false; // the moment passed (a window closed, the draw ended)
  }
}

/** A spectator must see nothing hidden: no hand, no face-down card's face, no kitty. */
export async function checkSpectator(page, game) {
  const seen = await page.evaluate(() => ({
    myArea: !!document.querySelector('.my-area'),
    handCards: document.querySelectorAll('.hand .card').length,
    openHands: document.querySelectorAll('.open-hand').length,
    facedownFaces: document.querySelectorAll('.card.facedown').length,
    sloughs: [...document.querySelectorAll('.play[data-kind="slough"] .card')].map((c) => c.getAttribute('data-card')),
    kittyMarks: document.querySelectorAll('.card .mark').length,
    buried: document.querySelectorAll('.buried .card').length,
    over: document.querySelector('.felt')?.getAttribute('data-phase') === 'over',
    watching: !!document.querySelector('.banner.watch'),
    counts: [...document.querySelectorAll('.felt > .seat')].map((s) => s.querySelector('.backs-n')?.textContent ?? null),
  }));
  // Issue 11 item 15: every seat's card count, the bottom one included.
  assert(seen.counts.length === 4 && seen.counts.every((n) => n !== null && /^\d+$/.test(n)), `a spectator sees every seat's card count: ${seen.counts}`);
  assert(seen.watching, 'the spectator is told he is watching');
  assert(!seen.myArea && seen.handCards === 0, `a spectator has no hand (${seen.handCards} cards)`);
  assert(seen.openHands === 0, 'no open hands');
  if (!seen.over) {
    assert(seen.facedownFaces === 0, 'no face-down card shows its face');
    assert(seen.sloughs.every((c) => c === 'back'), `face-down cards are backs: ${seen.sloughs}`);
    assert(seen.buried === 0, 'no burial before the deal is scored');
  }
  assert(seen.kittyMarks === 0, `no kitty card is marked (${game})`);
  return seen;
}

/** Plays one Madiao hand by clicking until its end panel shows; returns how many cards were played. */
export async function playMadiaoHand(page, hooks) {
  let played = 0;
  const deadline = Date.now() + 180000;
  while (Date.now() < deadline) {
    const s = await tableState(page);
    if (s.handEnd) return played;
    if (s.legal === 'redeal') {
      log('redeal window: playing this hand');
      await clickAction(page, 'keep');
      await sleep(200);
      continue;
    }
    if (s.legal === 'actions' && s.legalCards.length && played === 3 && hooks.keys) {
      // One card by the keyboard: its place's digit, then Enter (face up when it leads or
      // captures, else face down).
      const i = s.hand.indexOf(s.legalCards[0]);
      if (i >= 0 && i < 9) {
        await page.keyboard.press(String(i + 1));
        try {
          await page.waitForFunction((c) => !!document.querySelector(`.hand .card.selected[data-card="${c}"]`), s.legalCards[0], { timeout: 5000 });
        } catch {
          // The table moved on between reading it and the key (a trick closed, the hand was
          // drawn again): read it again and press the key for what is legal now.
          log('the keyed card was not selected; reading the table again', JSON.stringify(await tableState(page)));
          continue;
        }
        await page.keyboard.press('Enter');
        played += 1;
        try {
          await page.waitForFunction((c) => !document.querySelector(`.hand .card[data-card="${c}"]`), s.legalCards[0], { timeout: 10000 });
        } catch (e) {
          await snap(page, 'keyboard-failure');
          log('keyboard play failed', JSON.stringify(await tableState(page)), await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 200)));
          throw e;
        }
        log(`played ${s.legalCards[0]} with the keyboard`);
        hooks.keyed = true;
        if (hooks.after) await hooks.after(played);
        continue;
      }
    }
    if (s.legal === 'actions' && s.legalCards.length) {
      // Illegal cards cannot be chosen: every card offered is highlighted, the rest are dimmed.
      const dimmed = s.hand.filter((c) => !s.legalCards.includes(c));
      if (dimmed.length) {
        await page.locator(`.hand .card[data-card="${dimmed[0]}"]`).click();
        const after = await tableState(page);
        assert(after.selected.length === 0, 'a card that cannot be played is not chosen');
      }
      const card = s.legalCards[0];
      await page.locator(`.hand .card[data-card="${card}"]`).click();
      const now = await tableState(page);
      const buttons = now.buttons;
      const choice = ['lead', 'capture'].find((b) => buttons.includes(b)) ?? (buttons.includes('slough') ? 'slough' : buttons[0]);
      if (!choice && !(now.myTurn && now.legalCards.includes(card))) {
        // The table moved on between reading it and the click (the turn passed, a new hand was
        // drawn): read it again.
        log('the clicked card is no longer to be played; reading the table again', JSON.stringify(now));
        continue;
      }
      assert(choice, `a choice is offered for ${card}: ${buttons}`);
      if (played === 0 && hooks.firstSnap) await snap(page, 'madiao-choice');
      await clickAction(page, choice);
      played += 1;
      await page.waitForFunction((c) => !document.querySelector(`.hand .card[data-card="${c}"]`), card, { timeout: 10000 });
      if (hooks.after) await hooks.after(played);
      continue;
    }
    await sleep(100);
  }
  throw new Error('the Madiao hand did not end in 3 minutes');
}

/**
 * Waits until the page shows a later hand than `from` (or its table finished). Not "until the end
 * panel closes": a next hand settled before play (a meld, the four lowest, a long-suit redeal)
 * shows its own end panel at once, and the panel of one hand may follow another's within a frame.
 */
export async function waitNextHand(page, from, timeout) {
  await page.waitForFunction((n) => {
    const p = document.querySelector('.table-page');
    return p?.getAttribute('data-status') === 'finished' || Number(p?.getAttribute('data-hand') ?? -1) > n;
  }, from, { timeout });
}

/**
 * Plays a short match by clicking, deal after deal with `playDeal` (a deal that does not count,
 * a Madiao hand nobody pays or an annulled Da Bai Fen deal, is followed by another), pressing
 * Ready between deals, at most eight; resolves with whether the match is over.
 * @param {import('playwright-core').Page} page @param {(p: import('playwright-core').Page) => Promise<unknown>} playDeal
 */
export async function playMatch(page, playDeal) {
  const finished = () => page.evaluate(() => document.querySelector('.table-page')?.getAttribute('data-status') === 'finished');
  // A hand that nobody pays does not count towards hands:N (Madiao §7): room for a few.
  for (let hand = 0; hand < 8 && !(await finished()); hand++) {
    await playDeal(page);
    const handNo = (await tableState(page)).hand_no;
    // The pause between hands ends early once every person at the table is ready: press Ready
    // (a match's last hand shows no Ready; the other people's pages press theirs).
    const ready = page.locator('.hand-end button[data-action="next"][aria-pressed="false"]');
    if (!(await finished()) && (await ready.count()) > 0) await ready.first().click().catch(() => {});
    await waitNextHand(page, handNo, 90000);
  }
  return finished();
}

/** Plays a short Madiao match by clicking, hand after hand ([`playMatch`]). @param {import('playwright-core').Page} page */
export function playMadiaoMatch(page) {
  return playMatch(page, (p) => playMadiaoHand(p, {}));
}

/** Plays one Da Bai Fen deal by clicking until its end panel shows. */
export async function playDabaifenDeal(page, hooks) {
  let played = 0;
  let declared = false;
  let multiTried = false;
  const deadline = Date.now() + 240000;
  while (Date.now() < deadline) {
    const s = await tableState(page);
    if (s.handEnd) return played;
    if (s.legal === 'declare' && s.buttons.includes('declare') && !declared) {
      declared = await clickAction(page, 'declare');
      if (declared) {
        log('declared a trump-rank card during the draw');
        await snap(page, 'dbf-declared');
      }
      continue;
    }
    if (s.legal === 'annul') {
      log('annulment window: playing this deal');
      await snap(page, 'dbf-annul-prompt');
      await clickAction(page, 'keep');
      await sleep(200);
      continue;
    }
    if (s.legal === 'cards' || s.legal === 'lead') {
      const bury = s.buttons.includes('bury');
      if (s.legal === 'lead') {
        if (!multiTried) {
          // Select two cards of one suit: the page offers a multi-card lead (with the revoke
          // warning); then clear and lead a single card.
          multiTried = true;
          const pair = await page.evaluate(() => {
            const cards = [...document.querySelectorAll('.hand .card[data-legal="1"]')].map((c) => c.getAttribute('data-card'));
            const bySuit = {};
            for (const c of cards) if (c !== 'BJ' && c !== 'SJ') (bySuit[c[1]] ??= []).push(c);
            return Object.values(bySuit).find((g) => g.length >= 2)?.slice(0, 2) ?? null;
          });
          if (pair) {
            for (const c of pair) await page.locator(`.hand .card[data-card="${c}"]`).click();
            const sel = (await tableState(page)).selected;
            log(`multi-card selection ${sel}`);
            await snap(page, 'dbf-multi-select');
            await page.keyboard.press('Escape');
          }
        }
        // A run of top cards the page can see are safe (the jokers together, or A K … of a plain
        // suit from its top): when dealt one, lead it as a multi-card lead.
        const run = await page.evaluate(() => {
          const legal = [...document.querySelectorAll('.hand .card[data-legal="1"]')].map((c) => c.getAttribute('data-card'));
          if (legal.includes('BJ') && legal.includes('SJ')) return ['BJ', 'SJ'];
          const trump = document.querySelector('.trump-value')?.getAttribute('data-trump') ?? '';
          if (trump.length !== 2) return null;
          const [tSuit, tRank] = trump;
          const order = ['A', 'K', 'Q', 'J', 'T', '9', '8', '7', '6', '5', '4', '3', '2'].filter((r) => r !== tRank);
          for (const suit of ['S', 'H', 'D', 'C'].filter((x) => x !== tSuit)) {
            const mine = [];
            for (const r of order) {
              if (!legal.includes(r + suit)) break;
              mine.push(r + suit);
            }
            if (mine.length >= 2) return mine;
          }
          return null;
        });
        if (run) {
          for (const c of run) await page.locator(`.hand .card[data-card="${c}"]`).click();
          assert((await tableState(page)).selected.length === run.length, `the ${run} are selected`);
          await snap(page, 'dbf-multi-lead');
          // The page warns that a multi-card lead with a card that is not a top card is a revoke:
          // these are top cards, so the player confirms.
          page.once('dialog', (d) => d.accept());
          await clickAction(page, 'play');
          await page.waitForFunction((n) => document.querySelectorAll('.hand .card').length <= n, s.hand.length - run.length, { timeout: 10000 });
          log(`led ${run.length} top cards together: ${run}`);
          hooks.multiLeads = (hooks.multiLeads ?? 0) + 1;
        } else {
          const c = s.legalCards[0];
          await page.locator(`.hand .card[data-card="${c}"]`).click();
          await clickAction(page, 'play');
        }
      } else {
        // Burial or a follow: the must cards are selected; add legal cards until the count.
        const need = await page.evaluate(() => {
          const m = /(\d+)\/(\d+)/.exec(document.querySelector('.prompt .count')?.textContent ?? '');
          return m ? Number(m[2]) - Number(m[1]) : 0;
        });
        const free = s.legalCards.filter((c) => !s.selected.includes(c));
        const dimmed = s.hand.filter((c) => !s.legalCards.includes(c));
        if (dimmed.length) {
          await page.locator(`.hand .card[data-card="${dimmed[0]}"]`).click();
          const after = await tableState(page);
          assert(after.selected.length === s.selected.length, 'a card that cannot be played is not chosen');
        }
        for (const c of free.slice(0, need)) await page.locator(`.hand .card[data-card="${c}"]`).click();
        if (bury) await snap(page, 'dbf-bury');
        await clickAction(page, bury ? 'bury' : 'play');
      }
      played += 1;
      await page.waitForFunction((n) => document.querySelectorAll('.hand .card').length < n, s.hand.length, { timeout: 10000 }).catch(() => {});
      if (hooks.after) await hooks.after(played);
      continue;
    }
    await sleep(100);
  }
  throw new Error('the Da Bai Fen deal did not end in 4 minutes');
}

export async function createTable(page, game, opts = {}) {
  await page.locator(`.game-pick button[data-game="${game}"]`).click();
  await page.locator('select[name="clock"]').selectOption(opts.clock ?? '120');
  if (opts.pace) await page.locator('select[name="pace"]').selectOption(opts.pace);
  if (opts.grace !== undefined) await page.locator('input[name="grace"]').fill(String(opts.grace));
  if (opts.seat0) await page.locator('select[name="seat0"]').selectOption(opts.seat0);
  if (opts.seat1) await page.locator('select[name="seat1"]').selectOption(opts.seat1);
  if (opts.seat2) await page.locator('select[name="seat2"]').selectOption(opts.seat2);
  if (opts.seat3) await page.locator('select[name="seat3"]').selectOption(opts.seat3);
  if (opts.variants) {
    await page.locator('.new-table button.link').click();
    for (const [k, v] of Object.entries(opts.variants)) await page.locator(`select[name="${k}"]`).selectOption(v);
  }
  if (opts.stakeMax) await page.locator('input[name="stake_max"]').fill(String(opts.stakeMax));
  if (opts.name) await page.locator('input[name="table-name"]').fill(opts.name);
  if (opts.rated) await page.locator('input[name="rated"]').check();
  await snap(page, `lobby-new-${game}`);
  await page.locator('button[data-action="create"]').click();
  await page.locator('.table-page').waitFor({ timeout: 15000 });
  return page.evaluate(() => document.querySelector('.table-page').getAttribute('data-table'));
}

/** Chromium's flags on this machine (no sandbox as root, no network but loopback). */
export const CHROMIUM_ARGS = ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic'];

/** Headless Chromium, as every test launches it. */
export function launchBrowser() {
  return chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS });
}

/**
 * What a scenario file starts with: a server of its own (a temporary database, the test's fast
 * timings), Chromium, a desktop context `player` with its page `page` and a second one `watcher`
 * with `spy`; with `named` (the default), both pages have picked a name (Ann, Spy) and show the
 * lobby. `extra` adds flags to the server's (startServer), e.g. `['--table-seed', '74']`.
 * @param {{named?: boolean, extra?: string[]}} [options]
 */
export async function openSuite({ named = true, extra = [] } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'yezi-e2e-'));
  const { proc, base } = await startServer(dir, '127.0.0.1:0', extra);
  log(`yezi serve at ${base}`);
  const browser = await launchBrowser();
  const desktop = { viewport: { width: 1280, height: 900 }, baseURL: base, locale: 'en-US' };
  const player = await browser.newContext(desktop);
  const watcher = await browser.newContext(desktop);
  const page = await watchedPage(player, 'player');
  const spy = await watchedPage(watcher, 'spectator');
  if (named) {
    for (const [p, name] of [[page, 'Ann'], [spy, 'Spy']]) {
      await p.goto('/');
      await enterName(p, name);
      await p.locator('.new-table').waitFor();
    }
  }
  return { dir, proc, base, browser, desktop, player, watcher, page, spy };
}

/**
 * Ends a scenario file: closes the browser, stops the server (`proc`, the one running now), removes
 * the temporary directory, and fails if any page logged an error or a warning.
 */
export async function closeSuite({ browser, proc, dir }) {
  await browser?.close();
  proc?.kill('SIGTERM');
  for (const p of servers) p.kill('SIGTERM');
  if (dir) rmSync(dir, { recursive: true, force: true });
  log(`screenshots in ${artifacts}`);
  assert(problems.length === 0, `no console errors or warnings: ${problems.length} found:\n${problems.join('\n')}`);
}
