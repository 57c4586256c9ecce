// The end of a rated match (issue 26, item 6), with two people: each person's rating change sits
// in the row of his final score (the same table row, on the same line on screen), as the server
// stored it; bots are shown everywhere by their names for players ("Beginner", "Club player"),
// their internal names as tooltips — around the felt, in the trick, the events, the final score,
// the lobby's list, My games and the replay, in English and 简体中文. A rated Da Bai Fen match runs
// until a partnership reaches the Ace (no one-deal variant), too long to play here: its final
// score is drawn by the page's own component from a finished match's numbers and measured the
// same way.

import { test } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assert, claimAccount, createTable, enterName, launchBrowser, log, playMadiaoMatch, problems, snap, startServer, watchedPage } from '../lib/harness.mjs';

/** Makes the page's guest an account. @param {import('playwright-core').Page} page @param {string} user */
async function claim(page, user) {
  await claimAccount(page, user);
  await page.goto('/');
  await page.locator('.new-table').waitFor();
}

/**
 * Where each rating change of the final score sits: its row's seat or team, whether it shares
 * the row with the score cell `scoreSel`, and the boxes of both.
 * @param {import('playwright-core').Page} page @param {string} scoreSel
 */
function changePlaces(page, scoreSel) {
  return page.evaluate((sel) => [...document.querySelectorAll('table.match-score .rating-change')].map((el) => {
    const row = el.closest('tr');
    const score = row ? row.querySelector(sel) : null;
    const a = el.getBoundingClientRect();
    const b = score ? score.getBoundingClientRect() : null;
    return {
      seat: Number(el.getAttribute('data-seat')),
      delta: Number(el.getAttribute('data-delta')),
      after: Number(el.getAttribute('data-after')),
      text: el.textContent?.replace(/\s+/g, ' ').trim() ?? '',
      title: el.getAttribute('title') ?? '',
      rowSeat: row?.getAttribute('data-seat') ?? null,
      rowTeam: row?.getAttribute('data-team') ?? null,
      score: score ? score.textContent?.trim() ?? '' : null,
      change: { top: a.top, bottom: a.bottom, mid: (a.top + a.bottom) / 2 },
      scoreBox: b ? { top: b.top, bottom: b.bottom, mid: (b.top + b.bottom) / 2 } : null,
      // Inside the screen, and not cut by the panel it is in (the final score's table no wider
      // than its panel).
      inView: a.left >= 0 && a.right <= window.innerWidth && (() => {
        const card = el.closest('.hand-end-card');
        const table = el.closest('table');
        if (!card || !table) return true;
        const c = card.getBoundingClientRect();
        const t = table.getBoundingClientRect();
        return a.right <= c.right + 0.5 && t.right <= c.right + 0.5;
      })(),
    };
  }), scoreSel);
}

/** The sign the page writes a change with. @param {number} n */
const signedText = (n) => (n === 0 ? '0' : `${n > 0 ? '+' : '−'}${Math.abs(n)}`);

/** The change lies on the line of the score: the one's middle within the other's height. @param {any} p */
function sameLine(p) {
  return p.scoreBox && p.change.mid >= p.scoreBox.top && p.change.mid <= p.scoreBox.bottom && p.scoreBox.mid >= p.change.top - 4 && p.scoreBox.mid <= p.change.bottom + 4;
}

