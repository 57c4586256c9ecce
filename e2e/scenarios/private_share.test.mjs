// Browser scenario (headless Chromium against the real yezi binary, a server of this file's own):
// a private table's finished game is hidden from a stranger until its host hands him the share
// link the table page gives the host (docs/web.md, "Private games").

import { after, before, test } from 'node:test';
import { assert, closeSuite, createTable, log, openSuite, problem, snap } from '../lib/harness.mjs';

/** The suite's server, browser and pages (see openSuite). */
let suite;
before(async () => {
  suite = await openSuite({ named: true });
});
after(() => closeSuite(suite));

test('the host copies a private game\'s share link; a stranger sees the replay only with it', async () => {
  const { page, browser, desktop } = suite;
  await page.goto('/');
  await page.locator('.new-table').waitFor();
  await page.locator('.new-table label.check', { hasText: 'Private' }).locator('input').check();
  const bot = await page.locator('select[name="seat0"] option[value^="bot:"]').first().getAttribute('value');
  const id = await createTable(page, 'madiao', { seat0: bot, variants: { game_length: 'hands:1' }, name: 'Kept back' });
  log(`private bot table ${id}`);
  await page.waitForFunction(() => document.querySelector('.table-page')?.getAttribute('data-status') === 'finished', null, { timeout: 300000 });

  // A stranger (a page of his own, not signed in) is told there is no such game: the one
  // expected 404 is the only console message let through.
  const stranger = await (await browser.newContext(desktop)).newPage();
  stranger.on('console', (msg) => {
    if (/Failed to load resource: the server responded with a status of 404/.test(msg.text())) return;
    if (msg.type() === 'error' || msg.type() === 'warning') problem(`stranger console ${msg.type()}: ${msg.text()}`);
  });
  stranger.on('pageerror', (err) => problem(`stranger page error: ${err.message}`));
  await stranger.goto(`/replay/${id}`);
  await stranger.locator('.replay-page .error-box').waitFor({ timeout: 15000 });
  const said = await stranger.locator('.replay-page .error-box').innerText();
  assert(/no table|not found|no such/i.test(said), `the stranger is told there is no such game: ${said}`);
  assert((await stranger.locator('.replay-body').count()) === 0, 'no replay for the stranger');

  // The host takes the share link from the table page.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.locator('.host-controls button[data-action="share-link"]').click();
  const shown = page.locator('.host-controls input[data-share-link]');
  await shown.waitFor({ timeout: 10000 });
  const link = await shown.inputValue();
  await snap(page, 'private-share-link');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert(copied === link, `the link is copied: ${copied} vs ${link}`);
  const u = new URL(link);
  assert(u.pathname === `/replay/${id}` && /^[0-9a-f]{32}$/.test(u.searchParams.get('share') ?? ''), `a replay link with the share token: ${link}`);

  // With it the stranger sees the replay, and its analysis link keeps the token.
  await stranger.goto(`${u.pathname}${u.search}`);
  await stranger.locator('.replay-body').waitFor({ timeout: 15000 });
  assert((await stranger.locator('.replay-page .error-box').count()) === 0, 'no error with the share link');
  await snap(stranger, 'private-share-replay');
  const analyse = stranger.locator('a[data-action="analyse"]');
  if (await analyse.count()) {
    const href = await analyse.getAttribute('href');
    assert(href?.includes(`share=${u.searchParams.get('share')}`), `the analysis link keeps the token: ${href}`);
  }
  // The analysis route takes the token as the replay's does: without it, no such game.
  const bare = await stranger.request.get(`/api/games/${id}/analysis?hand=0&seat=0`);
  assert(bare.status() === 404, `the analysis without the token: ${bare.status()}`);
  const bareBody = await bare.json();
  assert(bareBody.error?.code === 'no_table', `hidden as no table: ${JSON.stringify(bareBody)}`);
  const shared = await stranger.request.get(`/api/games/${id}/analysis?hand=0&seat=0&share=${u.searchParams.get('share')}`);
  const sharedBody = await shared.json();
  assert(shared.status() !== 404 || sharedBody.error?.code !== 'no_table', `with the token the game is seen: ${shared.status()} ${JSON.stringify(sharedBody)}`);
});
