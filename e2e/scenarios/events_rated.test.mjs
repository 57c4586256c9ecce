// Browser scenarios (headless Chromium against the real yezi binary, a server of this file's own):
// a rated duplicate event (docs/events.md, "Rated events"): a host with an account makes one from
// the events page with the "rated" choice (one table of one person, two tables of the expert
// bots: the par, one board), enters and plays it, and when it is over the event page shows his
// rating change in the standings — the one his profile's rating history has. Desktop (1366×768)
// and phones (390×844 in English, 360×740 in Chinese): on a phone neither the page nor a list in it
// scrolls sideways.

import { after, before, test } from 'node:test';
import { assert, claimAccount, closeSuite, enterName, log, openSuite, playMadiaoHand, snap, watchedPage } from '../lib/harness.mjs';
import { noHorizontalOverflow, noSidewaysScroll } from '../lib/tables.mjs';

/** @type {any} */
let suite;
before(async () => {
  suite = await openSuite({ named: false });
});
after(() => closeSuite(suite));

test('events: a rated event made from the form moves the player\'s rating once it is over, shown on the event page and in his profile, on a desktop and a phone, in both languages', async () => {
  const { browser, base } = suite;
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 768 }, baseURL: base, locale: 'en-US' });
  const a = await watchedPage(ctx, 'host');
  const user = `rh_${Date.now().toString(36)}`;
  await a.goto('/');
  await enterName(a, 'Rina');
  await claimAccount(a, user);

  await a.locator('header a[data-nav="events"]').click();
  await a.locator('form.new-event').waitFor({ timeout: 15000 });
  await a.locator('form.new-event input[name="name"]').fill('Rated night');
  await a.locator('form.new-event input[name="boards"]').fill('1');
  await a.locator('form.new-event input[name="tables"]').fill('1');
  await a.locator('form.new-event input[name="par"]').fill('2');
  await a.locator('form.new-event input[name="rated"]').check();
  await snap(a, 'events-rated-new-desktop-en');
  await a.locator('form.new-event button[data-action="create-event"]').click();
  await a.locator('.event-page[data-status="open"]').waitFor({ timeout: 15000 });
  assert(await a.locator('.event-page .rated-note[data-rated]').isVisible(), 'the page says the event is rated');
  const id = await a.locator('.event-page').getAttribute('data-event');
  log(`rated event ${id}`);
  const created = await (await a.request.get(`/api/events/${id}`)).json();
  assert(created.rated === true, 'the API says rated');

  await a.locator('button[data-action="enter-event"]').click();
  await a.locator('.event-you[data-board="0"] a[data-action="play-board"]').waitFor({ timeout: 20000 });
  await a.locator('a[data-action="play-board"]').click();
  await a.locator('.felt').waitFor({ timeout: 20000 });
  await playMadiaoHand(a, {});
  await a.goto(`/events/${id}`);
  await a.locator('.event-page[data-status="finished"]').waitFor({ timeout: 60000 });

  // The change on the page is the one in the API and in the profile's history.
  const cell = a.locator('.event-standings tr[data-standing="Rina"] td.rating-change [data-rating-change]');
  await cell.waitFor({ timeout: 15000 });
  const shown = Number(await cell.getAttribute('data-rating-change'));
  const ev = await (await a.request.get(`/api/events/${id}`)).json();
  const mine = ev.standings.find((/** @type {any} */ s) => s.name === 'Rina');
  assert(mine && mine.rating_before === 1500 && typeof mine.rating_after === 'number', `a rating change in the standings: ${JSON.stringify(mine)}`);
  assert(shown === Math.round(mine.rating_after) - Math.round(mine.rating_before), `the page shows the change (${shown})`);
  assert(shown !== 0, 'two games against the par move a new rating');
  assert(ev.standings.filter((/** @type {any} */ s) => s.bot).every((/** @type {any} */ s) => s.rating_after === undefined), 'bots carry no change');
  const profile = await (await a.request.get(`/api/players/${user}`)).json();
  assert(profile.history.length === 1 && Math.abs(profile.history[0].rating_after - mine.rating_after) < 1e-9, `one rated result in the profile: ${JSON.stringify(profile.history)}`);
  assert(profile.history[0].opponents === 2, 'compared with the two par tables');
  await snap(a, 'events-rated-finished-desktop-en');
  await noHorizontalOverflow(a, 'the rated event page on a desktop');
  await a.locator('button[data-action="lang"]').click();
  await a.locator('.event-standings th', { hasText: '等级分' }).waitFor({ timeout: 5000 });
  assert((await a.locator('.rated-note', { hasText: '计入等级分' }).count()) === 1, 'the rated note in Chinese');
  await snap(a, 'events-rated-finished-desktop-zh');

  // The profile page lists the event's result like any rated one.
  await a.goto(`/players/${user}`);
  await a.locator('body', { hasText: String(Math.round(mine.rating_after)) }).waitFor({ timeout: 15000 });

  // A phone in English: the change shows and fits.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, baseURL: base, locale: 'en-US', isMobile: true, hasTouch: true });
  const p = await watchedPage(phone, 'phone');
  await p.goto(`/events/${id}`);
  await p.locator('.event-page[data-status="finished"]').waitFor({ timeout: 15000 });
  const onPhone = p.locator('.event-standings tr[data-standing="Rina"] [data-rating-change]');
  await onPhone.waitFor({ timeout: 15000 });
  assert(Number(await onPhone.getAttribute('data-rating-change')) === shown, 'the same change on the phone');
  await noSidewaysScroll(p, 'the rated event page on a phone');
  await snap(p, 'events-rated-finished-phone-en');
  await phone.close();
  // A smaller Chinese phone (the browser's language picks the page's).
  const zhPhone = await browser.newContext({ viewport: { width: 360, height: 740 }, baseURL: base, locale: 'zh-CN', isMobile: true, hasTouch: true });
  const z = await watchedPage(zhPhone, 'phone-zh');
  await z.goto(`/events/${id}`);
  await z.locator('.event-standings th', { hasText: '等级分' }).waitFor({ timeout: 15000 });
  const onZh = z.locator('.event-standings tr[data-standing="Rina"] [data-rating-change]');
  assert(Number(await onZh.getAttribute('data-rating-change')) === shown, 'the same change on the Chinese phone');
  await noSidewaysScroll(z, 'the rated event page on a phone, in Chinese');
  // Narrow as the standings are there, no number is broken over two lines ("1" above "0").
  const broken = await z.evaluate(() => [...document.querySelectorAll('.event-standings tbody td:is(:first-child, :nth-child(3), :nth-child(4), .score)')]
    .filter((td) => { const r = document.createRange(); r.selectNodeContents(td); return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size > 1; })
    .map((td) => JSON.stringify(td.textContent)));
  assert(broken.length === 0, `numbers broken over two lines in the standings: ${broken.join(', ')}`);
  await snap(z, 'events-rated-finished-phone-zh');
  await z.goto('/events');
  await z.locator(`.events-page tr[data-event="${id}"] [data-rated]`).waitFor({ timeout: 15000 });
  await noSidewaysScroll(z, 'the events list with a rated event on a phone, in Chinese');
  await snap(z, 'events-rated-list-phone-zh');
  await zhPhone.close();
  await ctx.close();
});