test('a rated Madiao match of two people: each change beside his final score; bots by their names', { timeout: 420000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'yezi-rated-end-'));
  const { proc, base } = await startServer(dir);
  const browser = await launchBrowser();
  try {
    const stamp = Date.now().toString(36);
    const ctxA = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 900 } });
    const ctxB = await browser.newContext({ baseURL: base, viewport: { width: 1366, height: 768 } });
    const a = await watchedPage(ctxA, 'rated-end-a');
    const b = await watchedPage(ctxB, 'rated-end-b');
    await a.goto('/');
    await enterName(a, 'Rui');
    await a.locator('.new-table').waitFor();
    await claim(a, `rui_${stamp}`);
    await b.goto('/');
    await enterName(b, 'Bo');
    await b.locator('.new-table').waitFor();
    await claim(b, `bo_${stamp}`);

    // A rated four-hand match (the shortest rated Madiao, docs/ratings.md): Rui, a Beginner, a
    // Club player and an open seat for Bo.
    const id = await createTable(a, 'madiao', {
      variants: { game_length: 'hands:4' }, name: 'Rated pair', rated: true, pace: 'fast',
      seat1: 'bot:random', seat2: 'bot:heuristic', seat3: 'open',
    });
    // The lobby's list names the bots for players, their internal names as tooltips.
    await b.goto('/');
    const listed = b.locator(`.open-tables li[data-table="${id}"]`);
    await listed.waitFor({ timeout: 15000 });
    const listBots = await listed.locator('[data-bot]').evaluateAll((els) => els.map((e) => [e.getAttribute('data-bot'), e.textContent?.trim(), e.getAttribute('title')]));
    log(`the lobby's list: ${JSON.stringify(listBots)}`);
    assert(listBots.some(([id, text, title]) => id === 'random' && text === 'Beginner' && title === 'random'), `the lobby lists the Beginner: ${JSON.stringify(listBots)}`);
    assert(listBots.some(([id, text, title]) => id === 'heuristic' && text === 'Club player' && title === 'heuristic'), `the lobby lists the Club player: ${JSON.stringify(listBots)}`);
    await b.goto(`/t/${id}`);
    await b.locator('.felt').waitFor({ timeout: 20000 });
    await a.locator('.felt').waitFor({ timeout: 20000 });

    // Around the felt: the bots by their names for players, the internal name as the tooltip.
    await a.waitForFunction(() => document.querySelectorAll('.seat .seat-name').length === 4, null, { timeout: 20000 });
    const seatNames = await a.locator('.seat .seat-name').evaluateAll((els) => els.map((e) => ({
      seat: Number(e.closest('.seat')?.getAttribute('data-seat')), text: e.textContent?.trim(), title: e.getAttribute('title'),
    })));
    log(`the seats: ${JSON.stringify(seatNames)}`);
    const bySeat = Object.fromEntries(seatNames.map((x) => [x.seat, x]));
    assert(bySeat[1].text === 'Beginner' && bySeat[1].title === 'random', `seat 2 is the Beginner: ${JSON.stringify(bySeat[1])}`);
    assert(bySeat[2].text === 'Club player' && bySeat[2].title === 'heuristic', `seat 3 is the Club player: ${JSON.stringify(bySeat[2])}`);
    assert(bySeat[3].text === 'Bo' && bySeat[0].text === 'Rui', `the people by their names: ${JSON.stringify(seatNames)}`);
    assert(!seatNames.some((x) => /^Bot \d/.test(x.text ?? '')), `no "Bot N" at the table: ${JSON.stringify(seatNames)}`);

    // Both people play the hand (a redeal plays another), each on his own page.
    const [overA, overB] = await Promise.all([playMadiaoMatch(a), playMadiaoMatch(b)]);
    assert(overA && overB, 'the rated match is over on both pages');

    // The final score: each person's change in the row of his chips, on the same line.
    const stored = await (await a.request.get(`/api/tables/${id}/ratings`)).json();
    assert(stored.changes.length === 2, `two people rated: ${JSON.stringify(stored)}`);
    for (const [page, who] of [[a, 'Rui'], [b, 'Bo']]) {
      await page.locator('.hand-end table.match-score .rating-change').nth(1).waitFor({ timeout: 15000 });
      const places = await changePlaces(page, 'td.chips');
      log(`${who}'s page: ${JSON.stringify(places.map((p) => [p.rowSeat, p.score, p.text, p.title]))}`);
      assert(places.length === 2, `two changes on ${who}'s page: ${JSON.stringify(places)}`);
      for (const c of stored.changes) {
        const p = places.find((x) => x.seat === c.seat);
        const delta = Math.round(c.rating_after) - Math.round(c.rating_before);
        assert(p, `seat ${c.seat + 1}'s change is shown on ${who}'s page`);
        assert(p.rowSeat === String(c.seat), `seat ${c.seat + 1}'s change is in his own row (row ${p.rowSeat})`);
        assert(p.score !== null && /^[+−]?\d+$/.test(p.score), `the row holds his final chips: ${p.score}`);
        assert(p.delta === delta && delta !== 0 && p.text.startsWith(signedText(delta)), `the change ${signedText(delta)}: ${p.text}`);
        assert(p.after === Math.round(c.rating_after) && p.text.includes(String(Math.round(c.rating_after))), `the new rating ${Math.round(c.rating_after)}: ${p.text}`);
        assert(p.title.includes(`${Math.round(c.rating_before)} → ${Math.round(c.rating_after)}`), `the tooltip has before and after: ${p.title}`);
        assert(sameLine(p), `seat ${c.seat + 1}'s change is on the line of his score: ${JSON.stringify([p.change, p.scoreBox])}`);
        assert(p.inView, `seat ${c.seat + 1}'s change is within the page's width`);
      }
      // The bots' rows have no rating; their names are for players, with the internal tooltip.
      const rows = await page.locator('.hand-end table.match-score tbody tr').evaluateAll((trs) => trs.map((tr) => ({
        seat: tr.getAttribute('data-seat'), who: tr.querySelector('td.who')?.textContent?.trim(), title: tr.querySelector('td.who')?.getAttribute('title') ?? null,
        rating: tr.querySelector('td.rating')?.textContent?.trim() ?? null,
      })));
      assert(rows[1].who === 'Beginner' && rows[1].title === 'random' && rows[1].rating === '', `the Beginner's row: ${JSON.stringify(rows[1])}`);
      assert(rows[2].who === 'Club player' && rows[2].title === 'heuristic' && rows[2].rating === '', `the Club player's row: ${JSON.stringify(rows[2])}`);
      assert(/each opponent/.test(await page.locator('.hand-end .final-score-box .won-explained').innerText()), 'the end says what won means');
      await snap(page, `rated-end-${who}`);
    }

    // On a phone held upright too: each change on the line of his chips, inside the screen.
    await b.setViewportSize({ width: 360, height: 740 });
    await b.locator('.hand-end table.match-score').scrollIntoViewIfNeeded();
    for (const p of await changePlaces(b, 'td.chips')) {
      assert(sameLine(p) && p.inView, `at 360 px, seat ${p.seat + 1}'s change is on the line of his score, on screen: ${JSON.stringify(p)}`);
    }
    await snap(b, 'rated-end-phone');
    await b.setViewportSize({ width: 1366, height: 768 });

    // The events name the bots for players.
    await a.locator('.hand-end button', { hasText: 'Hide' }).click();
    await a.locator('.side .tabs button', { hasText: 'Events' }).click();
    const events = await a.locator('.side .log').innerText();
    assert(/Beginner/.test(events) && /Club player/.test(events) && !/\bBot \d/.test(events), `the events name the bots: ${events.slice(0, 300)}`);

    // In 简体中文: the seats and the final score name the bots in Chinese.
    await b.locator('header button[data-action="lang"]').click();
    await b.waitForFunction(() => document.documentElement.lang === 'zh-CN' || document.querySelector('header button[data-action="lang"]')?.textContent?.trim() === 'English', null, { timeout: 5000 });
    const zhRows = await b.locator('.hand-end table.match-score td.who').allInnerTexts();
    assert(zhRows[1] === '新手' && zhRows[2] === '俱乐部水平', `the bots in Chinese: ${zhRows}`);
    const zhSeats = await b.locator('.seat .seat-name').allInnerTexts();
    assert(zhSeats.includes('新手') && zhSeats.includes('俱乐部水平') && !zhSeats.some((n) => /机器人\d/.test(n)), `the seats in Chinese: ${zhSeats}`);
    await snap(b, 'rated-end-zh');

    // My games and the replay: the bots by their names for players, the tooltip internal.
    await a.locator('header a[data-nav="account"]').click();
    const mine = a.locator(`.my-games li[data-game="${id}"]`);
    await mine.waitFor({ timeout: 15000 });
    const opponents = await mine.locator('.player').evaluateAll((els) => els.map((e) => [e.textContent?.trim(), e.getAttribute('title')]));
    assert(JSON.stringify(opponents) === JSON.stringify([['Beginner', 'random'], ['Club player', 'heuristic'], ['Bo', null]]), `My games' players: ${JSON.stringify(opponents)}`);
    assert(/Beginner [+−]?\d/.test(await mine.locator('.final-score').innerText()), 'My games\' score names the Beginner');
    await a.goto(`/replay/${id}`);
    await a.locator('.replay-body .seat .seat-name').first().waitFor({ timeout: 15000 });
    const replayNames = await a.locator('.replay-body .seat .seat-name').evaluateAll((els) => els.map((e) => [e.textContent?.trim(), e.getAttribute('title')]));
    assert(replayNames.some(([n, tip]) => n === 'Beginner' && tip === 'random') && replayNames.some(([n, tip]) => n === 'Club player' && tip === 'heuristic'), `the replay's seats: ${JSON.stringify(replayNames)}`);
    assert(!(await a.locator('.replay-head').innerText()).includes('bot:'), 'the replay\'s title names no bot by its id');
    assert(problems.length === 0, `no console problems: ${problems.join('; ')}`);
  } finally {
    await browser.close();
    proc.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a rated Da Bai Fen final score: each person\'s change in his partnership\'s row, beside its rank', { timeout: 120000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'yezi-rated-end-dbf-'));
  const { proc, base } = await startServer(dir);
  const browser = await launchBrowser();
  try {
    for (const viewport of [{ width: 1366, height: 657 }, { width: 360, height: 740 }]) {
      const ctx = await browser.newContext({ baseURL: base, viewport });
      const page = await watchedPage(ctx, `rated-end-dbf-${viewport.width}`);
      await page.goto('/');
      // The page's own MatchScore, given a finished match (team B won at the Ace) and two people's
      // rating changes, one in each partnership, drawn into the page.
      await page.evaluate(async () => {
        const { html, render } = await import('/vendor/preact-htm.js');
        const { MatchScore } = await import('/js/hand_end.js');
        const box = document.createElement('div');
        box.className = 'hand-end-card';
        box.style.cssText = 'position: fixed; top: 0; left: 0; right: 0; z-index: 99';
        document.body.append(box);
        const match = { hands: 9, ranks: ['9', 'A'], deals_won: [3, 6], next_starter: 1, over: true, winner: 1 };
        const ratings = [
          { seat: 0, name: 'Rui', rating_before: 1500, rating_after: 1478.4, outcome: 'loss', forfeited: false },
          { seat: 1, name: 'Bo', rating_before: 1500, rating_after: 1521.7, outcome: 'win', forfeited: false },
        ];
        render(html`<${MatchScore} game="dabaifen" match=${match} names=${['Rui', 'Bo', 'Strong', 'Expert']} stake=${2}
          tips=${[undefined, undefined, 'pimc', 'expert']} ratings=${ratings} />`, box);
      });
      const places = await changePlaces(page, 'td.rank');
      log(`Da Bai Fen at ${viewport.width}: ${JSON.stringify(places.map((p) => [p.rowTeam, p.score, p.text]))}`);
      assert(places.length === 2, `two changes: ${JSON.stringify(places)}`);
      const rui = places.find((p) => p.seat === 0);
      const bo = places.find((p) => p.seat === 1);
      assert(rui && rui.rowTeam === '0' && rui.text.startsWith('Rui −22') && rui.text.includes('1478'), `Rui's change in team A's row: ${JSON.stringify(rui)}`);
      assert(bo && bo.rowTeam === '1' && bo.text.startsWith('Bo +22') && bo.text.includes('1522'), `Bo's change in team B's row: ${JSON.stringify(bo)}`);
      for (const p of places) {
        assert(sameLine(p), `seat ${p.seat + 1}'s change is on the line of his partnership's rank: ${JSON.stringify([p.change, p.scoreBox])}`);
        assert(p.inView, `seat ${p.seat + 1}'s change is within the page's width`);
      }
      await snap(page, `rated-end-dbf-${viewport.width}`);
      await ctx.close();
    }
    assert(problems.length === 0, `no console problems: ${problems.join('; ')}`);
  } finally {
    await browser.close();
    proc.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
});
