// Browser scenarios (headless Chromium against the real yezi binary, a server of this file's own):
// friend notices on every page, not only on Friends (docs/web.md, "Friends"; web/js/friend_notices.js).
// Bob, in the lobby (desktop, English), sees his friend Ann come online and her challenge, and
// accepts it there; Ann, on the puzzles page of her phone (Chinese), sees his answer and goes to
// the table. Then Bob plays at a table of bots, on the phone in Chinese and on the desktop in
// English: a challenge shows in the tray without moving a card of the table or covering one, and
// he declines it there. Every notice must come within 5 s (the socket, not a poll).

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { assert, closeSuite, launchBrowser, log, sleep, snap, startServer, watchedPage } from '../lib/harness.mjs';

const LIVE = 5000;

let suite;
before(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'yezi-e2e-notices-everywhere-'));
  const { proc, base } = await startServer(dir);
  log(`yezi serve at ${base}`);
  const browser = await launchBrowser();
  suite = { dir, proc, base, browser };
});
after(() => closeSuite(suite));

/** `method path` with a JSON body and a token; the JSON answer. */
async function api(method, path, body, token) {
  const res = await fetch(`${suite.base}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  assert(res.ok, `${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** A guest who claims an account: the identity the browser keeps for it. */
async function account(name, username) {
  const g = await api('POST', '/api/guests', { name });
  const s = await api('POST', '/api/account', { username, password: 'correct horse battery' }, g.token);
  return { id: s.id, name: s.name, token: s.token, username: s.username };
}

/** A context whose pages are signed in as `identity`, in `lang`. */
async function contextOf(options, identity, lang) {
  const ctx = await suite.browser.newContext({ baseURL: suite.base, ...options });
  await ctx.addInitScript(([id, l]) => {
    localStorage.setItem('yezi.guest', JSON.stringify(id));
    localStorage.setItem('yezi.lang', JSON.stringify(l));
  }, [identity, lang]);
  return ctx;
}

const desktop = { viewport: { width: 1366, height: 768 }, locale: 'en-US' };
const phone = { viewport: { width: 390, height: 844 }, locale: 'zh-CN', isMobile: true, hasTouch: true };

/** Waits until `who` (followed by `asker`) is online, as the server says. */
async function online(asker, who) {
  const deadline = Date.now() + 15000;
  while (Date.now() < deadline) {
    const r = await api('GET', '/api/friends', undefined, asker.token);
    if (r.friends.some((f) => f.username === who && f.online)) return;
    await sleep(200);
  }
  assert(false, `${who} comes online`);
}

/** The page fits its viewport's width. */
async function fits(page, what) {
  const w = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  assert(w.scroll <= w.client, `${what}: ${w.scroll}px wide in ${w.client}px`);
}

/** The boxes of the table's cards (the hand and the trick), each by its card. */
function cardBoxes(page) {
  return page.evaluate(() => [...document.querySelectorAll('.hand .card, .trick .card')].map((c) => {
    const r = c.getBoundingClientRect();
    return { card: c.getAttribute('data-card'), x: r.x, y: r.y, w: r.width, h: r.height };
  }));
}

const CJK = /[\u4e00-\u9fff]/;

test('a friend’s notices and challenge on any page: the lobby, the puzzles, a table in play', async () => {
  const ann = await account('Ann', 'ann');
  const bob = await account('Bob', 'bob');
  await api('PUT', '/api/friends/bob', undefined, ann.token);
  await api('PUT', '/api/friends/ann', undefined, bob.token);
  const bobCtx = await contextOf(desktop, bob, 'en');
  const annCtx = await contextOf(phone, ann, 'zh');
  try {
    // Bob in the lobby: his tray's socket makes him online.
    const b = await watchedPage(bobCtx, 'bob');
    await b.goto('/');
    await b.locator('.page.lobby').waitFor({ timeout: 15000 });
    await online(ann, 'bob');
    // Ann opens the puzzles on her phone: Bob sees her come online, in his lobby.
    const a = await watchedPage(annCtx, 'ann');
    await a.goto('/puzzles');
    await a.locator('.puzzles-page').waitFor({ timeout: 15000 });
    const seen = b.locator('.friend-notices [data-notice="friend"][data-friend="ann"]');
    await seen.waitFor({ timeout: LIVE });
    assert(/ann is online/.test(await seen.textContent()), `Bob is told: ${await seen.textContent()}`);
    await snap(b, 'notices-everywhere-lobby-en-online');

    // She challenges him (as the Friends page would): the challenge shows in his lobby.
    const c1 = await api('POST', '/api/challenges', { username: 'bob', game: 'madiao' }, ann.token);
    const ch = b.locator(`.friend-notices [data-notice="challenge"][data-challenge="${c1.id}"]`);
    await ch.waitFor({ timeout: LIVE });
    const chText = await ch.textContent();
    assert(/ann challenges you to a table of Madiao/.test(chText), `the challenge says who and what: ${chText}`);
    await snap(b, 'notices-everywhere-lobby-en-challenged');
    await fits(b, 'the lobby with the challenge');
    await ch.locator('button[data-action="accept"]').click();
    await b.locator('.table-page').waitFor({ timeout: 15000 });
    const table = await b.evaluate(() => document.querySelector('.table-page')?.getAttribute('data-table'));
    assert(table, 'Bob is at the table made for the challenge');
    assert(await b.locator(`.friend-notices [data-challenge="${c1.id}"]`).count() === 0, 'the answered challenge left the tray');

    // Ann, on the puzzles page of her phone, in Chinese: his answer, and the way to the table.
    const answer = a.locator(`.friend-notices [data-notice="answer"][data-challenge="${c1.id}"][data-status="accepted"]`);
    await answer.waitFor({ timeout: LIVE });
    const ansText = await answer.textContent();
    assert(/bob接受了你的挑战/.test(ansText) && CJK.test(ansText), `said in Chinese: ${ansText}`);
    await snap(a, 'notices-everywhere-puzzles-phone-zh-accepted');
    await fits(a, 'the puzzles page with the answer');
    const box = await answer.boundingBox();
    assert(box && box.x >= 0 && box.x + box.width <= 390, `the notice fits the phone: ${JSON.stringify(box)}`);
    await answer.locator(`a[data-table="${table}"]`).click();
    await a.locator(`.table-page[data-table="${table}"]`).waitFor({ timeout: 15000 });
    await a.close();
    await b.close();

    // At a table in play: Bob on his phone in Chinese, then at his desktop in English.
    for (const [options, lang] of [[phone, 'zh'], [desktop, 'en']]) {
      const ctx = await contextOf(options, bob, lang);
      try {
        const p = await watchedPage(ctx, `bob-${lang}`);
        await p.goto('/');
        await p.locator('.new-table').waitFor({ timeout: 15000 });
        await p.locator('.game-pick button[data-game="madiao"]').click();
        await p.locator('select[name="clock"]').selectOption('600');
        await p.locator('button[data-action="create"]').click();
        await p.locator('.felt').waitFor({ timeout: 20000 });
        await p.waitForFunction(() => document.querySelectorAll('.hand .card').length >= 8, null, { timeout: 20000 });
        await online(ann, 'bob');
        // The cards as they lie, at rest: his turn (the bots wait for him, the clock is long),
        // the deal's and the plays' motion over.
        // A hand settled before play (a forced redeal, a meld) shows its end first: he takes
        // the next hand, as a player does.
        const turnBy = Date.now() + 90000;
        while (!(await p.locator('.my-area.my-turn').isVisible())) {
          assert(Date.now() < turnBy, 'his turn came within 90 s');
          await p.locator('.hand-end button[data-action="next"]').click({ timeout: 500 }).catch(() => {});
          await sleep(250);
        }
        await sleep(1500);
        const before = await cardBoxes(p);
        const layoutBefore = await p.evaluate(() => {
          const r = document.querySelector('.felt')?.getBoundingClientRect();
          return r && { x: r.x, y: r.y, w: r.width, h: r.height };
        });
        const c = await api('POST', '/api/challenges', { username: 'bob', game: 'dabaifen' }, ann.token);
        const n = p.locator(`.friend-notices [data-notice="challenge"][data-challenge="${c.id}"]`);
        await n.waitFor({ timeout: LIVE });
        const text = await n.textContent();
        if (lang === 'zh') assert(/ann邀你来一桌打百分/.test(text), `in Chinese: ${text}`);
        else assert(/ann challenges you to a table of Da Bai Fen/.test(text), `in English: ${text}`);
        await snap(p, `notices-everywhere-table-${lang}-challenged`);
        await fits(p, `the table with the challenge (${lang})`);
        // The felt has not moved, and the notice covers none of the cards.
        const layoutAfter = await p.evaluate(() => {
          const r = document.querySelector('.felt')?.getBoundingClientRect();
          return r && { x: r.x, y: r.y, w: r.width, h: r.height };
        });
        assert(JSON.stringify(layoutAfter) === JSON.stringify(layoutBefore), `the felt stays: ${JSON.stringify(layoutBefore)} → ${JSON.stringify(layoutAfter)}`);
        const tray = await p.locator('.friend-notices').boundingBox();
        assert(tray, 'the tray is shown');
        const after = await cardBoxes(p);
        assert(after.length === before.length, `the same cards lie there (${before.length} → ${after.length})`);
        for (const [i, card] of after.entries()) {
          const was = before[i];
          assert(was.card === card.card && was.x === card.x && was.y === card.y, `${card.card} did not move: ${JSON.stringify(was)} → ${JSON.stringify(card)}`);
          const apart = card.x + card.w <= tray.x || tray.x + tray.width <= card.x || card.y + card.h <= tray.y || tray.y + tray.height <= card.y;
          assert(apart, `the notice ${JSON.stringify(tray)} covers ${card.card} ${JSON.stringify(card)}`);
        }
        assert(after.length >= 8, `the hand is there (${after.length})`);
        // He declines from the table, and plays on.
        await n.locator('button[data-action="decline"]').click();
        await n.waitFor({ state: 'detached', timeout: LIVE });
        const r = await api('GET', '/api/friends', undefined, ann.token);
        assert(r.challenges.find((x) => x.id === c.id)?.status === 'declined', 'the challenge is declined');
        assert(await p.locator('.table-page').count() === 1, 'still at his table');
      } finally {
        await ctx.close();
      }
    }
  } finally {
    await bobCtx.close();
    await annCtx.close();
  }
});
