// Browser scenarios (headless Chromium against the real yezi binary, a server of this file's own):
// Madiao: a person who banks names the stake; the hand and the match score show it.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { assert, closeSuite, createTable, enterName, log, openSuite, playMadiaoHand, snap, startServer, tableState, watchedPage } from '../lib/harness.mjs';

/** The suite's server, browser and pages (see openSuite). */
let suite;
let browser, desktop;
before(async () => {
  suite = await openSuite({ named: true });
  ({ browser, desktop } = suite);
});
after(() => closeSuite(suite));

test('Madiao: a person who banks names the stake; the hand and the match score show it', async () => {
  // The first banker is drawn from the table's seed: a server of its own, given a table seed,
  // makes the draw repeatable. The seeds are tried in order until Sam draws the bank (the same
  // seed is found every run).
  let ctx = null;
  let p = null;
  let srv = null;
  let id = null;
  for (let k = 1; k <= 40 && !srv; k++) {
    const s = await startServer(mkdtempSync(join(tmpdir(), 'yezi-e2e-stake-')), '127.0.0.1:0', ['--table-seed', String(k)]);
    ctx = await browser.newContext({ ...desktop, baseURL: s.base });
    p = await watchedPage(ctx, 'stake');
    await p.goto('/');
    await enterName(p, 'Sam');
    await p.locator('.new-table').waitFor();
    id = await createTable(p, 'madiao', { stakeMax: 8, name: 'Sam names the stake' });
    // Sam is asked for the stake at once, or a bot banks: it names its stake and the cards come.
    try {
      await p.waitForFunction(() => !!document.querySelector('.stake-pick, .hand .card'), null, { timeout: 20000 });
    } catch (e) {
      await snap(p, 'stake-not-begun');
      log('the table did not begin:', JSON.stringify(await tableState(p)), JSON.stringify(await (await p.request.get(`/api/tables/${id}`)).json()));
      throw e;
    }
    if (await p.locator('.stake-pick').count()) {
      srv = s;
      log(`table seed ${k}: Sam banks first`);
    } else {
      await ctx.close();
      s.proc.kill();
    }
  }
  assert(srv, 'one of 40 table seeds makes Sam the first banker');
  try {
    const summary = await (await p.request.get(`/api/tables/${id}`)).json();
    assert(summary.stake === 2 && summary.stake_max === 8, `the limits: ${summary.stake}–${summary.stake_max}`);
    const options = await p.locator('.stake-pick select[name="stake"] option').allTextContents();
    assert(options.join(' ') === '2 4 6 8', `the even stakes within the limits: ${options}`);
    assert((await p.locator('.hand .card').count()) === 0, 'no card is dealt before the stake');
    await snap(p, 'stake-pick');
    await p.locator('.stake-pick select[name="stake"]').selectOption('6');
    await p.locator('.stake-pick button[data-action="stake"]').click();
    await p.locator('.hand .card').first().waitFor({ timeout: 20000 });
    await playMadiaoHand(p, {});
    await p.locator('.hand-end .hand-stake').waitFor({ timeout: 20000 });
    const text = await p.locator('.hand-end .hand-stake').textContent();
    assert(/Stake: 6 chips/.test(text ?? ''), `the hand's scoring names its stake: ${text}`);
    const stakes = await p.locator('.hand-end .match-score .stakes').textContent();
    assert(/Stakes by hand: .*6/.test(stakes ?? ''), `the match score lists each hand's stake: ${stakes}`);
    await snap(p, 'stake-hand-end');
  } finally {
    await ctx.close();
    srv?.proc.kill();
  }
});
