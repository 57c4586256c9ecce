// Browser scenarios (headless Chromium against the real yezi binary, a server of this file's own):
// ratings: an account plays a rated match with bots, finds its rating on its profile and the
// leaderboard, and on another browser finds the match in its games, its replay, and its archive
// replayed by yezi replay.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { assert, bin, claimAccount, closeSuite, createTable, enterName, log, openSuite, playMadiaoMatch, snap, watchedPage } from '../lib/harness.mjs';

/** The suite's server, browser and pages (see openSuite). */
let suite;
let browser, desktop, page, player;
before(async () => {
  suite = await openSuite({ named: true });
  ({ browser, desktop, page, player } = suite);
});
after(() => closeSuite(suite));

test('ratings: an account plays a rated match with bots, finds its rating on its profile and the leaderboard, and on another browser finds the match in its games, its replay, and its archive replayed by yezi replay', async () => {
  const ctx = await browser.newContext(desktop);
  const a = await watchedPage(ctx, 'rated');
  const user = `rated_${Date.now().toString(36)}`;
  try {
    await a.goto('/');
    await enterName(a, 'Rui 瑞');
    await a.locator('.new-table').waitFor();
    // A guest cannot choose a rated table: the box is disabled, and says why.
    assert(await a.locator('input[name="rated"]').isDisabled(), 'a guest may tick Rated');
    assert((await a.locator('.rated-hint').getAttribute('data-rated-hint')) === 'account', 'no explanation for the guest');
    await claimAccount(a, user);
    await a.goto('/');
    await a.locator('.new-table').waitFor();
    const id = await createTable(a, 'madiao', { variants: { game_length: 'hands:4' }, name: 'Rated one', rated: true });
    log(`rated table ${id}`);
    await a.locator('.table-page .rated-mark').waitFor({ timeout: 15000 });
    await a.locator('.felt').waitFor({ timeout: 20000 });
    assert(await playMadiaoMatch(a), 'the rated match is over');
    // The profile: one rated match, a rating, a chart of two points, the match among the recent.
    await a.locator('header a[data-nav="account"]').click();
    await a.locator('a.my-profile').click();
    await a.locator(`.profile-page[data-player="${user}"]`).waitFor({ timeout: 15000 });
    const rating = await a.locator('.game-rating[data-game="madiao"] .rating').getAttribute('data-rating');
    const api = await (await a.request.get(`/api/players/${user}`)).json();
    assert(api.ratings.length === 1 && api.ratings[0].games === 1, `the profile's ratings: ${JSON.stringify(api.ratings)}`);
    assert(Number(rating) === Math.round(api.ratings[0].rating), `the page shows ${rating}, the API ${api.ratings[0].rating}`);
    assert(Number(rating) !== 1500, 'the rating did not change');
    assert((await a.locator('.rating-chart[data-game="madiao"]').getAttribute('data-points')) === '2', 'the chart has not 2 points');
    await a.locator(`.recent-rated li[data-table="${id}"]`).waitFor({ timeout: 5000 });
    await snap(a, 'profile');
    // The leaderboard lists the account, linking to its profile.
    await a.locator('header a[data-nav="ratings"]').click();
    const row = a.locator(`table.leaderboard tr[data-player="${user}"]`);
    await row.waitFor({ timeout: 15000 });
    assert((await row.locator('td.rating').textContent()).startsWith(rating), 'the leaderboard shows another rating');
    await snap(a, 'leaderboard');
    await row.locator('a.player-link').click();
    await a.locator(`.profile-page[data-player="${user}"]`).waitFor({ timeout: 15000 });
    // In Chinese too.
    await a.locator('button[data-action="lang"]').click();
    await a.locator('.recent-rated h2', { hasText: '最近的排位对局' }).waitFor({ timeout: 5000 });
    await a.locator('button[data-action="lang"]').click();
    // Another browser signs in as the same account and finds the match in its games (the
    // rated filter keeps it), and opens its replay.
    const other = await browser.newContext(desktop);
    try {
      const b = await watchedPage(other, 'rated-elsewhere');
      await b.goto('/');
      await b.locator('a.sign-in-link').click();
      await b.locator('form.sign-in input[name="username"]').fill(user);
      await b.locator('form.sign-in input[name="password"]').fill('a long enough password');
      await b.locator('form.sign-in button[data-action="sign-in"]').click();
      await b.locator('header .account-name').waitFor({ timeout: 15000 });
      await b.locator('header a[data-nav="account"]').click();
      const mine = b.locator(`.my-games li[data-game="${id}"][data-rated="1"]`);
      await mine.waitFor({ timeout: 15000 });
      await b.locator('.games-filter select[name="rated"]').selectOption('false');
      await b.locator('button[data-action="filter-games"]').click();
      await mine.waitFor({ state: 'detached', timeout: 15000 });
      await b.locator('.games-filter select[name="rated"]').selectOption('true');
      await b.locator('button[data-action="filter-games"]').click();
      await mine.waitFor({ timeout: 15000 });
      await snap(b, 'rated-my-games');
      await mine.locator('[data-action="replay"]').click();
      await b.waitForURL(`**/replay/${id}`, { timeout: 15000 });
      await b.locator('.replay-body').waitFor({ timeout: 15000 });
      // The player's games downloaded from the archive, replayed by `yezi replay`.
      const bulk = await b.request.get(`/api/archive/player/${encodeURIComponent('Rui 瑞')}`);
      assert(bulk.ok() && bulk.headers()['content-type'] === 'application/gzip', `the player's archive downloads: ${bulk.status()}`);
      const gz = join(mkdtempSync(join(tmpdir(), 'yezi-rated-')), 'rui.jsonl.gz');
      writeFileSync(gz, await bulk.body());
      const out = execFileSync(bin, ['replay', gz]).toString();
      assert(out.includes('1 record(s), 1 replayed cleanly'), `yezi replay of the archive: ${out.slice(-200)}`);
    } finally {
      await other.close();
    }
  } finally {
    await ctx.close();
  }
});
