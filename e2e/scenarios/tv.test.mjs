// Browser scenarios (headless Chromium against the real yezi binary, a server of this file's own):
// the TV (`/tv`, docs/web.md "Live tables"): the live table shown through its delayed stream, one
// trick behind the table, with nothing hidden; desktop and phone, English and Chinese.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import {
  assert, checkSpectator, clickAction, closeSuite, createTable, enterName, launchBrowser, log, sleep, snap, startServer,
  tableState, watchedPage,
} from '../lib/harness.mjs';

let suite;
before(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'yezi-e2e-tv-'));
  // Bots that take their time, so that a trick in progress can be seen.
  const { proc, base } = await startServer(dir, '127.0.0.1:0', ['--bot-delay-ms', '300', '--tv-delay-tricks', '1']);
  log(`yezi serve at ${base}`);
  const browser = await launchBrowser();
  suite = { dir, proc, base, browser };
});
after(async () => {
  await closeSuite(suite);
  rmSync(suite.dir, { recursive: true, force: true });
});

/** The cards each seat holds, as a spectator's page shows them (its four seats' counts). */
function counts(page) {
  return page.evaluate(() => [...document.querySelectorAll('.felt > .seat')].map((s) => Number(s.querySelector('.backs-n')?.textContent ?? 'NaN')));
}

const sum = (/** @type {number[]} */ a) => a.reduce((x, y) => x + y, 0);

/** Plays the first legal card of Ann's turn. @returns {Promise<boolean>} whether a card was played */
async function playOne(page) {
  const s = await tableState(page);
  const card = s.legalCards[0];
  if (!card) return false;
  await page.locator(`.hand .card[data-card="${card}"]`).click();
  const now = await tableState(page);
  const choice = ['lead', 'capture'].find((b) => now.buttons.includes(b)) ?? (now.buttons.includes('slough') ? 'slough' : now.buttons[0]);
  if (!choice) return false;
  await clickAction(page, choice);
  await page.waitForFunction((c) => !document.querySelector(`.hand .card[data-card="${c}"]`), card, { timeout: 10000 });
  return true;
}

test('the TV shows the live table one trick late, and nothing hidden', async () => {
  const desktop = { viewport: { width: 1366, height: 768 }, baseURL: suite.base, locale: 'en-US' };
  const annCtx = await suite.browser.newContext(desktop);
  const spyCtx = await suite.browser.newContext(desktop);
  const tvCtx = await suite.browser.newContext(desktop);
  const phoneCtx = await suite.browser.newContext({ viewport: { width: 390, height: 844 }, baseURL: suite.base, locale: 'zh-CN', isMobile: true, hasTouch: true });
  try {
    const ann = await watchedPage(annCtx, 'ann');
    await ann.goto('/');
    await enterName(ann, 'Ann');
    await ann.locator('.new-table').waitFor();
    const id = await createTable(ann, 'madiao', { name: 'Ann on TV' });
    // A live spectator, and the TV.
    const spy = await watchedPage(spyCtx, 'spy');
    await spy.goto(`/t/${id}?watch`);
    await enterName(spy, 'Spy');
    const tv = await watchedPage(tvCtx, 'tv');
    await tv.goto('/tv');
    await enterName(tv, 'Tia');
    await tv.locator(`.tv-list a[data-tv-table="${id}"]`).waitFor({ timeout: 20000 });
    await tv.locator(`.page.tv[data-tv="${id}"] .table-page`).waitFor({ timeout: 20000 });
    assert((await tv.locator('.banner.watch[data-tv="1"]').count()) === 1, 'the TV says it is a trick behind');

    // At each of Ann's turns the table stands still: the TV shows the table as it was when the
    // last trick was complete — the cards of the trick in progress are still in their hands.
    let behind = 0;
    let checks = 0;
    let shot = false;
    for (let turn = 0; turn < 8; turn++) {
      const deadline = Date.now() + 60000;
      let s = await tableState(ann);
      while (Date.now() < deadline && !(s.legal === 'actions' && s.legalCards.length)) {
        if (s.legal === 'redeal') await clickAction(ann, 'keep');
        // A hand over (a meld, the four lowest, a redeal, or played out): the next one.
        if (s.handEnd) await ann.locator('button[data-action="next"]:not([disabled])').click({ timeout: 1000 }).catch(() => {});
        await sleep(150);
        s = await tableState(ann);
      }
      assert(s.legal === 'actions', `Ann's turn came: ${JSON.stringify(s)}`);
      await sleep(1500);
      const live = await counts(spy);
      const late = await counts(tv);
      assert(live.length === 4 && live.every(Number.isFinite), `four counts: ${live}`);
      // Madiao deals 8 cards a seat: the cards of the trick in progress.
      const inTrick = (32 - sum(live)) % 4;
      const handOf = (/** @type {import('playwright').Page} */ p) => p.evaluate(() => document.querySelector('.table-page')?.getAttribute('data-hand'));
      if (late.length === 0 || (await handOf(tv)) !== (await handOf(spy))) {
        // No trick of this hand is complete yet: the TV shows the table without its hand, or the
        // end of the hand before.
        assert(sum(live) > 28, `the TV shows no hand only during the first trick: live ${live}`);
        if (turn === 0) await snap(tv, 'tv-desktop-en-first-trick');
        log(`turn ${turn}: the first trick is in progress (${inTrick} cards); the TV waits for it`);
        behind += inTrick > 0 ? 1 : 0;
        checks += 1;
        if (!(await playOne(ann))) break;
        continue;
      }
      assert(late.length === 4 && late.every(Number.isFinite), `four counts on the TV: ${late}`);
      log(`turn ${turn}: live ${live}, TV ${late}, ${inTrick} card(s) of the trick in progress`);
      assert(sum(late) - sum(live) === inTrick, `the TV is exactly the trick in progress behind: live ${live}, TV ${late}`);
      if (inTrick > 0) {
        if (!shot) await snap(tv, 'tv-desktop-en-behind');
        shot = true;
        behind += 1;
      }
      await checkSpectator(tv, 'madiao');
      checks += 1;
      if (!(await playOne(ann))) break;
    }
    assert(checks >= 3, `the TV was checked at ${checks} turns`);
    assert(behind >= 1, 'at least one turn came in the middle of a trick');

    // In Chinese, on the desktop.
    await tv.locator('button.lang').click();
    await tv.locator('.page.tv h2', { hasText: '正在进行的牌桌' }).waitFor();
    await snap(tv, 'tv-desktop-zh');
    await tv.locator('button.lang').click();

    // On a phone, by its id.
    const phone = await watchedPage(phoneCtx, 'phone');
    await phone.goto(`/tv/${id}`);
    await enterName(phone, 'Pho');
    await phone.locator(`.page.tv[data-tv="${id}"] .table-page`).waitFor({ timeout: 20000 });
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    assert(width <= 390, `the TV page fits the phone's width (${width})`);
    await checkSpectator(phone, 'madiao');
    // A hand's end panel (the TV may show one) is put aside, to see the table.
    const hide = phone.locator('.hand-end-top button', { hasText: '隐藏' });
    if (await hide.count()) await hide.first().dispatchEvent('click');
    await snap(phone, 'tv-phone-zh');
    // (A hand's end panel may lie over the page: the button is pressed as a keyboard would.)
    await phone.locator('button.lang').dispatchEvent('click');
    await phone.locator('.page.tv h2', { hasText: 'Live tables' }).waitFor();
    await snap(phone, 'tv-phone-en');
  } finally {
    await annCtx.close();
    await spyCtx.close();
    await tvCtx.close();
    await phoneCtx.close();
  }
});
