// Clocks a person can live with, take-backs and pauses (issue 26, items 2 and 3): a newcomer
// alone with bots gets an untimed table by default; a timed table shows the time bank drawn down;
// while a bot plays for him the prompt says so, and taking the seat back gives a whole turn; at a
// table where he is the only person he takes back his last play (the bots' answers undone, the
// hand restored) in both games, and pauses and resumes the match while a spectator watches.

import { test } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  assert, clickAction, enterName, launchBrowser, log, problems, sleep, snap, startServer, tableState, watchedPage,
} from '../lib/harness.mjs';

/** The seconds shown by the prompt's turn clock, or null. @param {import('playwright-core').Page} page */
function promptSecs(page) {
  return page.evaluate(() => {
    const el = document.querySelector('.prompt .countdown .secs');
    return el ? Number(/(\d+)/.exec(el.textContent ?? '')?.[1]) : null;
  });
}

/** Waits until it is the page's turn to play a card (any window or draw answered by keeping). */
async function toMyPlay(page, timeout = 60000) {
  const end = Date.now() + timeout;
  while (Date.now() < end) {
    const s = await tableState(page);
    if (s.legal === 'redeal' || s.legal === 'annul') {
      await clickAction(page, 'keep');
    } else if (s.handEnd && s.status !== 'finished') {
      // A hand settled before its play (a meld, the four lowest): on to the next one (an untimed
      // table waits for its person's Ready).
      await page.locator('.hand-end button[data-action="next"][aria-pressed="false"]').click({ timeout: 2000 }).catch(() => {});
      await sleep(200);
    } else if ((s.legal === 'actions' || s.legal === 'lead' || s.legal === 'cards') && s.legalCards.length && !s.buttons.includes('bury')) {
      return s;
    } else if (s.legal === 'cards' && s.buttons.includes('bury')) {
      // The kitty is ours: bury what is preselected plus the first legal cards.
      const need = await page.evaluate(() => {
        const m = /(\d+)\/(\d+)/.exec(document.querySelector('.prompt .count')?.textContent ?? '');
        return m ? Number(m[2]) - Number(m[1]) : 0;
      });
      for (const c of s.legalCards.filter((c) => !s.selected.includes(c)).slice(0, need)) await page.locator(`.hand .card[data-card="${c}"]`).click();
      await clickAction(page, 'bury');
      await sleep(300);
    }
    await sleep(100);
  }
  throw new Error(`no turn to play came: ${JSON.stringify(await tableState(page))}`);
}

/** Plays one card (or the cards a Da Bai Fen follow needs) from state `s`. */
async function playOne(page, s) {
  if (s.legal === 'actions') {
    await page.locator(`.hand .card[data-card="${s.legalCards[0]}"]`).click();
    const b = (await tableState(page)).buttons;
    await clickAction(page, ['lead', 'capture'].find((x) => b.includes(x)) ?? (b.includes('slough') ? 'slough' : b[0]));
  } else if (s.legal === 'lead') {
    await page.locator(`.hand .card[data-card="${s.legalCards[0]}"]`).click();
    await clickAction(page, 'play');
  } else {
    const need = await page.evaluate(() => {
      const m = /(\d+)\/(\d+)/.exec(document.querySelector('.prompt .count')?.textContent ?? '');
      return m ? Number(m[2]) - Number(m[1]) : 0;
    });
    for (const c of s.legalCards.filter((c) => !s.selected.includes(c)).slice(0, need)) await page.locator(`.hand .card[data-card="${c}"]`).click();
    await clickAction(page, 'play');
  }
  await page.waitForFunction((n) => document.querySelectorAll('.hand .card').length < n, s.hand.length, { timeout: 10000 });
}

/** Creates a table from the lobby with the creator and three bots; `clock`/`bank`: picked, else the defaults. */
async function newSoloTable(page, game, opts = {}) {
  await page.locator(`.game-pick button[data-game="${game}"]`).click();
  if (opts.clock) await page.locator('select[name="clock"]').selectOption(opts.clock);
  if (opts.bank) await page.locator('select[name="bank"]').selectOption(opts.bank);
  await page.locator('button[data-action="create"]').click();
  await page.locator('.table-page').waitFor({ timeout: 15000 });
  await page.locator('button[data-action="start"]').click({ timeout: 2000 }).catch(() => {});
  return page.evaluate(() => document.querySelector('.table-page')?.getAttribute('data-table'));
}

