// Browser scenarios (headless Chromium against the real yezi binary, a server of this file's own):
// Madiao: a complete hand by clicking, a spectator who sees nothing hidden, a reload in mid-hand;
// the server is killed and started again: the page reconnects by itself to the same seat; the rules
// page, with a table’s variants highlighted; switching the language (kept after a reload); 1366 px:
// the match score headers break between words only.

import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { assert, checkSpectator, clickAction, closeSuite, createTable, expect, log, openSuite, playMadiaoHand, snap, startServer, tableState, waitNextHand } from '../lib/harness.mjs';

/** Tables that one scenario of this file makes and a later one uses. */
let madiaoTable = null, madiaoHandPlayed = null;

/** The suite's server, browser and pages (see openSuite). */
let suite;
let desktop, base, dir, proc, page, spy, player;
before(async () => {
  suite = await openSuite({ named: true });
  ({ desktop, base, dir, proc, page, spy, player } = suite);
});
after(() => closeSuite({ ...suite, proc }));

test('Madiao: a complete hand by clicking, a spectator who sees nothing hidden, a reload in mid-hand', async () => {
  madiaoTable = await createTable(page, 'madiao', { name: 'Ann plays Madiao' });
  log(`Madiao table ${madiaoTable}`);
  await page.locator('.felt').waitFor({ timeout: 20000 });
  // The spectator finds the table in the lobby's list and watches it.
  await spy.goto('/');
  await spy.locator(`.open-tables li[data-table="${madiaoTable}"] button[data-action="watch"]`).click({ timeout: 15000 });
  await spy.locator('.felt').waitFor({ timeout: 20000 });
  let reloaded = false;
  let spectatorChecks = 0;
  let handsPlayed = 0;
  let keyed = false;
  for (let attempt = 0; attempt < 4 && handsPlayed === 0; attempt++) {
    const hooks = {
      firstSnap: attempt === 0,
      keys: true,
      keyed: false,
      after: async (n) => {
        if (n === 2 || n === 5) {
          await checkSpectator(spy, 'madiao');
          spectatorChecks += 1;
          await snap(spy, `spectator-madiao-${n}`);
          await snap(page, `madiao-trick-${n}`);
        }
        if (n === 3 && !reloaded) {
          reloaded = true;
          const before = await tableState(page);
          await page.reload();
          await page.locator('.felt').waitFor({ timeout: 20000 });
          await page.waitForFunction(() => document.querySelectorAll('.hand .card').length > 0, null, { timeout: 10000 });
          const after = await tableState(page);
          // The same seat and hand: the cards are those held before (while the page was away,
          // the server's bot may have played one for the absent player).
          assert(after.hand_no === before.hand_no, 'the same hand after a reload');
          assert(after.hand.every((c) => before.hand.includes(c)) && after.hand.length >= before.hand.length - 1,
            `the same cards after a reload (${before.hand} → ${after.hand})`);
          log(`reloaded in mid-hand with ${after.hand.length} cards, continuing`);
          await snap(page, 'madiao-after-reload');
        }
      },
    };
    const played = await playMadiaoHand(page, hooks);
    keyed ||= hooks.keyed;
    await snap(page, `madiao-hand-end-${attempt}`);
    const end = await page.evaluate(() => ({
      lines: document.querySelectorAll('.hand-end .scoring li').length,
      text: document.querySelector('.hand-end .result-text')?.textContent ?? '',
      score: document.querySelectorAll('.hand-end .match-score tbody tr').length,
    }));
    log(`Madiao hand over after ${played} cards of mine: ${end.text} (${end.lines} settlement lines)`);
    assert(end.score === 4, 'the running match score lists the four players');
    if (played >= 7) {
      assert(end.lines > 0, 'the itemized settlement is shown in words');
      handsPlayed += 1;
    } else {
      // Settled before play (a meld, the four lowest, a redeal): the next hand.
      const settled = (await tableState(page)).hand_no;
      await clickAction(page, 'next').catch(() => {});
      await page.locator('.hand-end button[data-action="next"]').click({ timeout: 5000 }).catch(() => {});
      await waitNextHand(page, settled, 70000);
    }
  }
  assert(handsPlayed === 1, 'a complete Madiao hand was played');
  assert(keyed, 'a card was played with the keyboard');
  assert(reloaded, 'the page was reloaded in mid-hand');
  assert(spectatorChecks >= 1, 'the spectator was checked during play');
  await checkSpectator(spy, 'madiao');
  await snap(spy, 'spectator-madiao-end');
  // The end panel offers the next hand; the player takes it.
  const playedHand = (await tableState(page)).hand_no;
  madiaoHandPlayed = playedHand;
  const endLines = await page.locator('.hand-end .scoring li').allTextContents();
  await page.locator('.hand-end button[data-action="next"]').click();
  await waitNextHand(page, playedHand, 70000);
  await snap(page, 'madiao-next-hand');
  // Issue 11 item 12: the scoring closed with the next hand, and stays reachable: the events
  // list each trick won (once each) and the hand's result, whose scoring opens again.
  await page.locator('.side .tabs button', { hasText: 'Events' }).click();
  const story = await page.evaluate((h) => ({
    tricks: [...document.querySelectorAll(`.log [data-story="trick"][data-hand="${h}"]`)].map((x) => x.textContent),
    result: document.querySelector(`.log [data-story="result"][data-hand="${h}"]`)?.textContent ?? '',
  }), playedHand);
  log(`events of hand ${playedHand}: ${story.tricks.length} tricks, ${story.result}`);
  assert(story.tricks.length === 8, `a line per trick won: ${JSON.stringify(story.tricks)}`);
  assert(story.tricks.every((x, i) => x.startsWith(`Trick ${8 - i}: `)), `the tricks in order, newest first: ${story.tricks}`);
  assert(new RegExp(`^Hand ${playedHand + 1} is over: All eight tricks were played`).test(story.result.trim()), `the result line: ${story.result}`);
  await snap(page, 'madiao-events');
  await page.locator(`.log [data-story="result"][data-hand="${playedHand}"] button[data-action="show-hand"]`).click();
  await page.locator('.past-hand .scoring li').first().waitFor({ timeout: 5000 });
  const again = await page.locator('.past-hand .scoring li').allTextContents();
  assert(again.length === endLines.length && again.every((x, i) => x === endLines[i]), `the same scoring again: ${again.length} lines, ${endLines.length} at the end`);
  await snap(page, 'madiao-scoring-reopened');
  await page.locator('.past-hand .close').click();
  // And from the match score's list of hands.
  await page.locator('.side .tabs button', { hasText: 'Match score' }).click();
  await page.locator(`.hand-list li[data-hand="${playedHand}"] button[data-action="show-hand"]`).click();
  await page.locator('.past-hand .scoring li').first().waitFor({ timeout: 5000 });
  await page.locator('.past-hand .close').click();
  await page.locator('.side .tabs button', { hasText: 'Chat' }).click();
});

