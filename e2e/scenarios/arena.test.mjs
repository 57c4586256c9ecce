// Browser scenarios (headless Chromium against the real yezi binary, a server of this file's own):
// an arena (docs/tournaments.md, "Arena") made, joined and played in the pages: two people (desktop
// in English, phone in Chinese) join a one-minute arena, are seated together with bots filling the
// other seats once the arena's wait is over, play their match, and see the live standings, the
// sums of their tables' points. A third person follows the arena's live table from its page's
// "watch" link: the TV of that table, delayed by one trick, nothing hidden.

import { after, before, test } from 'node:test';
import { assert, checkSpectator, closeSuite, enterName, log, openSuite, playMadiaoMatch, snap, watchedPage } from '../lib/harness.mjs';

/** The suite's server, browser and pages (see openSuite). */
let suite;
before(async () => {
  suite = await openSuite({ named: false, extra: ['--tv-delay-tricks', '1', '--bot-delay-ms', '200'] });
});
after(() => closeSuite(suite));

const DESKTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };

/** A new page with its own guest, in `lang`, showing the lobby. */
async function newcomer(name, viewport, lang) {
  const ctx = await suite.browser.newContext({ viewport, baseURL: suite.base, locale: lang === 'zh' ? 'zh-CN' : 'en-US', isMobile: viewport.width < 500, hasTouch: viewport.width < 500 });
  const page = await watchedPage(ctx, name);
  await page.goto('/');
  await enterName(page, name);
  await page.locator('.play-now').waitFor();
  return { ctx, page };
}

/** The arena's state, and each player's points summed from its finished tables, from the API. */
async function standingsAndSums(page, id) {
  const info = await (await page.request.get(`/api/tournaments/${id}`)).json();
  /** @type {Record<string, number>} */
  const sums = {};
  for (const t of info.tables) {
    if (!t.points) continue;
    t.guests.forEach((/** @type {string} */ g, /** @type {number} */ i) => { sums[g] = (sums[g] ?? 0) + t.points[i]; });
  }
  return { info, sums };
}

/** Takes `page` from the arena's page to its table when the arena seats it, and plays the match. */
async function playMyTable(page, id) {
  await page.goto(`/tournaments/${id}`);
  // The arena's wait (20 s) before bots fill the two people's table.
  await page.locator('.tournament-page a.my-table').waitFor({ timeout: 60000 });
  const table = await page.locator('a.my-table').getAttribute('data-table');
  await page.locator('a.my-table').click();
  await page.waitForURL(/\/t\/[A-Za-z0-9]+/, { timeout: 10000 });
  await page.locator('.felt').waitFor({ timeout: 20000 });
  assert(await playMadiaoMatch(page), `the arena's match at ${table} is over`);
  return table;
}

