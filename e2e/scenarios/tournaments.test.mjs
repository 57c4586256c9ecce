// Browser scenarios (headless Chromium against the real yezi binary, a server of this file's own):
// quick pairing ("play now", docs/tournaments.md): four people who press Play now are seated at
// one table, on desktop and phone, in both languages; a player alone waits, sees the countdown,
// and gets bots when it runs out. A swiss of two rounds made and played in the browser: the pages
// pair the rounds, take each player to his table, and show the standings after each round.

import { after, before, test } from 'node:test';
import { assert, enterName, log, closeSuite, openSuite, playMadiaoMatch, snap, watchedPage } from '../lib/harness.mjs';

/** The suite's server, browser and pages (see openSuite). */
let suite;
before(async () => {
  suite = await openSuite({ named: false });
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

/** Presses Play now for `game`, accepting bots after `wait` seconds. */
async function playNow(page, game, wait) {
  await page.locator(`.play-now .play-games button[data-game="${game}"]`).click();
  await page.locator('.play-now select[name="play-wait"]').selectOption(String(wait));
  await page.locator('.play-now button[data-action="play-now"]').click();
}

test('play now: four people are seated together at one table, desktop and phone, English and Chinese', async () => {
  const people = [
    await newcomer('Ann', DESKTOP, 'en'),
    await newcomer('Bo 波', PHONE, 'zh'),
    await newcomer('Cy', DESKTOP, 'zh'),
    await newcomer('Di', PHONE, 'en'),
  ];
  try {
    // Three wait: each sees the queue grow and the countdown to the bots (two minutes away).
    for (const [i, { page }] of people.slice(0, 3).entries()) {
      await playNow(page, 'dabaifen', 120);
      await page.locator('.play-now[data-state="waiting"]').waitFor({ timeout: 10000 });
      await page.waitForFunction((n) => Number(document.querySelector('.play-count')?.getAttribute('data-waiting')) >= n, i + 1, { timeout: 10000 });
    }
    const left = Number(await people[0].page.locator('.play-countdown').getAttribute('data-left'));
    assert(left > 60 && left <= 120, `the countdown shows ${left} s of 120`);
    const zhText = await people[1].page.locator('.play-countdown').textContent();
    assert(/秒后由机器人补满/.test(zhText ?? ''), `the phone's countdown is in Chinese: ${zhText}`);
    await snap(people[0].page, 'play-now-waiting-desktop-en');
    await snap(people[1].page, 'play-now-waiting-phone-zh');
    // The fourth makes a table of four people: everyone is taken to it.
    await playNow(people[3].page, 'dabaifen', 120);
    const ids = [];
    for (const { page } of people) {
      await page.waitForURL(/\/t\/[A-Za-z0-9]+/, { timeout: 15000 });
      ids.push(/\/t\/([A-Za-z0-9]+)/.exec(page.url())?.[1]);
    }
    assert(ids.every((id) => id === ids[0]), `everyone at one table: ${ids.join(', ')}`);
    log(`play-now table ${ids[0]}`);
    const summary = await (await people[0].page.request.get(`/api/tables/${ids[0]}`)).json();
    const names = summary.seats.map((/** @type {any} */ s) => s.name).sort();
    assert(JSON.stringify(names) === JSON.stringify(['Ann', 'Bo 波', 'Cy', 'Di']), `the four are seated: ${names}`);
    assert(summary.seats.every((/** @type {any} */ s) => s.kind === 'person'), `no bot at a table of four people: ${JSON.stringify(summary.seats)}`);
    for (const { page } of people) await page.locator('.table-page').waitFor({ timeout: 15000 });
    await people[1].page.locator('.felt').waitFor({ timeout: 20000 });
    await snap(people[1].page, 'play-now-table-phone-zh');
    await snap(people[0].page, 'play-now-table-desktop-en');
  } finally {
    for (const { ctx } of people) await ctx.close();
  }
});

test('play now: a player alone watches the countdown, then plays with bots', async () => {
  const { ctx, page } = await newcomer('Eve', DESKTOP, 'en');
  try {
    await playNow(page, 'madiao', 10);
    await page.locator('.play-now[data-state="waiting"]').waitFor({ timeout: 10000 });
    const first = Number(await page.locator('.play-countdown').getAttribute('data-left'));
    await page.waitForTimeout(2500);
    const later = Number(await page.locator('.play-countdown').getAttribute('data-left'));
    assert(first <= 10 && later < first, `the countdown runs: ${first} then ${later}`);
    const status = await page.evaluate(async () => {
      const id = JSON.parse(localStorage.getItem('yezi.guest') ?? 'null');
      return id ? (await fetch('/api/play-now/madiao', { headers: { Authorization: `Bearer ${id.token}` } })).json() : null;
    });
    assert(status && status.state === 'waiting' && status.bots_ms - status.since_ms === 10000, `the API: ${JSON.stringify(status)}`);
    await snap(page, 'play-now-countdown');
    await page.waitForURL(/\/t\/[A-Za-z0-9]+/, { timeout: 20000 });
    const id = /\/t\/([A-Za-z0-9]+)/.exec(page.url())?.[1];
    const summary = await (await page.request.get(`/api/tables/${id}`)).json();
    const seats = summary.seats;
    assert(seats[0].kind === 'person' && seats[0].name === 'Eve', `Eve in seat 1: ${JSON.stringify(seats)}`);
    assert(seats.slice(1).every((/** @type {any} */ s) => s.kind === 'bot' && s.bot === seats[1].bot && s.bot !== 'random'), `three bots of one kind: ${JSON.stringify(seats)}`);
    await page.locator('.felt').waitFor({ timeout: 20000 });
    await snap(page, 'play-now-bots');
  } finally {
    await ctx.close();
  }
});

/** Takes `page` from its tournament's page to its table of round `round`, and plays its match there. */
async function playRound(page, id, round) {
  await page.goto(`/tournaments/${id}`);
  await page.locator(`.tournament-page[data-round="${round}"] a.my-table`).waitFor({ timeout: 20000 });
  await page.locator('a.my-table').click();
  await page.waitForURL(/\/t\/[A-Za-z0-9]+/, { timeout: 10000 });
  await page.locator('.felt').waitFor({ timeout: 20000 });
  assert(await playMadiaoMatch(page), `round ${round}: the match is over`);
}

/** The tournament's standings, and each player's points summed from its tables, from the API. */
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

test('swiss: two players over two rounds, paired, seated, scored, in both languages', async () => {
  const host = await newcomer('Han', DESKTOP, 'en');
  const guest = await newcomer('Lin 林', PHONE, 'zh');
  try {
    await host.page.locator('header a[data-nav="tournaments"]').click();
    await host.page.locator('.new-tournament').waitFor();
    await host.page.locator('.new-tournament button[data-kind="swiss"]').click();
    await host.page.locator('.new-tournament button[data-game="madiao"]').click();
    await host.page.locator('.new-tournament input[name="rounds"]').fill('2');
    await host.page.locator('.new-tournament input[name="hands"]').fill('1');
    // A guest without an account cannot make it rated; a swiss has its round's deadline.
    assert(await host.page.locator('.new-tournament input[name="rated"]').isDisabled(), 'rated needs an account');
    await host.page.locator('.new-tournament input[name="deadline_seconds"]').fill('60');
    await host.page.locator('button[data-action="create-tournament"]').click();
    await host.page.waitForURL(/\/tournaments\/[A-Za-z0-9]+/, { timeout: 10000 });
    const id = /\/tournaments\/([A-Za-z0-9]+)/.exec(host.page.url())?.[1];
    log(`swiss ${id}`);
    await host.page.locator('button[data-action="join-tournament"]').click();
    await guest.page.goto(`/tournaments/${id}`);
    await guest.page.locator('button[data-action="join-tournament"]').click();
    await host.page.locator('.tournament-page table.standings tbody tr').nth(1).waitFor({ timeout: 10000 });
    await snap(host.page, 'swiss-open-desktop-en');
    await host.page.locator('button[data-action="start-tournament"]').click();
    await host.page.locator('.tournament-page[data-round="1"]').waitFor({ timeout: 10000 });
    // The round's deadline is shown while it plays (60 s from its pairing).
    const deadline = Number(await host.page.locator('.tour-deadline').getAttribute('data-deadline'));
    assert(deadline > Date.now() && deadline <= Date.now() + 61000, `the round's deadline: ${deadline}`);
    for (const round of [1, 2]) {
      await Promise.all([playRound(host.page, id, round), playRound(guest.page, id, round)]);
      // The round's table is scored: both players' points are the sums of their tables.
      await host.page.goto(`/tournaments/${id}`);
      await host.page.waitForFunction(
        (r) => document.querySelectorAll(`.tour-tables li[data-over="1"]`).length >= r,
        round,
        { timeout: 20000 },
      );
      const { info, sums } = await standingsAndSums(host.page, id);
      assert(info.standings.length === 2, `two players in the standings: ${JSON.stringify(info.standings)}`);
      for (const s of info.standings) {
        assert(s.matches === round, `${s.name} played ${s.matches} matches after round ${round}`);
        assert(Math.abs(s.points - (sums[s.guest] ?? 0)) < 1e-9, `${s.name}: ${s.points} points, the tables say ${sums[s.guest]}`);
      }
      assert(info.standings[0].points >= info.standings[1].points, 'the standings are sorted');
      assert(info.tables.filter((/** @type {any} */ t) => t.round === round).every((/** @type {any} */ t) => t.guests.length === 2 && t.bots === 2), 'round tables: the two players and two bots');
    }
    await host.page.locator('.tournament-page[data-status="finished"]').waitFor({ timeout: 20000 });
    await guest.page.goto(`/tournaments/${id}`);
    await guest.page.locator('.tournament-page[data-status="finished"]').waitFor({ timeout: 20000 });
    const zh = await guest.page.locator('.tour-meta').textContent();
    assert(/已结束/.test(zh ?? ''), `the phone's page is in Chinese: ${zh}`);
    await snap(host.page, 'swiss-finished-desktop-en');
    await snap(guest.page, 'swiss-finished-phone-zh');
    // The phone's page fits: nothing scrolls sideways, neither the page nor a box in it.
    const wide = await guest.page.evaluate(() => [document.documentElement, ...document.querySelectorAll('main *')]
      .filter((e) => e.scrollWidth > e.clientWidth + 1 && (e === document.documentElement || ['auto', 'scroll'].includes(getComputedStyle(e).overflowX)))
      .map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].join('.')}: ${e.scrollWidth} > ${e.clientWidth}`));
    assert(wide.length === 0, `the swiss on a phone scrolls sideways: ${wide.join('; ')}`);
  } finally {
    await host.ctx.close();
    await guest.ctx.close();
  }
});