test('the server is killed and started again: the page reconnects by itself to the same seat', async () => {
  assert(madiaoTable, 'the Madiao table exists');
  await page.waitForFunction(() => document.querySelectorAll('.hand .card').length > 0, null, { timeout: 30000 });
  const before = await tableState(page);
  expect.serverDown = true;
  proc.kill('SIGKILL');
  await new Promise((r) => proc.once('exit', r));
  // The page notices and says so, without a reload.
  await page.locator('.conn-bad').waitFor({ timeout: 15000 });
  await snap(page, 'server-down');
  const restarted = await startServer(dir, base.replace('http://', ''));
  proc = restarted.proc;
  assert(restarted.base === base, `the server is back at the same address (${restarted.base})`);
  await page.locator('.conn-bad').waitFor({ state: 'detached', timeout: 30000 });
  await page.waitForFunction(() => document.querySelectorAll('.hand .card').length > 0, null, { timeout: 30000 });
  // The spectator's page (still watching this table) comes back too.
  await spy.locator('.conn-bad').waitFor({ state: 'detached', timeout: 30000 });
  await spy.locator('.felt').waitFor({ timeout: 30000 });
  expect.serverDown = false;
  const after = await tableState(page);
  const id = await page.evaluate(() => document.querySelector('.table-page')?.getAttribute('data-table'));
  assert(id === madiaoTable, `the same table after reconnecting (${id})`);
  assert(after.hand_no >= before.hand_no, `the hand went on (${before.hand_no} → ${after.hand_no})`);
  assert(after.status === 'playing', `the match plays on (${after.status})`);
  if (after.hand_no === before.hand_no) {
    assert(after.hand.every((c) => before.hand.includes(c)), `the same cards (${before.hand} → ${after.hand})`);
  }
  log(`reconnected by itself to hand ${after.hand_no} with ${after.hand.length} cards`);
  await snap(page, 'reconnected');
});