/** Takes back the last play and checks that the hand is the one before it. */
async function takeBackOnce(page, game) {
  const before = await toMyPlay(page);
  const cardsBefore = [...before.hand].sort();
  await playOne(page, before);
  // The bots answer: up to our next turn (or the hand's end).
  await page.waitForFunction(() => !!document.querySelector('.my-area.my-turn .prompt[data-legal]') || !!document.querySelector('.hand-end'), null, { timeout: 30000 });
  await snap(page, `${game}-before-take-back`);
  await page.locator('button[data-action="take-back"]').click();
  await page.waitForFunction((n) => document.querySelectorAll('.hand .card').length === n, cardsBefore.length, { timeout: 10000 }).catch(async (e) => {
    await snap(page, `${game}-take-back-failed`);
    log('take-back failed; the page says:', await page.evaluate(() => document.querySelector('.notices, .notice')?.textContent ?? ''));
    throw e;
  });
  const after = await tableState(page);
  assert(JSON.stringify([...after.hand].sort()) === JSON.stringify(cardsBefore), `${game}: the hand is restored (${after.hand} vs ${cardsBefore})`);
  assert(after.myTurn && after.legalCards.length > 0, `${game}: it is our turn again`);
  const story = await page.evaluate(() => document.querySelector('.table-page')?.textContent ?? '');
  await snap(page, `${game}-after-take-back`);
  log(`${game}: took back a play; ${cardsBefore.length} cards in hand again`);
  return story;
}

