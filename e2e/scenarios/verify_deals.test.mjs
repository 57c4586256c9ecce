// Browser scenario (headless Chromium against the real yezi binary, a server of this file's own):
// verifiable deals (docs/record.md, "Deal verification"). A table of bots plays a match while the
// page watches: the commitment of each deal reaches the page over the WebSocket before the deal,
// and the finished record reveals the seeds. The replay page says every deal verified, in English
// and in Chinese; a record whose seed was changed is posted and the page names the hand that fails.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { assert, createTable, enterName, launchBrowser, log, problems, snap, startServer, watchedPage } from '../lib/harness.mjs';

test('deals are committed before they are dealt, and the replay page verifies them', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'yezi-e2e-verify-'));
  // Short pauses between hands: a match of bots ends in seconds.
  const { proc, base } = await startServer(dir, '127.0.0.1:0', ['--pause-ms', '1500']);
  const browser = await launchBrowser();
  try {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL: base, locale: 'en-US' });
    const page = await watchedPage(ctx, 'player');
    /** Every server message the page received, in order, and their text. @type {any[]} */
    const got = [];
    /** @type {string[]} */
    const raw = [];
    page.on('websocket', (ws) => ws.on('framereceived', (f) => {
      raw.push(String(f.payload));
      try { got.push(JSON.parse(String(f.payload))); } catch { /* not JSON */ }
    }));
    await page.goto('/');
    await enterName(page, 'Ann');
    await page.locator('.new-table').waitFor();
    const bot = await page.locator('select[name="seat0"] option[value^="bot:"]').first().getAttribute('value');
    const table = await createTable(page, 'madiao', { seat0: bot, variants: { game_length: 'hands:2' }, name: 'Fair deals' });
    log(`bot table ${table}`);
    await page.waitForFunction(() => document.querySelector('.table-page')?.getAttribute('data-status') === 'finished', null, { timeout: 240000 });

    // The record reveals each hand's seed with the commitment the seats were sent.
    // (Seeds are 64-bit: read and written as text, which JavaScript's numbers would round.)
    const text = await (await page.request.get(`/api/records/${table}`)).text();
    const rec = JSON.parse(text.replace(/"seed":\s*(\d+)/g, '"seed": "$1"'));
    const write = (/** @type {any} */ r) => JSON.stringify(r).replace(/"seed":"(\d+)"/g, '"seed":$1');
    assert(rec.table === table, `the record names its table: ${rec.table}`);
    assert(rec.hands.length >= 2, `two hands at least: ${rec.hands.length}`);
    for (const [k, h] of rec.hands.entries()) {
      assert(/^\d+$/.test(h.seed) && /^[0-9a-f]{64}$/.test(h.commitment), `hand ${k} has its seed and commitment`);
    }
    // What the page heard: a `deal` message before the update that dealt its hand, with the
    // record's commitment, and never a seed before the match ended.
    const deals = got.filter((m) => m.type === 'deal');
    assert(deals.length >= 1, `the page was sent commitments: ${got.map((m) => m.type).join(' ')}`);
    for (const d of deals) {
      assert(rec.hands[d.hand]?.commitment === d.commitment, `hand ${d.hand}'s commitment is the record's`);
      const at = got.indexOf(d);
      const dealt = got.findIndex((m) => m.type === 'update' && m.hand === d.hand && m.view);
      assert(dealt > at, `hand ${d.hand}: the commitment (${at}) came before the deal (${dealt})`);
    }
    const heard = raw.join('\n');
    for (const h of rec.hands) assert(!heard.includes(h.seed), `the seed ${h.seed} never reached the page`);

    // The replay page verifies every deal.
    await page.goto(`/replay/${table}`);
    await page.locator('.deals-check[data-deals="verified"]').waitFor({ timeout: 15000 });
    const ok = await page.locator('.deals-check').textContent();
    assert(/Every deal verified/.test(ok ?? '') && ok?.includes(String(rec.hands.length)), `verified: ${ok}`);
    await snap(page, 'verify-deals-verified');

    // The same page in Chinese.
    const zhCtx = await browser.newContext({ viewport: { width: 390, height: 844 }, baseURL: base, locale: 'zh-CN' });
    const zh = await watchedPage(zhCtx, 'zh');
    await zh.goto('/');
    await enterName(zh, '小明');
    await zh.goto(`/replay/${table}`);
    await zh.locator('.deals-check[data-deals="verified"]').waitFor({ timeout: 15000 });
    const zhText = await zh.locator('.deals-check').textContent();
    assert(/每一手牌都已验证/.test(zhText ?? ''), `verified, in Chinese: ${zhText}`);
    await snap(zh, 'verify-deals-zh');

    // A record whose second hand's seed was changed: it still replays (replay plays the deck),
    // and the page names hand 2 (the hand list's numbering) as failing, deck and commitment.
    const tampered = structuredClone(rec);
    tampered.hands[1].seed = String(BigInt(rec.hands[1].seed) + 1n);
    const file = join(dir, 'tampered.json');
    writeFileSync(file, write(tampered));
    await page.goto('/replay');
    await page.locator('input[type=file]').setInputFiles(file);
    await page.locator('.deals-check[data-deals="failed"]').waitFor({ timeout: 15000 });
    assert((await page.locator('.deals-check').getAttribute('data-hands')) === '2', 'hand 2 fails, alone');
    const faults = await page.locator('.deals-check li').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-hand')}:${e.getAttribute('data-fault')}`));
    assert(JSON.stringify(faults) === JSON.stringify(['1:deck', '1:commitment']), `the faults: ${faults}`);
    const bad = await page.locator('.deals-check').textContent();
    assert(/fails for hand 2/.test(bad ?? '') && /deck is not the one its seed deals/.test(bad ?? ''), `named: ${bad}`);
    await page.locator('.replay-body').waitFor({ timeout: 15000 });
    await snap(page, 'verify-deals-tampered');

    // A changed commitment alone (the first hand's) in Chinese.
    const recommitted = structuredClone(rec);
    const c = rec.hands[0].commitment;
    recommitted.hands[0].commitment = (c[0] === '0' ? '1' : '0') + c.slice(1);
    const file2 = join(dir, 'recommitted.json');
    writeFileSync(file2, write(recommitted));
    await zh.goto('/replay');
    await zh.locator('input[type=file]').setInputFiles(file2);
    await zh.locator('.deals-check[data-deals="failed"]').waitFor({ timeout: 15000 });
    const zhBad = await zh.locator('.deals-check').textContent();
    assert(/第1手：承诺与其种子不符/.test(zhBad ?? ''), `named, in Chinese: ${zhBad}`);
    await snap(zh, 'verify-deals-zh-tampered');
  } finally {
    await browser.close();
    proc.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
  assert(problems.length === 0, `no console errors or warnings: ${problems.join('\n')}`);
});