test('arena: two people and bots, a match played, live standings, the TV of its table; both languages, desktop and phone', async () => {
  const host = await newcomer('Han', DESKTOP, 'en');
  const guest = await newcomer('Lin 林', PHONE, 'zh');
  const fan = await newcomer('Fan 范', PHONE, 'zh');
  try {
    await host.page.locator('header a[data-nav="tournaments"]').click();
    await host.page.locator('.new-tournament').waitFor();
    await host.page.locator('.new-tournament button[data-kind="arena"]').click();
    await host.page.locator('.new-tournament button[data-game="madiao"]').click();
    await host.page.locator('.new-tournament input[name="minutes"]').fill('1');
    await host.page.locator('.new-tournament input[name="hands"]').fill('1');
    await snap(host.page, 'arena-new-desktop-en');
    await host.page.locator('button[data-action="create-tournament"]').click();
    await host.page.waitForURL(/\/tournaments\/[A-Za-z0-9]+/, { timeout: 10000 });
    const id = /\/tournaments\/([A-Za-z0-9]+)/.exec(host.page.url())?.[1];
    assert(id, 'the arena has a page');
    log(`arena ${id}`);
    await host.page.locator('button[data-action="join-tournament"]').click();
    await guest.page.goto(`/tournaments/${id}`);
    await guest.page.locator('button[data-action="join-tournament"]').click();
    await host.page.locator('.tournament-page table.standings tbody tr').nth(1).waitFor({ timeout: 10000 });
    const meta = await guest.page.locator('.tour-meta').textContent();
    assert(/竞技场|积分/.test(meta ?? '') || /[\u4e00-\u9fff]/.test(meta ?? ''), `the phone's page is in Chinese: ${meta}`);
    await snap(host.page, 'arena-open-desktop-en');
    await snap(guest.page, 'arena-open-phone-zh');

    // Both play the table the arena seats them at (the two of them and two bots).
    const plays = Promise.all([playMyTable(host.page, id), playMyTable(guest.page, id)]);
    // (A failure below closes the pages: the plays then fail too; the first failure is the one told.)
    plays.catch(() => {});

    // Meanwhile a third person follows the live table from the arena's page: the TV, one trick
    // late, nothing hidden.
    await fan.page.goto(`/tournaments/${id}`);
    const watch = fan.page.locator('.tour-tables a[data-watch]').first();
    await watch.waitFor({ timeout: 60000 });
    const watched = await watch.getAttribute('data-watch');
    await watch.click();
    await fan.page.waitForURL(new RegExp(`/tv/${watched}`), { timeout: 10000 });
    await fan.page.locator('.banner.watch').waitFor({ timeout: 20000 });
    const delay = await fan.page.locator('.banner.watch').getAttribute('data-tv');
    assert(delay === '1', `the TV of the arena's table is one trick late: ${delay}`);
    const banner = await fan.page.locator('.banner.watch').textContent();
    assert(/[\u4e00-\u9fff]/.test(banner ?? ''), `the TV's banner is in Chinese: ${banner}`);
    // Seen a few times while the match goes on.
    await fan.page.locator(`.page.tv[data-tv="${watched}"] .table-page`).waitFor({ timeout: 20000 });
    await fan.page.waitForFunction(() => [...document.querySelectorAll('.felt > .seat')].filter((s) => s.querySelector('.backs-n')).length === 4, null, { timeout: 20000 });
    for (let i = 0; i < 5; i++) {
      await checkSpectator(fan.page, 'madiao');
      await fan.page.waitForTimeout(700);
    }
    await snap(fan.page, 'arena-tv-phone-zh');

    const [hostTable, guestTable] = await plays;
    assert(hostTable === guestTable, `the two sat together: ${hostTable} / ${guestTable}`);
    assert(hostTable === watched, `the watched table is theirs: ${watched}`);

    // The standings are live: after the match, each one's points are the sums of his tables'.
    await host.page.goto(`/tournaments/${id}`);
    await host.page.locator('.tour-tables li[data-over="1"]').first().waitFor({ timeout: 30000 });
    const { info, sums } = await standingsAndSums(host.page, id);
    assert(info.kind === 'arena', 'an arena');
    assert(info.standings.length === 2, `two players in the standings: ${JSON.stringify(info.standings)}`);
    const first = info.tables.find((/** @type {any} */ t) => t.table === hostTable);
    assert(first && first.guests.length === 2 && first.bots === 2, `the two people and two bots: ${JSON.stringify(first)}`);
    for (const s of info.standings) {
      assert(s.matches >= 1, `${s.name} played ${s.matches} matches`);
      assert(Math.abs(s.points - (sums[s.guest] ?? 0)) < 1e-9, `${s.name}: ${s.points} points, the tables say ${sums[s.guest]}`);
    }
    assert(info.standings[0].points >= info.standings[1].points, 'the standings are sorted');
    // The page shows them as the API does.
    const shown = await host.page.locator('.tournament-page table.standings tbody tr').evaluateAll(
      (rows) => rows.map((r) => Number(r.getAttribute('data-points'))),
    );
    const want = info.standings.map((/** @type {any} */ s) => s.points);
    await host.page.waitForFunction(
      (w) => JSON.stringify([...document.querySelectorAll('.tournament-page table.standings tbody tr')].map((r) => Number(r.getAttribute('data-points')))) === JSON.stringify(w),
      want,
      { timeout: 10000 },
    ).catch(() => assert(false, `the page's standings ${JSON.stringify(shown)} are the API's ${JSON.stringify(want)}`));
    await snap(host.page, 'arena-standings-desktop-en');
    await guest.page.goto(`/tournaments/${id}`);
    await guest.page.locator('.tournament-page table.standings tbody tr').nth(1).waitFor({ timeout: 10000 });
    await snap(guest.page, 'arena-standings-phone-zh');
    // The phone's page fits its width.
    const wide = await guest.page.evaluate(() => document.documentElement.scrollWidth);
    assert(wide <= 390 + 1, `the phone's arena page fits 390 px: ${wide}`);
  } finally {
    await host.ctx.close();
    await guest.ctx.close();
    await fan.ctx.close();
  }
});
