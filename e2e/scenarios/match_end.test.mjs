// The end of a match (issue 26, item 6): at a rated table the final score shows each person's
// rating change, as the server stored it; My games shows the score and what "won" means, the
// profile explains it for the rating, and the public archive shows the score; the lobby offers
// no research bot, though the API lists them and seats them.

import { test } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assert, claimAccount, createTable, enterName, launchBrowser, log, playMadiaoMatch, problems, snap, startServer, watchedPage } from '../lib/harness.mjs';
import { playerNames } from '../../web/js/i18n.js';

test('a rated match ends with the rating change in the row of the score; My games, the profile and the archive', { timeout: 600000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'yezi-match-end-'));
  const { proc, base } = await startServer(dir);
  const browser = await launchBrowser();
  try {
    const ctx = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 900 } });
    const a = await watchedPage(ctx, 'match-end');
    const user = `end_${Date.now().toString(36)}`;
    await a.goto('/');
    await enterName(a, 'Rui');
    await a.locator('.new-table').waitFor();

    // The lobby's seats offer no research bot; the API lists them, marked.
    const games = await (await a.request.get('/api/games')).json();
    const madiao = games.games.find((g) => g.game === 'madiao');
    assert(madiao.bots.includes('pimc-coalition') && madiao.bots.includes('pimc-mixed'), `the API lists the research bots: ${madiao.bots}`);
    assert(JSON.stringify(madiao.research_bots) === '["pimc-coalition","pimc-mixed","learned"]', `marked: ${madiao.research_bots}`);
    await a.locator('.game-pick button[data-game="madiao"]').click();
    const offered = await a.locator('select[name="seat1"] option').evaluateAll((os) => os.map((o) => o.getAttribute('value')));
    assert(offered.includes('bot:pimc') && offered.includes('bot:expert'), `the playing bots are offered: ${offered}`);
    assert(!offered.some((v) => /pimc-(coalition|mixed)/.test(v ?? '')), `no research bot in the lobby: ${offered}`);

    // An account, and a rated match with bots (four hands, the fewest a rated table plays).
    await claimAccount(a, user);
    await a.goto('/');
    await a.locator('.new-table').waitFor();
    const id = await createTable(a, 'madiao', { variants: { game_length: 'hands:4' }, name: 'Rated end', rated: true });
    await a.locator('.felt').waitFor({ timeout: 20000 });
    assert(await playMadiaoMatch(a), 'the rated match is over');

    // In the row of the final score: the rating change, as the server stored it.
    const row = a.locator('.hand-end table.match-score tr[data-seat="0"] .rating-change[data-seat="0"]');
    await row.waitFor({ timeout: 15000 });
    const stored = await (await a.request.get(`/api/tables/${id}/ratings`)).json();
    assert(stored.changes.length === 1 && stored.changes[0].seat === 0, `one person rated: ${JSON.stringify(stored)}`);
    const c = stored.changes[0];
    const delta = Math.round(c.rating_after) - Math.round(c.rating_before);
    const text = `${await row.innerText()} (${await row.getAttribute('title')})`;
    assert(text.includes(`${Math.round(c.rating_before)} → ${Math.round(c.rating_after)}`), `the page shows the ratings: ${text}`);
    assert(Number(await row.getAttribute('data-delta')) === delta && delta !== 0, `the change ${delta}: ${text}`);
    const profile = await (await a.request.get(`/api/players/${user}`)).json();
    assert(Math.abs(profile.ratings[0].rating - c.rating_after) < 1e-9, 'the profile holds the rating after the match');
    await a.locator('.hand-end .match-score, .hand-end table').first().waitFor();
    await snap(a, 'rated-end');
    log(`rating change at the end: ${text}`);

    // My games: the final score (each seat's chips) and what "won" means.
    const chips = await a.evaluate(() => [...document.querySelectorAll('.hand-end .totals tbody tr:last-child td')].map((td) => td.textContent?.trim()));
    await a.locator('header a[data-nav="account"]').click();
    const mine = a.locator(`.my-games li[data-game="${id}"]`);
    await mine.waitFor({ timeout: 15000 });
    const score = await mine.locator('.final-score').innerText();
    const api = await (await a.request.get('/api/account/games', { headers: { Authorization: `Bearer ${await a.evaluate(() => JSON.parse(localStorage.getItem('yezi.guest') ?? '{}').token)}` } })).json();
    const g = api.games.find((x) => x.id === id);
    assert(g && g.score.chips.length === 4, `My games' score: ${JSON.stringify(g)}`);
    // Bots are shown by their names for players, people by theirs (the page's English).
    for (const [s, n] of g.score.chips.entries()) {
      const shown = n === 0 ? '0' : `${n > 0 ? '+' : '−'}${Math.abs(n)}`;
      assert(score.includes(`${playerNames(g.players)[s]} ${shown}`), `the score shows seat ${s + 1}'s ${shown}: ${score}`);
    }
    log(`My games: ${score} (the hand's chips ${chips})`);
    assert(/average/.test(await a.locator('.my-games .won-explained').innerText()), 'My games says what won means');
    // The profile says what won means for the rating.
    await a.locator('a.my-profile').click();
    await a.locator(`.profile-page[data-player="${user}"] .won-explained`).waitFor({ timeout: 15000 });
    assert(/each opponent/.test(await a.locator('.won-explained').first().innerText()), 'the profile explains won');
    // The archive lists the game with its score.
    await a.goto('/replay');
    const archived = a.locator(`.archive-games li[data-game="${id}"] .final-score`);
    await archived.waitFor({ timeout: 15000 });
    assert((await archived.innerText()).includes(score.replace(/^ · /, '').trim().split(' · ')[0]), 'the archive shows the same score');
    await snap(a, 'archive-score');
    assert(problems.length === 0, `no console problems: ${problems.join('; ')}`);
  } finally {
    await browser.close();
    proc.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
});
