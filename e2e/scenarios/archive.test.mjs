// Browser scenarios (headless Chromium against the real yezi binary, a server of this file's own):
// the public archive: a finished match found on the Replays page by a player, replayed, its record
// downloaded.

import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { assert, bin, closeSuite, createTable, enterName, log, openSuite, playMadiaoMatch, snap, watchedPage } from '../lib/harness.mjs';

/** The suite's server, browser and pages (see openSuite). */
let suite;
let browser, desktop, dir, page, player;
before(async () => {
  suite = await openSuite({ named: true });
  ({ browser, desktop, dir, page, player } = suite);
});
after(() => closeSuite(suite));

test('the public archive: a finished match found on the Replays page by a player, replayed, its record downloaded', async () => {
  const ctx = await browser.newContext(desktop);
  const a = await watchedPage(ctx, 'archivist');
  try {
    await a.goto('/');
    await enterName(a, 'Zoë Archivist');
    await a.locator('.new-table').waitFor();
    const id = await createTable(a, 'madiao', { variants: { game_length: 'hands:1' }, name: 'For the archive' });
    log(`archive table ${id}`);
    await a.locator('.felt').waitFor({ timeout: 20000 });
    assert(await playMadiaoMatch(a), 'the one-hand match is over');
    // The Replays page lists it; a search by a part of the player's name, in another case, finds it.
    await a.goto('/replay');
    await a.locator('.archive').waitFor({ timeout: 15000 });
    await a.locator('.archive-search input[name="player"]').fill('zoë arch');
    await a.locator('button[data-action="archive-search"]').click();
    // The list shown is the search's (not the unfiltered list from before it).
    await a.locator('.archive[data-asked="zoë arch"][data-state="ready"]').waitFor({ timeout: 15000 });
    const entry = a.locator(`.archive-games li[data-game="${id}"]`);
    await entry.waitFor({ timeout: 15000 });
    // Exactly her one game (read once the list has settled: it may be drawn again as the page loads).
    const one = await a
      .waitForFunction(() => document.querySelectorAll('.archive[data-state="ready"] .archive-games li').length === 1, null, { timeout: 5000 })
      .then(() => true, () => false);
    const listed = await a.locator('.archive-games li').count();
    assert(one, `the search lists her one game, not ${listed}`);
    assert((await entry.textContent()).includes('Zoë Archivist'), 'the entry names the player');
    await snap(a, 'archive-search');
    // Another name finds nothing.
    await a.locator('.archive-search input[name="player"]').fill('nobody at all');
    await a.locator('button[data-action="archive-search"]').click();
    await a.locator('.archive .hint').waitFor({ timeout: 15000 });
    await a.locator('.archive-search input[name="player"]').fill('Zoë Archivist');
    await a.locator('button[data-action="archive-search"]').click();
    await entry.waitFor({ timeout: 15000 });
    // Its record downloads (a file named after the table) and is the table's yezi/1 record.
    const [download] = await Promise.all([a.waitForEvent('download'), entry.locator('a[data-action="archive-record"]').click()]);
    assert(download.suggestedFilename() === `yezi-${id}.json`, `the file's name: ${download.suggestedFilename()}`);
    const saved = join(dir, 'archived.json');
    await download.saveAs(saved);
    const record = JSON.parse(readFileSync(saved, 'utf8'));
    assert(record.format === 'yezi/1' && record.players[0] === 'Zoë Archivist', `the record: ${JSON.stringify(record).slice(0, 200)}`);
    execFileSync(bin, ['replay', saved]);
    // The player's games as an archive, which `yezi replay` reads.
    const bulk = await a.request.get(await a.locator('a[data-action="archive-player"]').getAttribute('href'));
    assert(bulk.ok() && bulk.headers()['content-type'] === 'application/gzip', 'the player\'s archive downloads');
    const gz = join(dir, 'archivist.jsonl.gz');
    writeFileSync(gz, await bulk.body());
    const out = execFileSync(bin, ['replay', gz]).toString();
    assert(out.includes('1 record(s), 1 replayed cleanly'), `yezi replay of the archive: ${out.slice(-200)}`);
    // Opening the entry shows its replay.
    await entry.locator('a[data-action="archive-open"]').click();
    await a.waitForURL(`**/replay/${id}`);
    await a.locator('.replay-body').waitFor({ timeout: 15000 });
    await snap(a, 'archive-replay');
  } finally {
    await ctx.close();
  }
});
