// Browser scenarios (headless Chromium against the real yezi binary, a server of this file's own):
// a finished game replayed step by step, and a local record file; a 360×740 phone: the lobby, a
// table, a replay and the rules fit the width.

import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { assert, bin, closeSuite, createTable, enterName, expect, log, openSuite, snap, watchedPage } from '../lib/harness.mjs';
import { noHorizontalOverflow } from '../lib/tables.mjs';

/** Tables that one scenario of this file makes and a later one uses. */
let madiaoTable = null, replayTable = null;

/** The suite's server, browser and pages (see openSuite). */
let suite;
let browser, base, dir, page;
before(async () => {
  suite = await openSuite({ named: true });
  ({ browser, base, dir, page } = suite);
});
after(() => closeSuite(suite));

test('a finished game replayed step by step, and a local record file', async () => {
  await page.goto('/');
  await page.locator('.new-table').waitFor();
  replayTable = await createTable(page, 'madiao', { seat0: await page.locator('select[name="seat0"] option[value^="bot:"]').first().getAttribute('value'), variants: { game_length: 'hands:2' }, name: 'Bots only' });
  log(`bot table ${replayTable}`);
  // The server of this run pauses 60 s between hands (a long-suit redeal too, and it does not
  // count): two counted hands take 70 s, and one minute more for each redeal.
  await page.waitForFunction(() => document.querySelector('.table-page')?.getAttribute('data-status') === 'finished', null, { timeout: 300000 });
  await snap(page, 'bots-finished');
  // The page asks for the replay's outline, then for each hand's steps when it shows it.
  /** @type {string[]} */
  const asked = [];
  const onRequest = (r) => {
    const u = new URL(r.url());
    if (u.pathname.startsWith('/api/replay')) asked.push(`${r.method()} ${u.pathname}${u.search}`);
  };
  page.on('request', onRequest);
  await page.locator('.hand-end button.primary', { hasText: /replay/i }).click();
  await page.locator('.replay-body').waitFor({ timeout: 15000 });
  assert(asked[0] === `GET /api/replays/${replayTable}`, `the outline first: ${asked}`);
  assert(asked[1] === `GET /api/replays/${replayTable}?hand=0`, `then the first hand's steps: ${asked}`);
  // Step through a hand that was played out (a long-suit redeal, a meld or the four lowest end a
  // hand before its tricks; two counted hands make a played one all but certain).
  const outline = await (await page.request.get(`/api/replays/${replayTable}`)).json();
  const played = outline.hands.findIndex((h) => h.result?.outcome === 'played');
  assert(played >= 0, `a hand of the match was played out: ${JSON.stringify(outline.hands.map((h) => h.result?.outcome))}`);
  if (played > 0) {
    await page.locator('.replay-controls select').selectOption(String(played));
    await page.waitForFunction((k) => document.querySelector('.replay-page')?.getAttribute('data-hand') === String(k), played, { timeout: 10000 });
    await page.waitForFunction(() => document.querySelector('.replay-page')?.getAttribute('data-step') === '0', null, { timeout: 10000 });
    await page.locator('.replay-body').waitFor({ timeout: 15000 });
  }
  const steps = async () => page.evaluate(() => Number(document.querySelector('.replay-page').getAttribute('data-step')));
  const atStep = (n) => page.waitForFunction((k) => document.querySelector('.replay-page')?.getAttribute('data-step') === String(k), n, { timeout: 5000 });
  assert((await steps()) === 0, 'the replay begins at the deal');
  assert((await page.locator('.open-hand').count()) === 4, 'all four hands are shown');
  const dealt = await page.locator('.open-hand .card').count();
  assert(dealt === 32, `32 cards in the hands at the deal, not ${dealt}`);
  for (let i = 0; i < 6; i++) await page.locator('button[data-action="next-step"]').click();
  await atStep(6);
  await snap(page, 'replay-step-6');
  await page.locator('button[data-action="prev"]').click();
  await atStep(5);
  await page.keyboard.press('ArrowRight');
  await atStep(6);
  await page.locator('button[data-action="last-step"]').click();
  await page.locator('.replay-scoring').waitFor();
  await snap(page, 'replay-end');
  const href = await page.locator('.replay-head a.button[download]').getAttribute('href');
  assert(href === `/api/records/${replayTable}`, `the record is offered for download: ${href}`);
  const res = await page.request.get(href);
  assert(res.ok(), 'the record downloads');
  const text = await res.text();
  assert(JSON.parse(text).format === 'yezi/1', 'a yezi/1 record');
  // A local file: the table's record.
  const file = join(dir, 'game.json');
  writeFileSync(file, text);
  await page.goto('/replay');
  await page.locator('input[type=file]').setInputFiles(file);
  await page.locator('.replay-body').waitFor({ timeout: 15000 });
  await page.locator('button[data-action="next-step"]').click();
  await snap(page, 'replay-local-file');
  // A local file of three hands (one match, from `yezi sim`): posted once, then its hands
  // fetched one by one as they are shown (the next one ahead of time), never all at once.
  const three = join(dir, 'three.json');
  execFileSync(bin, ['sim', 'madiao', '--hands', '3', '--seed', '5', '--variant', 'game_length=hands:3', '--out', three]);
  asked.length = 0;
  await page.goto('/replay');
  await page.locator('input[type=file]').setInputFiles(three);
  await page.locator('.replay-body').waitFor({ timeout: 15000 });
  await page.waitForFunction(() => (document.querySelector('.replay-page')?.getAttribute('data-loaded') ?? '').split(' ').sort().join(' ') === '0 1', null, { timeout: 10000 });
  assert(asked[0] === 'POST /api/replay', `the record is posted: ${asked}`);
  const posted = /^GET \/api\/replays\/(r[a-z0-9]+)\?hand=0$/.exec(asked[1] ?? '');
  assert(posted, `then its first hand is fetched by the id it got: ${asked}`);
  assert(!asked.some((a) => a.endsWith('?hand=2')), `the third hand waits until it is shown: ${asked}`);
  assert((await page.locator('.replay-controls select option').count()) === 3, 'the outline lists three hands');
  await page.locator('.replay-controls select').selectOption('2');
  await page.waitForFunction(() => document.querySelector('.replay-page')?.getAttribute('data-hand') === '2', null, { timeout: 10000 });
  await page.locator('.replay-body').waitFor({ timeout: 15000 });
  assert(asked.includes(`GET /api/replays/${posted[1]}?hand=2`), `the third hand is fetched when shown: ${asked}`);
  await page.locator('button[data-action="last-step"]').click();
  await page.locator('.replay-scoring').waitFor();
  await snap(page, 'replay-local-file-third-hand');
  page.off('request', onRequest);
  // A file that is not a record: a clear message.
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, '{"format": "yezi/1", "game": "chess"}');
  await page.goto('/replay');
  expect.httpError = true;
  await page.locator('input[type=file]').setInputFiles(bad);
  await page.locator('.error-box').waitFor({ timeout: 10000 });
  expect.httpError = false;
  const msg = await page.locator('.error-box').textContent();
  assert(/game/.test(msg), `the error says what is wrong: ${msg}`);
  // Issue 11 item 15: the lobby's recent tables offer a replay only for a finished table.
  await page.goto('/');
  await page.locator(`.recent li[data-table="${replayTable}"] a[href="/replay/${replayTable}"]`).waitFor({ timeout: 10000 });
  if (madiaoTable) {
    // Ann's Madiao table: its bots play on for her once she left, so it may have finished by
    // now. Its link must match its status, read before and after the lobby is looked at.
    const status = async () => (await (await page.request.get(`/api/tables/${madiaoTable}`)).json()).status;
    let checked = false;
    for (let attempt = 0; attempt < 3 && !checked; attempt++) {
      await page.goto('/');
      const before = await status();
      await page.locator(`.recent li[data-table="${madiaoTable}"]`).waitFor({ timeout: 10000 });
      if (before === 'finished') {
        await page.locator(`.recent li[data-table="${madiaoTable}"] a[href="/replay/${madiaoTable}"]`).waitFor({ timeout: 10000 });
        checked = true;
      } else {
        const links = await page.locator(`.recent li[data-table="${madiaoTable}"] a[href^="/replay/"]`).count();
        if ((await status()) === before) {
          assert(links === 0, `no replay link for a table still ${before}`);
          checked = true;
        }
      }
    }
    assert(checked, 'the Madiao table kept changing status while the lobby was read');
  }
  await snap(page, 'lobby-recent');
});

test('a 360×740 phone: the lobby, a table, a replay and the rules fit the width', async () => {
  const phone = await browser.newContext({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, baseURL: base, locale: 'zh-CN' });
  const p = await watchedPage(phone, 'phone');
  await p.goto('/');
  await enterName(p, '小明');
  await p.locator('.new-table').waitFor();
  await noHorizontalOverflow(p, 'lobby');
  await snap(p, 'phone-lobby');
  await p.locator('button[data-action="create"]').click();
  await p.locator('.felt').waitFor({ timeout: 20000 });
  await p.waitForFunction(() => document.querySelectorAll('.hand .card').length >= 8, null, { timeout: 20000 });
  await noHorizontalOverflow(p, 'table');
  await snap(p, 'phone-table');
  if (replayTable) {
    await p.goto(`/replay/${replayTable}`);
    await p.locator('.replay-body').waitFor({ timeout: 15000 });
    await p.locator('button[data-action="next-step"]').click();
    await noHorizontalOverflow(p, 'replay');
    await snap(p, 'phone-replay');
  }
  await p.goto('/rules');
  await p.locator('.rules').waitFor();
  await noHorizontalOverflow(p, 'rules');
  await snap(p, 'phone-rules');
  await phone.close();
});
