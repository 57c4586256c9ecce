// Browser scenarios (headless Chromium against the real yezi binary, a server of this file's own,
// with an operator token): moderation as a player does it. A guest sends a canned message from the
// row of buttons; a signed-in player reports that line from the name's menu (the operator's API
// then lists the report with the line's text), mutes the speaker (his lines vanish, live and after a
// reload), blocks him (he cannot sit at her table: a clear notice, and he watches), and undoes both
// from the lists on her own page. The same menu opens from a seat's name on the felt (mute, a
// report) and from a public profile (Bo, signed in later, mutes Ann there).

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { assert, claimAccount, closeSuite, createTable, enterName, launchBrowser, log, snap, startServer, watchedPage } from '../lib/harness.mjs';

const OPERATOR = 'e2e-operator-token-0123456789';
let suite;
before(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'yezi-e2e-'));
  const tokenFile = join(dir, 'admin-token');
  writeFileSync(tokenFile, `${OPERATOR}\n`);
  const { proc, base } = await startServer(dir, '127.0.0.1:0', ['--admin-token-file', tokenFile]);
  log(`yezi serve at ${base}`);
  const browser = await launchBrowser();
  suite = { dir, proc, base, browser };
});
after(() => closeSuite(suite));

/** The chat lines' texts (name and words) of a page. @param {import('playwright').Page} page */
async function chatLines(page) {
  return page.locator('.chat-lines p[data-seq]').allTextContents();
}

