// Browser scenarios (headless Chromium against the real yezi binary, a server of this file's own):
// Friends (`/friends`, docs/web.md "Friends"): an account follows another, sees him online and at
// which table, challenges him; the friend hears of it on his own page, accepts, and both reach
// the table made for it; a second challenge is declined. Desktop and phone, English and Chinese.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { assert, closeSuite, launchBrowser, log, snap, startServer, watchedPage } from '../lib/harness.mjs';

let suite;
before(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'yezi-e2e-friends-'));
  const { proc, base } = await startServer(dir);
  log(`yezi serve at ${base}`);
  const browser = await launchBrowser();
  suite = { dir, proc, base, browser };
});
after(() => closeSuite(suite));

/** A guest who claims an account: the identity the browser keeps for it. */
async function account(name, username) {
  const post = async (path, body, token) => {
    const res = await fetch(`${suite.base}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    const json = await res.json();
    assert(res.ok, `${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const g = await post('/api/guests', { name });
  const s = await post('/api/account', { username, password: 'correct horse battery' }, g.token);
  return { id: s.id, name: s.name, token: s.token, username: s.username };
}

/** A page of `ctx` signed in as `identity`, at `path`. */
async function signedIn(ctx, label, identity, path) {
  await ctx.addInitScript((id) => localStorage.setItem('yezi.guest', JSON.stringify(id)), identity);
  const page = await watchedPage(ctx, label);
  await page.goto(path);
  return page;
}

test('follow a player, see him online at his table, challenge him; he accepts one and declines another', async () => {
  const desktop = { viewport: { width: 1366, height: 768 }, baseURL: suite.base, locale: 'en-US' };
  const annCtx = await suite.browser.newContext(desktop);
  const boCtx = await suite.browser.newContext({ viewport: { width: 390, height: 844 }, baseURL: suite.base, locale: 'zh-CN', isMobile: true, hasTouch: true });
  try {
    const annId = await account('Ann', 'ann');
    const boId = await account('Bo', 'bob');
    // Bo is at a table of his own (the lobby's new table).
    const bo = await signedIn(boCtx, 'bo', boId, '/');
    await bo.locator('.new-table').waitFor({ timeout: 15000 });
    await bo.locator('.game-pick button[data-game="madiao"]').click();
    await bo.locator('input[name="table-name"]').fill('Bo waits');
    await bo.locator('button[data-action="create"]').click();
    await bo.locator('.table-page').waitFor({ timeout: 15000 });
    const boTable = await bo.evaluate(() => document.querySelector('.table-page')?.getAttribute('data-table'));

    const ann = await signedIn(annCtx, 'ann', annId, '/friends');
    await ann.locator('.friends-page .follow-form').waitFor({ timeout: 15000 });
    await ann.locator('.follow-form input[name="username"]').fill('bob');
    await ann.locator('.follow-form button[data-action="follow"]').click();
    const row = ann.locator('li[data-friend="bob"]');
    await row.waitFor({ timeout: 10000 });
    await ann.locator('li[data-friend="bob"][data-online="1"]').waitFor({ timeout: 10000 });
    await row.locator(`a[data-watch="${boTable}"]`).waitFor({ timeout: 10000 });
    assert((await row.textContent()).includes('Bo waits'), 'the table Bo is at is named');
    await snap(ann, 'friends-desktop-en-online');

    // A challenge to Da Bai Fen: Bo's Friends page shows it (by asking the server); he accepts.
    await ann.locator('select[name="challenge-game"]').selectOption('dabaifen');
    await row.locator('button[data-action="challenge"]').click();
    await ann.locator('ul.challenges li[data-status="pending"]').waitFor({ timeout: 10000 });
    await bo.goto('/friends');
    const banner = bo.locator('.banner.challenge');
    await banner.waitFor({ timeout: 10000 });
    assert((await banner.textContent()).includes('ann'), 'the challenger is named');
    await snap(bo, 'friends-phone-zh-challenged');
    const width = await bo.evaluate(() => document.documentElement.scrollWidth);
    assert(width <= 390, `the Friends page fits the phone (${width})`);
    await banner.locator('button[data-action="accept"]').click();
    await bo.locator('.table-page.game-dabaifen').waitFor({ timeout: 15000 });
    const made = await bo.evaluate(() => document.querySelector('.table-page')?.getAttribute('data-table'));
    assert(made && made !== boTable, `Bo is at the table made for the challenge (${made})`);
    // Ann hears of the answer and goes to the table.
    const go = ann.locator(`ul.challenges li[data-status="accepted"] a[data-table="${made}"]`);
    await go.waitFor({ timeout: 10000 });
    await snap(ann, 'friends-desktop-en-accepted');
    await go.click();
    await ann.locator(`.table-page[data-table="${made}"]`).waitFor({ timeout: 15000 });

    // A second challenge, declined: Ann sees it so.
    await ann.goto('/friends');
    await ann.locator('li[data-friend="bob"] button[data-action="challenge"]').click();
    await bo.goto('/friends');
    await bo.locator('.banner.challenge button[data-action="decline"]').click();
    await ann.locator('ul.challenges li[data-status="declined"]').waitFor({ timeout: 10000 });
    // In Chinese on the desktop.
    await ann.locator('button.lang').click();
    await ann.locator('.friends-page h1', { hasText: '好友' }).waitFor();
    await snap(ann, 'friends-desktop-zh');
    await ann.locator('button.lang').click();
    // Unfollow.
    await ann.locator('li[data-friend="bob"] button[data-action="unfollow"]').click();
    await ann.locator('li[data-friend="bob"]').waitFor({ state: 'detached', timeout: 10000 });
  } finally {
    await annCtx.close();
    await boCtx.close();
  }
});
