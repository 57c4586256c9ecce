// Play ahead (issue 26, item 4): while the bots play, the player queues the card he will play;
// it is shown queued, a second click cancels it, and when the turn comes it is played (Madiao:
// face down when it cannot capture) if still legal; a Da Bai Fen card the trick made illegal (a
// suit led that the player holds, the queued card of another) is dropped with a notice. Mouse
// and keyboard (the digit of the card, off-turn). The bots are slowed so that there is time to
// queue between their plays.

import { test } from 'node:test';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { assert, bin, createTable, enterName, launchBrowser, log, problems, sleep, snap, tableState, watchedPage } from '../lib/harness.mjs';
import { effectiveSuit } from '../../web/js/cards.js';

/** `yezi serve` with slow bots (700 ms a move) so that a card can be queued between their plays. */
async function slowServer(dir) {
  const args = [
    'serve', '--addr', '127.0.0.1:0', '--db', join(dir, 'yezi.db'),
    '--draw-ms', '40', '--window-ms', '1200', '--bot-delay-ms', '700', '--pause-ms', '60000', '--trick-ms', '500',
    '--guests-per-ip', '1000',
  ];
  if (process.env.YEZI_WEB_DIR) args.push('--web-dir', process.env.YEZI_WEB_DIR);
  const proc = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  proc.stderr.on('data', (d) => process.stderr.write(`[yezi] ${d}`));
  const first = await new Promise((res, rej) => {
    createInterface({ input: proc.stdout }).once('line', res);
    proc.once('exit', (code) => rej(new Error(`yezi serve exited with ${code}`)));
  });
  const m = /http:\/\/([0-9.]+:\d+)\//.exec(first);
  assert(m, `the first line names the address: ${first}`);
  return { proc, base: `http://${m[1]}` };
}

/** What the page shows of play ahead and the current trick. */
function aheadState(page) {
  return page.evaluate(() => {
    const me = document.querySelector('.seat.pos-bottom')?.getAttribute('data-seat') ?? null;
    const plays = [...document.querySelectorAll('.trick .play')].map((p) => ({
      seat: p.getAttribute('data-seat'),
      kind: p.getAttribute('data-kind'),
      cards: [...p.querySelectorAll('.card')].map((c) => c.getAttribute('data-card')),
    }));
    return {
      me,
      plays,
      queued: [...document.querySelectorAll('.hand .card.queued')].map((c) => c.getAttribute('data-card')),
      note: document.querySelector('.queued-note')?.getAttribute('data-queued') ?? null,
      notices: [...document.querySelectorAll('.notices .notice')].map((n) => n.textContent ?? ''),
      trump: document.querySelector('.trump-value')?.getAttribute('data-trump') ?? '',
    };
  });
}

/** Off-turn in the play: the hand is played and this seat has nothing to answer. */
function offTurn(s, playPhase) {
  return !s.handEnd && s.phase === playPhase && s.legal === '' && s.hand.length > 0;
}

/** Waits until `card` has left the hand (played); false if it has not in `ms`. */
async function leaves(page, card, ms) {
  try {
    await page.waitForFunction((c) => !document.querySelector(`.hand .card[data-card="${c}"]`), card, { timeout: ms });
    return true;
  } catch {
    return false;
  }
}

/** Plays the Madiao turn the page offers by clicking (a lead or capture face up, else face down). */
async function playMadiaoTurn(page, s) {
  const card = s.legalCards[0];
  await page.locator(`.hand .card[data-card="${card}"]`).click();
  const b = (await tableState(page)).buttons;
  const choice = ['lead', 'capture', 'slough'].find((x) => b.includes(x)) ?? b[0];
  if (!choice) return;
  await page.locator(`.prompt button[data-action="${choice}"]`).first().click({ timeout: 2000 }).catch(() => {});
  await leaves(page, card, 5000);
}

