// Browser scenarios (headless Chromium against the real yezi binary, a server of this file's own):
// the Friends page live (docs/web.md "Friends", docs/protocol.md "Friend notices"). Two people in
// two browsers: a followed player coming online, sitting at a table and going offline shows on
// his friend's page as it happens; a challenge arrives on the challenged player's page, and its
// answer on the challenger's, without a reload; a private event for friends is seen by the friend
// invited (who hears of it on his page) and refused to anyone else. The page asks the server
// again only while its socket is down (every 20 s): each change below must come within 5 s, so
// through the socket. Desktop (English) and phone 390×844 (Chinese), then each in the other
// language.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { assert, closeSuite, launchBrowser, log, problem, snap, startServer, watchedPage } from '../lib/harness.mjs';

/** Within this, a change must show: far less than the page's fallback poll (20 s). */
const LIVE = 5000;

let suite;
before(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'yezi-e2e-friends-live-'));
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

/** A context whose pages are signed in as `identity`. */
async function contextOf(options, identity) {
  const ctx = await suite.browser.newContext({ baseURL: suite.base, ...options });
  await ctx.addInitScript((id) => localStorage.setItem('yezi.guest', JSON.stringify(id)), identity);
  return ctx;
}

const desktop = { viewport: { width: 1366, height: 768 }, locale: 'en-US' };
const phone = { viewport: { width: 390, height: 844 }, locale: 'zh-CN', isMobile: true, hasTouch: true };

/** The page fits the phone's width. */
async function fits(page, what) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert(width <= 390, `${what} fits the phone (${width})`);
}