test('clocks, take-backs and pauses', { timeout: 180000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'yezi-clock-'));
  const { proc, base } = await startServer(dir);
  const browser = await launchBrowser();
  try {
    const ctx = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const page = await watchedPage(ctx, 'solo');
    await page.goto(`${base}/`);
    await enterName(page, 'Newcomer');

    // The new-table form: alone with bots, untimed is picked; with another person's seat, 30 s.
    await page.locator('.game-pick button[data-game="madiao"]').click();
    assert((await page.locator('select[name="clock"]').inputValue()) === 'untimed', 'alone with bots: untimed by default');
    assert(await page.locator('select[name="bank"]').isDisabled(), 'no bank at an untimed table');
    const bot = await page.locator('select[name="seat3"]').inputValue();
    await page.locator('select[name="seat3"]').selectOption('open');
    assert((await page.locator('select[name="clock"]').inputValue()) === '30', 'with an open seat: today’s clock');
    assert((await page.locator('select[name="bank"]').inputValue()) === '60', 'and a bank of a minute');
    await page.locator('select[name="seat3"]').selectOption(bot);
    await snap(page, 'clock-form-untimed');

    // 1. Madiao, untimed: no clock at his turn; he takes back a play; he pauses and resumes.
    const id = await newSoloTable(page, 'madiao');
    const first = await toMyPlay(page);
    assert((await promptSecs(page)) === null, 'no turn clock at an untimed table');
    await sleep(1500);
    assert((await tableState(page)).myTurn, 'still his turn: nothing stands in');
    const watchCtx = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const spectator = await watchedPage(watchCtx, 'spectator');
    await spectator.goto(`${base}/`);
    await enterName(spectator, 'Watcher');
    await spectator.goto(`${base}/t/${id}?watch`);
    await spectator.locator('.table-page').waitFor({ timeout: 15000 });
    assert(first.legalCards.length > 0, 'a card to play');
    await takeBackOnce(page, 'madiao');
    await page.locator('button[data-action="pause"]').click();
    await page.locator('.banner.paused[data-paused] button[data-action="resume-banner"]').waitFor({ timeout: 5000 });
    await spectator.locator('.banner.paused[data-paused]').waitFor({ timeout: 5000 });
    assert((await spectator.locator('button[data-action="resume-banner"]').count()) === 0, 'the spectator cannot resume');
    await snap(page, 'madiao-paused');
    const paused = await tableState(page);
    await sleep(1500);
    assert(JSON.stringify(await tableState(page)) === JSON.stringify(paused), 'nothing moves while paused');
    await page.reload();
    await page.locator('.banner.paused[data-paused]').waitFor({ timeout: 10000 });
    log('the pause survives a reload');
    await page.locator('button[data-action="resume"]').click();
    await page.locator('.banner.paused').waitFor({ state: 'detached', timeout: 5000 });
    await spectator.locator('.banner.paused').waitFor({ state: 'detached', timeout: 5000 });
    await watchCtx.close();

    // 2. Da Bai Fen: the same take-back.
    await page.goto(`${base}/`);
    await page.locator('.lobby').waitFor({ timeout: 10000 });
    await newSoloTable(page, 'dabaifen');
    await takeBackOnce(page, 'dabaifen');

    // 3. A timed table (the host's choice in the form: 15 s and a 30 s bank): the bank shown.
    await page.goto(`${base}/`);
    await page.locator('.lobby').waitFor({ timeout: 10000 });
    await newSoloTable(page, 'madiao', { clock: '15', bank: '30' });
    await toMyPlay(page);
    const bank = page.locator('.prompt .bank');
    await bank.waitFor({ timeout: 5000 });
    assert((await bank.getAttribute('data-bank-ms')) === '30000', 'the whole bank at the first turn');
    assert((await bank.textContent())?.includes('0:30'), `the bank is shown: ${await bank.textContent()}`);
    // The bank drawn down, then a bot playing for him (the prompt says so), then taking the seat
    // back gives a whole turn: at a table with the shortest turn the server takes (5 s) and a 10 s
    // bank, made through the API (the form's shortest are 15 s and 30 s), so the test waits for
    // 15 s of clocks instead of 45.
    const token = await page.evaluate(() => JSON.parse(localStorage.getItem('yezi.guest') ?? '{}').token);
    const made = await page.request.post(`${base}/api/tables`, {
      headers: { authorization: `Bearer ${token}` },
      data: { game: 'madiao', untimed: false, turn_seconds: 5, bank_seconds: 10, seats: [{ kind: 'me' }, { kind: 'bot' }, { kind: 'bot' }, { kind: 'bot' }] },
    });
    assert(made.status() === 201, `a table of 5 s turns and a 10 s bank is made (${made.status()})`);
    await page.goto(`${base}/t/${(await made.json()).table.id}`);
    await page.locator('.table-page').waitFor({ timeout: 15000 });
    await page.locator('button[data-action="start"]').click({ timeout: 2000 }).catch(() => {});
    await toMyPlay(page);
    await bank.waitFor({ timeout: 5000 });
    assert((await bank.getAttribute('data-bank-ms')) === '10000', 'the whole bank at the first turn');
    assert((await bank.textContent())?.includes('0:10'), `the bank is shown: ${await bank.textContent()}`);
    await page.locator('.prompt .bank.running').waitFor({ timeout: 20000 });
    await sleep(2500);
    const drawn = (await bank.textContent()) ?? '';
    assert(/0:0[0-8]/.test(drawn), `the bank is drawn down once the turn clock is spent: ${drawn}`);
    await snap(page, 'bank-running');
    log(`bank after the turn clock: ${drawn}`);
    // Past the bank: a bot stands in, and the prompt says so.
    await page.locator('.prompt [data-bot-plays]').waitFor({ timeout: 40000 });
    assert(!(await tableState(page)).buttons.length, 'no play is offered while the bot plays');
    await snap(page, 'bot-plays-prompt');
    await page.locator('.banner button.primary', { hasText: /take my seat back/i }).click();
    await page.locator('.prompt [data-bot-plays]').waitFor({ state: 'detached', timeout: 5000 });
    await toMyPlay(page, 30000);
    await page.locator('.prompt .countdown .secs').waitFor({ timeout: 5000 });
    const secs = await promptSecs(page);
    assert(secs !== null && secs >= 4, `back in his seat, a whole turn: ${secs} s of 5`);
    log(`taken back: ${secs} s on the clock`);
    assert(problems.length === 0, `no console problems: ${problems.join('; ')}`);
  } finally {
    await browser.close();
    proc.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});