test('Madiao: a card queued while the bots play is played when the turn comes (mouse and keyboard)', { timeout: 240000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'yezi-premove-'));
  const { proc, base } = await slowServer(dir);
  const browser = await launchBrowser();
  try {
    const page = await watchedPage(await browser.newContext({ viewport: { width: 1280, height: 900 } }), 'premove-madiao');
    await page.goto(base);
    await enterName(page, 'Ahead');
    await createTable(page, 'madiao', { clock: '120' });
    let cancelled = false;
    let byMouse = 0;
    let byKeys = 0;
    const deadline = Date.now() + 180000;
    while ((byMouse < 2 || byKeys < 1) && Date.now() < deadline) {
      const s = await tableState(page);
      if (s.handEnd) {
        await page.locator('button[data-action="next"]').click({ timeout: 2000 }).catch(() => {});
        await page.waitForFunction(() => !document.querySelector('.hand-end'), null, { timeout: 60000 }).catch(() => {});
        continue;
      }
      if (s.legal === 'redeal') {
        await page.locator('.prompt button[data-action="keep"]').click({ timeout: 2000 }).catch(() => {});
        await sleep(200);
        continue;
      }
      if (s.legal === 'actions' && s.legalCards.length) {
        await playMadiaoTurn(page, s);
        continue;
      }
      if (!offTurn(s, 'play')) {
        await sleep(50);
        continue;
      }
      const keys = byMouse >= 2;
      const card = s.hand[0];
      if (keys) await page.keyboard.press('1');
      else await page.locator(`.hand .card[data-card="${card}"]`).click();
      let a = await aheadState(page);
      if (a.queued[0] !== card) {
        log(`the turn came before ${card} was queued; again`);
        continue;
      }
      assert(a.note === card, `the prompt says ${card} is queued: ${a.note}`);
      if (!cancelled) {
        // A second click cancels it; a third queues it again.
        await page.locator(`.hand .card[data-card="${card}"]`).click();
        a = await aheadState(page);
        if (a.queued.length === 0 && a.note === null) {
          cancelled = true;
          await snap(page, 'premove-cancelled');
          await page.locator(`.hand .card[data-card="${card}"]`).click();
          a = await aheadState(page);
          if (a.queued[0] !== card) continue; // the turn came meanwhile
        } else if ((await tableState(page)).legal !== 'actions') {
          throw new Error(`a second click cancels the queued card: ${JSON.stringify(a)}`);
        } else continue;
        await snap(page, 'premove-queued');
      }
      // Nothing more is pressed: the card goes when the turn comes.
      assert(await leaves(page, card, 20000), `the queued ${card} is played when the turn comes`);
      const mine = (await aheadState(page)).plays.find((p) => p.seat === a.me && p.cards.includes(card));
      if (mine) assert(mine.kind !== 'discard', `a queued card that cannot capture goes face down: ${mine.kind}`);
      log(`queued ${card} played as ${mine ? mine.kind : '(the trick already gathered)'}${keys ? ' (keyboard)' : ''}`);
      if (keys) byKeys += 1;
      else byMouse += 1;
    }
    assert(cancelled, 'a queued card was cancelled by a second click');
    assert(byMouse >= 2 && byKeys >= 1, `queued cards played: ${byMouse} by mouse, ${byKeys} by keys`);
    assert(problems.length === 0, `no console problems: ${problems.join('; ')}`);
  } finally {
    await browser.close();
    proc.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Plays the Da Bai Fen decision the page offers by clicking (no declaration, no annulment). */
async function playDabaifenTurn(page, s) {
  if (s.legal === 'annul') {
    await page.locator('.prompt button[data-action="keep"]').click({ timeout: 2000 }).catch(() => {});
    await sleep(200);
    return;
  }
  if (s.legal === 'lead') {
    await page.locator(`.hand .card[data-card="${s.legalCards[0]}"]`).click();
  } else {
    const need = await page.evaluate(() => {
      const m = /(\d+)\/(\d+)/.exec(document.querySelector('.prompt .count')?.textContent ?? '');
      return m ? Number(m[2]) - Number(m[1]) : 0;
    });
    for (const c of s.legalCards.filter((c) => !s.selected.includes(c)).slice(0, need)) {
      await page.locator(`.hand .card[data-card="${c}"]`).click();
    }
  }
  const action = s.buttons.includes('bury') ? 'bury' : 'play';
  await page.locator(`.prompt button[data-action="${action}"]`).first().click({ timeout: 2000 }).catch(() => {});
  await page.waitForFunction((n) => document.querySelectorAll('.hand .card').length < n, s.hand.length, { timeout: 5000 }).catch(() => {});
}

test('Da Bai Fen: a queued card is played if the trick allows it, dropped with a notice if not', { timeout: 300000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'yezi-premove-'));
  const { proc, base } = await slowServer(dir);
  const browser = await launchBrowser();
  try {
    const page = await watchedPage(await browser.newContext({ viewport: { width: 1280, height: 900 } }), 'premove-dbf');
    await page.goto(base);
    await enterName(page, 'Ahead');
    await createTable(page, 'dabaifen', { clock: '120' });
    let dropped = 0;
    let played = 0;
    /** The trick (its number of plays before) already tried: one card queued a trick. */
    let tried = '';
    const deadline = Date.now() + 240000;
    while ((dropped < 1 || played < 1) && Date.now() < deadline) {
      const s = await tableState(page);
      if (s.handEnd) {
        await page.locator('button[data-action="next"]').click({ timeout: 2000 }).catch(() => {});
        await page.waitForFunction(() => !document.querySelector('.hand-end'), null, { timeout: 60000 }).catch(() => {});
        continue;
      }
      if (['cards', 'lead', 'annul'].includes(s.legal ?? '')) {
        await playDabaifenTurn(page, s);
        continue;
      }
      if (!offTurn(s, 'playing')) {
        await sleep(50);
        continue;
      }
      const a = await aheadState(page);
      // A single card led by another seat, this seat yet to play, and a card to queue.
      const lead = a.plays[0];
      const key = `${s.hand.length}:${lead ? lead.cards.join('') : ''}`;
      if (!lead || a.plays.length >= 4 || a.plays.some((p) => p.seat === a.me) || lead.cards.length !== 1 || tried === key || a.trump.length !== 2) {
        await sleep(50);
        continue;
      }
      tried = key;
      const trump = { suit: a.trump[0], rank: a.trump[1] };
      const led = effectiveSuit(lead.cards[0], trump);
      const follow = s.hand.filter((c) => effectiveSuit(c, trump) === led);
      const other = s.hand.filter((c) => effectiveSuit(c, trump) !== led);
      // Illegal when the seat holds the suit led and queues another; legal otherwise.
      const illegal = follow.length > 0 && other.length > 0 && dropped === 0;
      const card = illegal ? other[0] : (follow[0] ?? other[0]);
      await page.locator(`.hand .card[data-card="${card}"]`).click();
      if ((await aheadState(page)).queued[0] !== card) {
        log(`the turn came before ${card} was queued; again`);
        continue;
      }
      if (illegal) {
        // The turn comes: the card is dropped with a notice, stays in the hand, and the
        // player chooses what to play.
        await page.waitForFunction(() => document.querySelector('.prompt')?.getAttribute('data-legal') === 'cards', null, { timeout: 20000 });
        const after = await aheadState(page);
        const st = await tableState(page);
        assert(st.hand.includes(card), `the illegal ${card} stays in the hand`);
        assert(after.queued.length === 0 && after.note === null, 'nothing is queued any more');
        assert(after.notices.some((n) => /dropped/.test(n)), `a notice says ${card} was dropped: ${after.notices}`);
        assert(!st.legalCards.includes(card), `the server's legal follow leaves ${card} out`);
        await snap(page, 'premove-dropped');
        log(`queued ${card} against a ${led} lead: dropped`);
        dropped += 1;
      } else {
        assert(await leaves(page, card, 20000), `the legal queued ${card} is played when the turn comes`);
        log(`queued ${card} on a ${led} lead: played`);
        played += 1;
      }
    }
    assert(dropped >= 1, 'a queued card made illegal by the trick was dropped');
    assert(played >= 1, 'a legal queued card was played');
    assert(problems.length === 0, `no console problems: ${problems.join('; ')}`);
  } finally {
    await browser.close();
    proc.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
});