test('a friend online, at a table, challenged and invited to a private event, live', async () => {
  const annId = await account('Ann', 'ann');
  const boId = await account('Bo', 'bob');
  const cyId = await account('Cy', 'cyrus');
  await api('PUT', '/api/friends/bob', undefined, annId.token);
  const annCtx = await contextOf(desktop, annId);
  const boCtx = await contextOf(phone, boId);
  const cyCtx = await contextOf(desktop, cyId);
  try {
    // Ann's Friends page, its socket up: Bo is offline.
    const ann = await watchedPage(annCtx, 'ann');
    await ann.goto('/friends');
    await ann.locator('.friends-page[data-live="1"]').waitFor({ timeout: 15000 });
    const row = ann.locator('li[data-friend="bob"]');
    await ann.locator('li[data-friend="bob"][data-online="0"]').waitFor({ timeout: LIVE });
    await snap(ann, 'friends-live-desktop-en-offline');

    // Bo opens his Friends page on his phone: Ann sees him come online.
    const bo = await watchedPage(boCtx, 'bo');
    await bo.goto('/friends');
    await bo.locator('.friends-page[data-live="1"]').waitFor({ timeout: 15000 });
    await ann.locator('li[data-friend="bob"][data-online="1"]').waitFor({ timeout: LIVE });

    // He makes a table and sits at it: Ann sees where, at once.
    const made = await api('POST', '/api/tables', { game: 'madiao', name: 'Bo waits', seats: [{ kind: 'me' }, { kind: 'open' }, { kind: 'bot' }, { kind: 'bot' }] }, boId.token);
    const boTable = made.table.id;
    await row.locator(`a[data-watch="${boTable}"]`).waitFor({ timeout: LIVE });
    assert((await row.textContent()).includes('Bo waits'), 'the table Bo is at is named');
    await snap(ann, 'friends-live-desktop-en-at-table');

    // Ann challenges him: the challenge shows on his page without a reload; he declines, and
    // Ann's page shows the answer.
    await row.locator('button[data-action="challenge"]').click();
    const banner = bo.locator('.banner.challenge');
    await banner.waitFor({ timeout: LIVE });
    assert((await banner.textContent()).includes('ann'), 'the challenger is named');
    await snap(bo, 'friends-live-phone-zh-challenged');
    await fits(bo, 'the challenge');
    await banner.locator('button[data-action="decline"]').click();
    await ann.locator('ul.challenges li[data-status="declined"]').waitFor({ timeout: LIVE });

    // A private event for friends: Ann makes it on the events page, inviting Bo.
    await ann.goto('/events');
    await ann.locator('form.new-event').waitFor({ timeout: 15000 });
    await ann.locator('form.new-event input[name="name"]').fill('Friends night');
    await ann.locator('form.new-event input[name="tables"]').fill('1');
    await ann.locator('form.new-event input[name="people"]').fill('2');
    await ann.locator('form.new-event input[name="private"]').check();
    await ann.locator('form.new-event input[data-invite="bob"]').check();
    await snap(ann, 'friends-live-desktop-en-private-form');
    await ann.locator('button[data-action="create-event"]').click();
    await ann.locator('.event-page .private-note').waitFor({ timeout: 15000 });
    const eventId = await ann.evaluate(() => document.querySelector('.event-page')?.getAttribute('data-event'));
    assert(eventId, 'the event page names its event');
    assert((await ann.locator('.private-note').textContent()).includes('bob'), 'the invited friend is named');

    // Bo's page shows the invitation as it is made; he follows it and enters.
    const invite = bo.locator(`.banner.invite[data-invite="${eventId}"]`);
    await invite.waitFor({ timeout: LIVE });
    assert((await invite.textContent()).includes('Friends night'), 'the event is named');
    await snap(bo, 'friends-live-phone-zh-invited');
    await fits(bo, 'the invitation');
    await invite.locator(`a[data-event="${eventId}"]`).click();
    await bo.locator(`.event-page[data-event="${eventId}"] .private-note`).waitFor({ timeout: 15000 });
    await bo.locator('button[data-action="enter-event"]').click();
    await bo.locator('[data-entered="1"]').waitFor({ timeout: 15000 });
    await snap(bo, 'friends-live-phone-zh-private-event');
    await fits(bo, 'the private event');
    // The list shows it to him, marked private.
    await bo.goto('/events');
    await bo.locator(`tr[data-event="${eventId}"] [data-private="1"]`).waitFor({ timeout: 15000 });

    // Cy, not invited, does not see it listed, and is told why when he asks for it. (The
    // refusal is a 403: the only console message allowed on his page.)
    const cy = await cyCtx.newPage();
    cy.on('console', (msg) => {
      if (/status of 403/.test(msg.text())) return;
      if (msg.type() === 'error' || msg.type() === 'warning') problem(`cy console ${msg.type()}: ${msg.text()}`);
    });
    cy.on('pageerror', (err) => problem(`cy page error: ${err.message}`));
    await cy.goto('/events');
    await cy.locator('form.new-event').waitFor({ timeout: 15000 });
    assert(await cy.locator(`tr[data-event="${eventId}"]`).count() === 0, 'the private event is not listed to Cy');
    await cy.goto(`/events/${eventId}`);
    const refused = cy.locator('.event-page .error');
    await refused.waitFor({ timeout: 15000 });
    assert((await refused.textContent()).includes('private'), `Cy is told it is private: ${await refused.textContent()}`);
    await snap(cy, 'friends-live-desktop-en-not-invited');
    await cy.close();

    // Back on his Friends page (the events page kept him online too, through its tray of
    // notices); then he closes it: Ann sees him go offline.
    await bo.goto('/friends');
    await bo.locator('.friends-page[data-live="1"]').waitFor({ timeout: 15000 });
    await ann.goto('/friends');
    await ann.locator('.friends-page[data-live="1"]').waitFor({ timeout: 15000 });
    await ann.locator('li[data-friend="bob"][data-online="1"]').waitFor({ timeout: LIVE });
    await bo.close();
    await ann.locator('li[data-friend="bob"][data-online="0"]').waitFor({ timeout: LIVE });
    // Still seated at his table (his seat waits for him).
    await row.locator(`a[data-watch="${boTable}"]`).waitFor({ timeout: LIVE });

    // Each in the other language: Ann's page in Chinese, Bo's phone in English.
    await ann.locator('button.lang').click();
    await ann.locator('.friends-page h1', { hasText: '好友' }).waitFor();
    await snap(ann, 'friends-live-desktop-zh-offline');
    const bo2 = await watchedPage(boCtx, 'bo-en');
    await bo2.goto('/friends');
    await bo2.locator('.friends-page[data-live="1"]').waitFor({ timeout: 15000 });
    await ann.locator('li[data-friend="bob"][data-online="1"]').waitFor({ timeout: LIVE });
    await bo2.locator('button.lang').click();
    await bo2.locator('.friends-page h1', { hasText: 'Friends' }).waitFor();
    // A second challenge, in English on the phone: accepted, both go to the table made.
    await ann.locator('li[data-friend="bob"] button[data-action="challenge"]').click();
    const banner2 = bo2.locator('.banner.challenge');
    await banner2.waitFor({ timeout: LIVE });
    await snap(bo2, 'friends-live-phone-en-challenged');
    await fits(bo2, 'the challenge in English');
    await banner2.locator('button[data-action="accept"]').click();
    await bo2.locator('.table-page').waitFor({ timeout: 15000 });
    const table = await bo2.evaluate(() => document.querySelector('.table-page')?.getAttribute('data-table'));
    const go = ann.locator(`ul.challenges li[data-status="accepted"] a[data-table="${table}"]`);
    await go.waitFor({ timeout: LIVE });
    await snap(ann, 'friends-live-desktop-zh-accepted');
  } finally {
    await annCtx.close();
    await boCtx.close();
    await cyCtx.close();
  }
});