test('the rules page, with a table’s variants highlighted', async () => {
  await page.goto('/rules?game=dabaifen');
  await page.locator('.rules h3').first().waitFor();
  assert((await page.locator('.rules section').count()) >= 8, 'the rules have their sections');
  await snap(page, 'rules');
  // Issue 11 item 16: the promoted reward card is explained.
  await page.goto('/rules?game=madiao');
  await page.locator('.rules h3').first().waitFor();
  const madiaoRules = await page.locator('.rules').textContent();
  assert(/second card of that suit \(八萬\) is promoted to reward card/.test(madiaoRules), 'the rules page explains the promoted reward card');
  if (madiaoTable) {
    await page.goto(`/t/${madiaoTable}`);
    await page.locator('.felt').waitFor({ timeout: 20000 });
    await page.locator('.head-buttons button', { hasText: 'Rules' }).click();
    await page.locator('.dialog .variant li[data-active="1"]').first().waitFor();
    assert((await page.locator('.dialog .variant li[data-active="1"]').count()) === 10, 'the ten Madiao variants in force are marked');
    await snap(page, 'rules-dialog');
    await page.locator('.dialog .close').click();
  }
});

test('switching the language (kept after a reload)', async () => {
  await page.goto('/');
  await page.locator('.new-table').waitFor();
  await page.locator('button[data-action="lang"]').click();
  await page.waitForFunction(() => document.documentElement.lang === 'zh-Hans');
  assert((await page.locator('header.top nav').textContent()).includes('规则'), 'the menu is in Chinese');
  await snap(page, 'lobby-zh');
  await page.reload();
  await page.locator('.new-table').waitFor();
  assert((await page.evaluate(() => document.documentElement.lang)) === 'zh-Hans', 'the choice is kept');
  if (madiaoTable) {
    await page.goto(`/t/${madiaoTable}`);
    await page.locator('.felt').waitFor({ timeout: 20000 });
    await snap(page, 'table-zh');
    // Issue 11 items 12 and 14: the scoring of the hand played earlier (kept by this tab
    // through the page loads) opens again, in Chinese with the cards, the trick counts and
    // the banker, every line its own.
    if (madiaoHandPlayed !== null) {
      await page.locator('.side .tabs button', { hasText: '比分' }).click();
      await page.locator(`.hand-list li[data-hand="${madiaoHandPlayed}"] button[data-action="show-hand"]`).click();
      await page.locator('.past-hand .scoring li').first().waitFor({ timeout: 5000 });
      const lines = await page.locator('.past-hand .scoring li .line-text').allTextContents();
      const items = await page.locator('.past-hand .scoring li').evaluateAll((els) => els.map((e) => e.getAttribute('data-item')));
      log(`the scoring in Chinese: ${lines.join(' | ')}`);
      await snap(page, 'table-zh-scoring');
      assert(lines.some((x) => x.includes('（庄家）')), 'the banker is named');
      assert(new Set(lines).size === lines.length, `no two lines alike: ${lines}`);
      lines.forEach((x, i) => {
        if (items[i] === 'reward_trick') assert(/以赏牌得墩：\S+/.test(x), `a reward line names its card: ${x}`);
        if (items[i] === 'fewer_than_2_tricks' || items[i] === '3_or_more_tricks') assert(/（\d墩）/.test(x), `the tricks are counted: ${x}`);
      });
      await page.locator('.past-hand .close').click();
    }
  }
  await page.locator('button[data-action="lang"]').click();
  await page.waitForFunction(() => document.documentElement.lang === 'en');
});

test('1366 px: the match score headers break between words only', async () => {
  assert(madiaoTable, 'the Madiao table exists');
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto(`/t/${madiaoTable}`);
  await page.locator('.felt').waitFor({ timeout: 20000 });
  await page.locator('.side .tabs button', { hasText: 'Match score' }).click();
  await page.locator('.side table.match-score').waitFor();
  const broken = await page.evaluate(() =>
    [...document.querySelectorAll('table.match-score th')].flatMap((th) => {
      // A header broken inside a word has more lines than words.
      const words = th.textContent.trim().split(/\s+/).filter(Boolean).length;
      const range = document.createRange();
      range.selectNodeContents(th);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      return lines > words ? [`${th.textContent} (${lines} lines)`] : [];
    }),
  );
  await snap(page, 'desktop-1366-score');
  assert(broken.length === 0, `headers broken inside a word: ${broken}`);
  await page.setViewportSize({ width: 1280, height: 900 });
});
