// Browser scenarios (headless Chromium against the real yezi binary, a server of this file's own):
// a reload in mid-turn: the turn clock goes on (it does not restart); while away, the seat shows
// the grace countdown.

import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { assert, clickAction, closeSuite, createTable, enterName, log, openSuite, sleep, snap, tableState, watchedPage } from '../lib/harness.mjs';

/** The suite's server, browser and pages (see openSuite). */
let suite;
let browser, desktop, watcher;
before(async () => {
  suite = await openSuite({ named: true });
  ({ browser, desktop, watcher } = suite);
});
after(() => closeSuite(suite));

test('a reload in mid-turn: the turn clock goes on (it does not restart); while away, the seat shows the grace countdown', async () => {
  const ctx = await browser.newContext(desktop);
  const watchCtx = await browser.newContext(desktop);
  const p = await watchedPage(ctx, 'clock');
  const w = await watchedPage(watchCtx, 'clock-watcher');
  await p.goto('/');
  await enterName(p, 'Jo');
  await p.locator('.new-table').waitFor();
  const id = await createTable(p, 'madiao', { grace: 30, name: 'Jo reloads' });
  await p.locator('.felt').waitFor({ timeout: 20000 });
  await w.goto('/');
  await enterName(w, 'Kim');
  await w.goto(`/t/${id}?watch`);
  await w.locator('.felt').waitFor({ timeout: 20000 });
  /** The seconds left on Jo's own turn clock (seat 0), or null when it is not shown. */
  const clock = (pg) => pg.evaluate(() => {
    const c = document.querySelector('.felt > .seat[data-seat="0"] .countdown .secs');
    return c ? Number(/(\d+)/.exec(c.textContent ?? '')?.[1]) : null;
  });
  // Jo's turn to play a card (the redeal window kept, a hand that ends early readied past).
  const deadline = Date.now() + 120000;
  let s = await tableState(p);
  while (Date.now() < deadline) {
    s = await tableState(p);
    if (s.legal === 'actions' && s.legalCards.length && (await clock(p)) !== null) break;
    if (s.handEnd) await p.locator('.hand-end button[data-action="next"]').click({ timeout: 2000 }).catch(() => {});
    else if (s.legal === 'redeal') await clickAction(p, 'keep');
    await sleep(200);
  }
  assert(s.legal === 'actions', 'it is Jo\'s turn');
  const first = /** @type {number} */ (await clock(p));
  await sleep(4000);
  const before = /** @type {number} */ (await clock(p));
  assert(before <= first - 3, `the clock runs (${first} → ${before})`);
  await p.reload();
  await p.locator('.felt').waitFor({ timeout: 20000 });
  await p.waitForFunction(() => !!document.querySelector('.felt > .seat[data-seat="0"] .countdown .secs'), null, { timeout: 10000 });
  const after = /** @type {number} */ (await clock(p));
  const again = await tableState(p);
  log(`turn clock ${first} s, ${before} s before the reload, ${after} s after it (of 120)`);
  await snap(p, 'clock-after-reload');
  assert(after <= before + 1 && after < 120 - 3, `the clock did not restart: ${before} s before the reload, ${after} s after`);
  assert(again.legal === 'actions' && again.hand.join() === s.hand.join(), 'still Jo\'s turn, with the same cards');
  // Away for a moment: the watcher sees Jo's seat disconnected, its grace running out, and
  // nothing played for him meanwhile.
  await p.goto('about:blank');
  await w.locator('.felt > .seat[data-seat="0"] .grace-clock .secs').waitFor({ timeout: 10000 });
  const grace = await w.evaluate(() => ({
    secs: Number(/(\d+)/.exec(document.querySelector('.felt > .seat[data-seat="0"] .grace-clock .secs')?.textContent ?? '')?.[1]),
    timer: document.querySelector('.felt')?.getAttribute('data-timer'),
    cards: document.querySelector('.felt > .seat[data-seat="0"] .backs-n')?.textContent,
    dot: document.querySelector('.felt > .seat[data-seat="0"] .dot')?.className,
  }));
  log(`while Jo is away the watcher sees ${JSON.stringify(grace)}`);
  await snap(w, 'grace-countdown');
  assert(grace.secs > 0 && grace.secs <= 30, `the grace counts down from 30 s: ${grace.secs}`);
  assert(grace.timer === 'grace', `the timer is Jo's grace (his turn): ${grace.timer}`);
  assert(/gone/.test(grace.dot ?? ''), `the seat is shown disconnected: ${grace.dot}`);
  await sleep(2000);
  const still = await w.evaluate(() => document.querySelector('.felt > .seat[data-seat="0"] .backs-n')?.textContent);
  assert(still === grace.cards, `nothing is played for Jo during his grace (${grace.cards} → ${still} cards)`);
  await p.goto(`/t/${id}`);
  await p.locator('.felt').waitFor({ timeout: 20000 });
  await p.waitForFunction(() => !!document.querySelector('.felt > .seat[data-seat="0"] .countdown .secs'), null, { timeout: 10000 });
  const back = /** @type {number} */ (await clock(p));
  const mine = await tableState(p);
  assert(back < after, `back within the grace, the clock went on: ${after} s → ${back} s`);
  assert(mine.legal === 'actions' && mine.hand.join() === s.hand.join(), 'back within the grace, Jo just continues');
  await w.locator('.felt > .seat[data-seat="0"] .grace-clock').waitFor({ state: 'detached', timeout: 10000 });
  await ctx.close();
  await watchCtx.close();
});
