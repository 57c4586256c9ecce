// A node that fails under a player (issue 32, item 1). Two nodes on one PostgreSQL database and a
// bus (Redis when YEZI_TEST_REDIS_URL is set, else PostgreSQL's LISTEN/NOTIFY), behind a small
// balancer that sends each new connection to the first node that takes it: the player's table
// runs on node A and he reaches it through A; A is killed on his turn; the page, never reloaded,
// must play his move within 7 s (it enters the table again through B, which claims the table
// once A's lease is out). And a single node stopped (SIGSTOP) while a move is on its way: the
// move goes unanswered, the page unlocks the hand with a notice, and plays once the node is back.
// Needs YEZI_TEST_POSTGRES_URL (./test.sh exports it) for the first test.

import { test } from 'node:test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { balancer, clickMadiaoTurn, leaves, node, untilMyTurn } from '../lib/cluster.mjs';
import { assert, createTable, enterName, expect, launchBrowser, log, problems, sleep, snap, startServer, tableState, watchedPage } from '../lib/harness.mjs';

test('a player whose node is killed plays his next move within 7 s, without a reload', { timeout: 180000 }, async (t) => {
  const pg = process.env.YEZI_TEST_POSTGRES_URL;
  if (!pg) {
    t.skip('YEZI_TEST_POSTGRES_URL is not set (./test.sh starts PostgreSQL)');
    return;
  }
  const psql = join(process.env.YEZI_TEST_PG_BIN ?? '/usr/lib/postgresql/15/bin', 'psql');
  const db = `failover_${Date.now()}_${process.pid}`;
  const made = spawnSync(psql, [pg, '-c', `CREATE DATABASE ${db}`], { encoding: 'utf8' });
  assert(made.status === 0, `CREATE DATABASE: ${made.stderr}`);
  const dbUrl = pg.replace(/\/[^/]*$/, `/${db}`);
  const bus = process.env.YEZI_TEST_REDIS_URL ?? 'postgres';
  log(`two nodes on ${db}, bus ${bus.startsWith('redis') ? 'Redis' : 'PostgreSQL'}`);
  // The balancer first: the nodes are told its address (their pages' origin).
  /** @type {number[]} */
  const ports = [];
  const lb = await balancer(ports);
  const a = await node(['--db', dbUrl, '--bus', bus, '--public-url', lb.base], 300);
  const b = await node(['--db', dbUrl, '--bus', bus, '--public-url', lb.base], 300);
  ports.push(a.port, b.port);
  const browser = await launchBrowser();
  try {
    const page = await watchedPage(await browser.newContext({ viewport: { width: 1280, height: 900 } }), 'failover');
    await page.goto(lb.base);
    await enterName(page, 'Ann');
    // Made through A (the balancer's first choice): A runs the table, and Ann reaches it there.
    await createTable(page, 'madiao', { clock: '120' });
    let s = await untilMyTurn(page, 90000);
    await page.evaluate(() => { /** @type {any} */ (window).notReloaded = true; });
    await snap(page, 'failover-before-kill');
    // A dies on Ann's turn.
    expect.serverDown = true;
    a.proc.kill('SIGKILL');
    const killed = Date.now();
    log('node A killed');
    let played = null;
    while (Date.now() - killed < 20000) {
      s = await tableState(page);
      if (s.legal === 'actions' && s.legalCards.length) {
        const card = await clickMadiaoTurn(page, s);
        if (await leaves(page, card, 1000)) {
          played = Date.now() - killed;
          break;
        }
      } else await sleep(50);
    }
    await snap(page, 'failover-after');
    assert(played !== null, 'the page never played after the kill');
    log(`the page played ${played} ms after node A was killed`);
    assert(await page.evaluate(() => /** @type {any} */ (window).notReloaded === true), 'the page was reloaded');
    assert(played <= 7000, `the page played ${played} ms after the kill (target 7 s)`);
    // The table plays on: the bots answer, and the page's next turn comes.
    await untilMyTurn(page, 30000);
  } finally {
    expect.serverDown = false;
    await browser.close();
    lb.server.close();
    a.proc.kill('SIGKILL');
    b.proc.kill('SIGTERM');
    await sleep(500);
    spawnSync(psql, [pg, '-c', `DROP DATABASE IF EXISTS ${db} WITH (FORCE)`]);
  }
  assert(problems.length === 0, `no console errors or warnings: ${problems.join('\n')}`);
});

test('a move that gets no answer unlocks the hand with a notice; played again once the node is back', { timeout: 180000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'yezi-stall-'));
  const { proc, base } = await startServer(dir, '127.0.0.1:0', ['--bot-delay-ms', '300']);
  const browser = await launchBrowser();
  try {
    const page = await watchedPage(await browser.newContext({ viewport: { width: 1280, height: 900 } }), 'stall');
    let acts = 0;
    page.on('websocket', (ws) => ws.on('framesent', (f) => { if (/"type":"act"/.test(String(f.payload))) acts += 1; }));
    await page.goto(base);
    await enterName(page, 'Bo');
    await createTable(page, 'madiao', { clock: '120' });
    const s = await untilMyTurn(page, 90000);
    // The node stops (a pause, a stalled machine): the move goes out and nothing comes back.
    proc.kill('SIGSTOP');
    const stopped = Date.now();
    const card = await clickMadiaoTurn(page, s);
    await page.waitForFunction(() => [...document.querySelectorAll('.notices .notice')].some((n) => /no answer/.test(n.textContent ?? '')), null, { timeout: 6000 });
    const noticed = Date.now() - stopped;
    log(`the unanswered move was noticed after ${noticed} ms`);
    await snap(page, 'stall-notice');
    assert((await tableState(page)).hand.includes(card), 'the card is still in the hand');
    assert(acts === 1, `one move sent: ${acts}`);
    // Unlocked: the same move can be sent again (a locked hand sends nothing).
    await clickMadiaoTurn(page, await tableState(page));
    await sleep(300);
    assert(acts === 2, `the hand is unlocked: the move was sent again (${acts} sent)`);
    proc.kill('SIGCONT');
    // The hand is unlocked: the move is played again (the page asked for the state; its socket
    // may have been given up and the table entered again).
    const deadline = Date.now() + 30000;
    let again = false;
    while (!again && Date.now() < deadline) {
      const now = await tableState(page);
      if (now.legal === 'actions' && now.legalCards.length) {
        const c = await clickMadiaoTurn(page, now);
        again = await leaves(page, c, 2000);
      } else await sleep(100);
    }
    assert(again, 'the move was not played once the node was back');
  } finally {
    proc.kill('SIGCONT');
    await browser.close();
    proc.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
  assert(problems.length === 0, `no console errors or warnings: ${problems.join('\n')}`);
});
