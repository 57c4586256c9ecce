// A duplicate event as its host and its one person meet it in the browser (docs/events.md): made
// from the events page's form, entered, each board played from the event page's "Play it", and
// the finished page with its travellers, standings and records, on a desktop and on a phone. The
// Madiao and the Da Bai Fen event scenarios share these steps.

import { assert, log, snap, watchedPage } from './harness.mjs';
import { noHorizontalOverflow, noSidewaysScroll } from './tables.mjs';

/**
 * Makes an event of `boards` boards, one table of people and one of the expert bots (the par),
 * from the events page that `a` (a host with an account) opens from the menu; its screenshot is
 * `${shot}-new-desktop-en`. Returns the event's id.
 * @param {import('playwright-core').Page} a
 * @param {{name: string, game: 'madiao' | 'dabaifen', boards: number, shot: string}} o
 */
export async function makeEvent(a, o) {
  await a.locator('header a[data-nav="events"]').click();
  await a.locator('.events-page [data-empty]').waitFor({ timeout: 15000 });
  await a.locator('form.new-event input[name="name"]').fill(o.name);
  if (o.game !== 'madiao') {
    await a.locator('form.new-event select[name="game"]').selectOption(o.game);
    await a.locator(`form.new-event p.hint[data-hint="${o.game}"]`).waitFor({ timeout: 5000 });
  }
  await a.locator('form.new-event input[name="boards"]').fill(String(o.boards));
  await a.locator('form.new-event input[name="tables"]').fill('1');
  await a.locator('form.new-event input[name="par"]').fill('1');
  await snap(a, `${o.shot}-new-desktop-en`);
  await a.locator('form.new-event button[data-action="create-event"]').click();
  await a.locator(`.event-page[data-status="open"][data-game="${o.game}"]`).waitFor({ timeout: 15000 });
  const id = await a.locator('.event-page').getAttribute('data-event');
  assert(id, 'the event page names its event');
  log(`event ${id}`);
  return id;
}

/**
 * Enters the event `id` (its one seat for people: it begins) and plays each of its `boards`
 * boards from the event page's "Play it" with `play`; `playing(board)` runs while the board waits
 * at its table, before it is played.
 * @param {import('playwright-core').Page} a @param {string} id @param {number} boards
 * @param {(p: import('playwright-core').Page) => Promise<unknown>} play
 * @param {(board: number) => Promise<void>} playing
 */
export async function playBoards(a, id, boards, play, playing) {
  await a.locator('button[data-action="enter-event"]').click();
  for (let board = 0; board < boards; board += 1) {
    await a.locator(`.event-you[data-board="${board}"] a[data-action="play-board"]`).waitFor({ timeout: 20000 });
    await playing(board);
    await a.locator('a[data-action="play-board"]').click();
    await a.locator('.felt').waitFor({ timeout: 20000 });
    await play(a);
    await a.goto(`/events/${id}`);
  }
}

/**
 * The finished event `id` on `a`'s page and through the API: a traveller per board, each with the
 * person's table and the par's; every seat of both tables in the standings, `player`'s with a
 * matchpoint percentage; two complete lines per board in the API, and one record per table and
 * board. Returns the event and its records as the API gives them.
 * @param {import('playwright-core').Page} a @param {string} id @param {number} boards @param {string} player
 */
export async function checkFinished(a, id, boards, player) {
  await a.locator('.event-page[data-status="finished"]').waitFor({ timeout: 60000 });
  assert((await a.locator('.traveller').count()) === boards, 'a travelling score sheet per board');
  for (let board = 0; board < boards; board += 1) {
    const lines = await a.locator(`.traveller[data-board="${board}"] tbody tr`).count();
    assert(lines === 2, `board ${board}: the person's table and the par's (${lines} lines)`);
  }
  assert((await a.locator('.event-standings tbody tr').count()) === 8, 'every seat of both tables in the standings');
  assert(await a.locator(`.event-standings tr[data-standing="${player}"]`).isVisible(), 'the player in the standings');
  const score = await a.locator(`.event-standings tr[data-standing="${player}"] td.score`).textContent();
  assert(/%$/.test(score ?? ''), `a matchpoint percentage: ${score}`);
  const ev = await (await a.request.get(`/api/events/${id}`)).json();
  assert(ev.travellers.every((/** @type {any} */ t) => t.complete && t.lines.length === 2), 'the API has both tables on each board');
  /** @type {any[]} */
  const records = await (await a.request.get(`/api/events/${id}/records`)).json();
  assert(records.length === 2 * boards, `${2 * boards} records (${records.length})`);
  for (let board = 0; board < boards; board += 1) {
    const decks = records.filter((r) => r.event.board === board).map((r) => JSON.stringify(r.hands[0].deck));
    assert(decks.length === 2 && decks[0] === decks[1], `board ${board}: the same deck at both tables`);
  }
  return { ev, records };
}

/**
 * The finished page in Chinese too (`${shot}-finished-desktop-{en,zh}`, no wider than the window), and on a phone in Chinese
 * with no name: the event, titled in Chinese, and the events list, nothing scrolling sideways;
 * `onPhone` adds the game's own checks of the phone's event page.
 * @param {import('playwright-core').Browser} browser @param {string} base
 * @param {import('playwright-core').Page} a @param {string} id @param {string} shot
 * @param {(p: import('playwright-core').Page) => Promise<void>} [onPhone]
 */
export async function checkPages(browser, base, a, id, shot, onPhone) {
  await snap(a, `${shot}-finished-desktop-en`);
  await a.locator('button[data-action="lang"]').click();
  await a.locator('h2', { hasText: '排名' }).waitFor({ timeout: 5000 });
  await snap(a, `${shot}-finished-desktop-zh`);
  await noHorizontalOverflow(a, 'the event page on a desktop');

  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, baseURL: base, locale: 'zh-CN', isMobile: true, hasTouch: true });
  const p = await watchedPage(phone, 'phone');
  await p.goto(`/events/${id}`);
  await p.locator('.event-page[data-status="finished"]').waitFor({ timeout: 15000 });
  assert((await p.locator('h2', { hasText: '成绩单' }).count()) === 1, 'the travellers titled in Chinese');
  if (onPhone) await onPhone(p);
  await noSidewaysScroll(p, 'the event page on a phone');
  await snap(p, `${shot}-finished-phone-zh`);
  await p.goto('/events');
  await p.locator(`.events-page tr[data-event="${id}"]`).waitFor({ timeout: 15000 });
  await noSidewaysScroll(p, 'the events list on a phone');
  await snap(p, `${shot}-list-phone-zh`);
  await phone.close();
}