test('moderation: canned messages, report a line, mute, block and undo from the own page', async () => {
  const desktop = { viewport: { width: 1280, height: 900 }, baseURL: suite.base, locale: 'en-US' };
  const phone = { viewport: { width: 390, height: 844 }, baseURL: suite.base, locale: 'en-US', isMobile: true, hasTouch: true };
  const annCtx = await suite.browser.newContext(desktop);
  const boCtx = await suite.browser.newContext(phone);
  const ann = await watchedPage(annCtx, 'ann');
  const bo = await watchedPage(boCtx, 'bo');

  // Ann claims an account (muting, blocking and reporting are an account's).
  await ann.goto('/');
  await enterName(ann, 'Ann');
  await ann.locator('.new-table').waitFor();
  const user = `mod_${Date.now().toString(36)}`;
  await claimAccount(ann, user);
  await ann.locator('.account-page .moderation').waitFor();
  await ann.goto('/');
  await ann.locator('.new-table').waitFor();
  const table = await createTable(ann, 'madiao', { seat3: 'open' });

  // Bo, a guest on a phone, joins and sends a canned message from the row of buttons.
  await bo.goto('/');
  await enterName(bo, 'Bo 波');
  await bo.goto(`/t/${table}`);
  await bo.locator('.table-page').waitFor({ timeout: 15000 });
  const canned = bo.locator('.canned button[data-canned]');
  assert((await canned.count()) === 5, `five canned messages, not ${await canned.count()}`);
  await bo.locator('.canned button[data-canned="good_luck"]').click();
  await ann.locator('.chat-lines p[data-seq]', { hasText: 'Good luck' }).waitFor({ timeout: 15000 });
  await snap(bo, 'moderation-canned-phone');

  // Ann reports the line from Bo's name.
  const line = ann.locator('.chat-lines p[data-seq]', { hasText: 'Good luck' });
  await line.locator('.name-button').click();
  await line.locator('button[data-mod="report"]').click();
  await line.locator('.report-form input').fill('sarcasm 讽刺');
  await snap(ann, 'moderation-report-form');
  await line.locator('.report-form button[type="submit"]').click();
  await ann.locator('.notice', { hasText: 'your report of Bo 波 was sent' }).waitFor({ timeout: 15000 });
  const reports = await fetch(`${suite.base}/api/admin/reports`, { headers: { Authorization: `Bearer ${OPERATOR}` } }).then((r) => r.json());
  assert(reports.reports.length === 1, `one report stored: ${JSON.stringify(reports)}`);
  const r = reports.reports[0];
  assert(r.chat_text === 'Good luck' && r.reason === 'sarcasm 讽刺' && r.table === table && r.player_name === 'Bo 波', `the report: ${JSON.stringify(r)}`);

  // Ann mutes Bo from his name on his seat (the match began when he sat): his line goes; his
  // next line never shows; hers does.
  const seated = ann.locator('.felt .seat .seat-menu', { hasText: 'Bo 波' });
  await seated.locator('.name-button').click();
  assert((await seated.locator('.menu button[data-mod]').count()) === 3, 'mute, block and report on the seat');
  await snap(ann, 'moderation-seat-menu');
  await seated.locator('button[data-mod="mute"]').click();
  await ann.locator('.notice', { hasText: 'Bo 波 is muted' }).waitFor({ timeout: 15000 });
  await bo.locator('.chat input').fill('can you hear me');
  await bo.locator('.chat form:not(.report-form) button[type="submit"]').click();
  await bo.locator('.chat-lines p[data-seq]', { hasText: 'can you hear me' }).waitFor({ timeout: 15000 });
  await ann.locator('.canned button[data-canned="thanks"]').click();
  await ann.locator('.chat-lines p[data-seq]', { hasText: 'Thanks' }).waitFor({ timeout: 15000 });
  let lines = await chatLines(ann);
  assert(lines.every((l) => !l.includes('Bo 波')), `Bo's lines still show to Ann: ${JSON.stringify(lines)}`);
  // The history after a reload hides them too.
  await ann.reload();
  await ann.locator('.chat-lines p[data-seq]', { hasText: 'Thanks' }).waitFor({ timeout: 15000 });
  lines = await chatLines(ann);
  assert(lines.every((l) => !l.includes('Bo 波')), `Bo's lines show in the history: ${JSON.stringify(lines)}`);
  lines = await chatLines(bo);
  assert(lines.some((l) => l.includes('can you hear me')), 'Bo still sees his own line');
  await snap(ann, 'moderation-muted');

  // Ann unmutes Bo on her own page, then blocks him from his name in the chat.
  await ann.locator('header a[data-nav="account"]').click();
  const mutedItem = ann.locator('.mod-list.mutes li', { hasText: 'Bo 波' });
  await mutedItem.waitFor({ timeout: 15000 });
  await snap(ann, 'moderation-lists');
  await mutedItem.locator('button').click();
  await ann.locator('.mod-list.mutes .hint').waitFor({ timeout: 15000 });
  await ann.goto(`/t/${table}`);
  const again = ann.locator('.chat-lines p[data-seq]', { hasText: 'can you hear me' });
  await again.waitFor({ timeout: 15000 });
  await again.locator('.name-button').click();
  await again.locator('button[data-mod="block"]').click();
  await ann.locator('.notice', { hasText: 'Bo 波 is blocked' }).waitFor({ timeout: 15000 });

  // A new table of Ann's: Bo cannot sit there; he is told why and watches.
  await ann.goto('/');
  await ann.locator('.new-table').waitFor();
  const second = await createTable(ann, 'madiao', { seat3: 'open' });
  await bo.goto(`/t/${second}`);
  await bo.locator('.notice', { hasText: 'you and a player there block one another' }).waitFor({ timeout: 15000 });
  await bo.locator('.table-page').waitFor({ timeout: 15000 });
  await snap(bo, 'moderation-blocked-phone');

  // Undone from her page, Bo may sit.
  await ann.locator('header a[data-nav="account"]').click();
  const blockedItem = ann.locator('.mod-list.blocks li', { hasText: 'Bo 波' });
  await blockedItem.waitFor({ timeout: 15000 });
  await blockedItem.locator('button').click();
  await ann.locator('.mod-list.blocks .hint').waitFor({ timeout: 15000 });
  const third = await (async () => {
    await ann.goto('/');
    await ann.locator('.new-table').waitFor();
    return createTable(ann, 'madiao', { seat3: 'open' });
  })();
  await bo.goto(`/t/${third}`);
  await bo.locator('.table-page').waitFor({ timeout: 15000 });
  let info = null;
  for (let i = 0; i < 50; i++) {
    info = await fetch(`${suite.base}/api/tables/${third}`).then((r) => r.json());
    if (JSON.stringify(info).includes('Bo 波')) break;
    await new Promise((res) => setTimeout(res, 200));
  }
  assert(JSON.stringify(info).includes('Bo 波'), `Bo is not seated at the third table: ${JSON.stringify(info)}`);

  // Bo's name on his seat reports him too.
  await ann.goto(`/t/${third}`);
  const boSeat = ann.locator('.felt .seat .seat-menu', { hasText: 'Bo 波' });
  await boSeat.waitFor({ timeout: 15000 });
  await boSeat.locator('.name-button').click();
  await boSeat.locator('button[data-mod="report"]').click();
  await boSeat.locator('.report-form input').fill('stalling');
  await boSeat.locator('.report-form button[type="submit"]').click();
  await ann.locator('.notice', { hasText: 'your report of Bo 波 was sent' }).waitFor({ timeout: 15000 });
  const later = await fetch(`${suite.base}/api/admin/reports`, { headers: { Authorization: `Bearer ${OPERATOR}` } }).then((r) => r.json());
  assert(later.reports.some((x) => x.reason === 'stalling' && x.player_name === 'Bo 波'), `the seat's report: ${JSON.stringify(later)}`);

  // Bo takes an account and mutes Ann from her public profile.
  await bo.goto('/account');
  const boUser = `bo_${Date.now().toString(36)}`;
  await claimAccount(bo, boUser, 'another long password');
  await bo.locator('.account-page .moderation').waitFor({ timeout: 15000 });
  await bo.goto(`/players/${user}`);
  const profileMenu = bo.locator('.profile-page .profile-mod');
  await profileMenu.locator('.name-button').click();
  await profileMenu.locator('button[data-mod="mute"]').click();
  await bo.locator('.notice', { hasText: `${user} is muted` }).waitFor({ timeout: 15000 });
  await profileMenu.locator('.name-button').click();
  await profileMenu.locator('button[data-mod="mute"]', { hasText: 'Unmute' }).waitFor({ timeout: 15000 });
  await snap(bo, 'moderation-profile-menu-phone');
  await annCtx.close();
  await boCtx.close();
});
