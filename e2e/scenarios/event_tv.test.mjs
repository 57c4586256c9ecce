// Browser scenarios (headless Chromium against the real yezi binary, a server of this file's own):
// "any live table of an event" on the TV (docs/events.md): an event's page links each live table
// to the TV of that table, delayed by one trick (`--tv-delay-tricks 1`), where nothing hidden
// shows; a player of the event sees no link to a board he has still to play (every table plays
// the same cards). A visitor on a phone in Chinese, the host on a desktop in English.

import { after, before, test } from 'node:test';
import { assert, checkSpectator, claimAccount, closeSuite, enterName, log, openSuite, snap, watchedPage } from '../lib/harness.mjs';

/** @type {any} */
let suite;
before(async () => {
  suite = await openSuite({ named: false, extra: ['--tv-delay-tricks', '1', '--bot-delay-ms', '300'] });
});
after(() => closeSuite(suite));

test("events: a live table of the event on the TV, one trick late, nothing hidden; none of one's own board to come", async () => {
  const { browser, base } = suite;
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 768 }, baseURL: base, locale: 'en-US' });
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, baseURL: base, locale: 'zh-CN', isMobile: true, hasTouch: true });
  try {
    const a = await watchedPage(ctx, 'host');
    await a.goto('/');
    await enterName(a, 'Hana');
    await claimAccount(a, `tv_${Date.now().toString(36)}`);
    await a.locator('header a[data-nav="events"]').click();
    await a.locator('form.new-event input[name="name"]').fill('TV night');
    await a.locator('form.new-event input[name="boards"]').fill('2');
    await a.locator('form.new-event input[name="tables"]').fill('1');
    await a.locator('form.new-event input[name="par"]').fill('1');
    await a.locator('form.new-event button[data-action="create-event"]').click();
    await a.locator('.event-page[data-status="open"]').waitFor({ timeout: 15000 });
    const id = await a.locator('.event-page').getAttribute('data-event');
    log(`event ${id}`);
    // Entering fills it: it begins; the par's table (bots) plays board 1 at once.
    await a.locator('button[data-action="enter-event"]').click();
    await a.locator('.event-you[data-board="0"] a[data-action="play-board"]').waitFor({ timeout: 20000 });

    // A visitor sees a watch link for each live table.
    const v = await watchedPage(phone, 'visitor');
    await v.goto('/');
    await enterName(v, '观众');
    await v.goto(`/events/${id}`);
    const parRow = v.locator('table.event-tables tr[data-table="1"] a[data-watch]');
    await parRow.waitFor({ timeout: 20000 });
    const linkText = await parRow.textContent();
    assert(/观战/.test(linkText ?? ''), `the link is in Chinese: ${linkText}`);
    await snap(v, 'event-tv-links-phone-zh');

    // The player, still to play board 1, sees none for it.
    await a.goto(`/events/${id}`);
    await a.locator('table.event-tables').waitFor({ timeout: 10000 });
    await a.waitForTimeout(2500);
    const mine = await a.locator('table.event-tables a[data-watch]').count();
    const board = await a.locator('.event-you').getAttribute('data-board');
    assert(board === '0' && mine === 0, `a player on board 1 sees no watch link (${mine}, his board ${board})`);
    await snap(a, 'event-no-tv-for-player-desktop-en');

    // The visitor follows the par's table on the TV: one trick late, nothing hidden.
    const watched = await parRow.getAttribute('data-watch');
    await parRow.click();
    await v.waitForURL(new RegExp(`/tv/${watched}`), { timeout: 10000 });
    await v.locator('.banner.watch').waitFor({ timeout: 20000 });
    const delay = await v.locator('.banner.watch').getAttribute('data-tv');
    assert(delay === '1', `the TV is one trick late: ${delay}`);
    await v.locator(`.page.tv[data-tv="${watched}"] .table-page`).waitFor({ timeout: 20000 });
    await v.waitForFunction(() => [...document.querySelectorAll('.felt > .seat')].filter((s) => s.querySelector('.backs-n')).length === 4, null, { timeout: 20000 });
    for (let i = 0; i < 5; i++) {
      await checkSpectator(v, 'madiao');
      await v.waitForTimeout(700);
    }
    const wide = await v.evaluate(() => document.documentElement.scrollWidth);
    assert(wide <= 391, `the TV fits the phone: ${wide}`);
    await snap(v, 'event-tv-phone-zh');
  } finally {
    await ctx.close();
    await phone.close();
  }
});
