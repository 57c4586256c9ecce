// The cluster scenarios' pieces (node_failover, node_drain): a `yezi serve` node as a child
// process, a TCP balancer in front of the nodes, and a player's Madiao turns clicked on the page.

import { spawn } from 'node:child_process';
import { createServer, connect } from 'node:net';
import { createInterface } from 'node:readline';
import { bin, sleep, tableState } from './harness.mjs';

/**
 * `yezi serve` with `args` (besides the address and the timings), its bots waiting `botDelayMs`;
 * its process and port.
 * @param {string[]} args
 * @param {number} botDelayMs
 */
export async function node(args, botDelayMs) {
  const all = [
    'serve', '--addr', '127.0.0.1:0',
    '--draw-ms', '60', '--window-ms', '1500', '--bot-delay-ms', String(botDelayMs), '--pause-ms', '60000', '--trick-ms', '200',
    '--guests-per-ip', '1000', ...args,
  ];
  if (process.env.YEZI_WEB_DIR) all.push('--web-dir', process.env.YEZI_WEB_DIR);
  const proc = spawn(bin, all, { stdio: ['ignore', 'pipe', 'pipe'] });
  proc.stderr.on('data', (d) => process.stderr.write(`[yezi] ${d}`));
  // A cluster member says so first; the address follows.
  // The deadline is cleared once the address is named (an armed timer holds the process open).
  let deadline;
  const m = await new Promise((res, rej) => {
    const lines = createInterface({ input: proc.stdout });
    lines.on('line', (line) => {
      const found = /http:\/\/[0-9.]+:(\d+)\//.exec(line);
      if (found) res(found);
    });
    proc.once('exit', (code) => rej(new Error(`yezi serve exited with ${code}`)));
    deadline = setTimeout(() => rej(new Error('yezi serve named no address in 30 s')), 30000);
  }).finally(() => clearTimeout(deadline));
  return { proc, port: Number(m[1]) };
}

/** A TCP balancer on loopback: each connection goes to the first of `ports` (as they are then) that accepts it. */
export async function balancer(ports) {
  const server = createServer((client) => {
    client.pause();
    client.on('error', () => {});
    const attempt = (i) => {
      if (i >= ports.length) {
        client.destroy();
        return;
      }
      let joined = false;
      const up = connect(ports[i], '127.0.0.1');
      up.once('connect', () => {
        joined = true;
        client.pipe(up);
        up.pipe(client);
        client.resume();
      });
      up.on('error', () => {
        if (!joined) attempt(i + 1);
        else client.destroy();
      });
      up.on('close', () => { if (joined) client.destroy(); });
      client.on('close', () => up.destroy());
    };
    attempt(0);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const addr = /** @type {import('node:net').AddressInfo} */ (server.address());
  return { server, base: `http://127.0.0.1:${addr.port}` };
}

/** Waits until `card` has left the hand (played); false if it has not in `ms`. */
export async function leaves(page, card, ms) {
  try {
    await page.waitForFunction((c) => !document.querySelector(`.hand .card[data-card="${c}"]`), card, { timeout: ms });
    return true;
  } catch {
    return false;
  }
}

/** Clicks the Madiao move the page offers (a lead or capture face up, else face down); the card. */
export async function clickMadiaoTurn(page, s) {
  const card = s.selected[0] ?? s.legalCards[0];
  // A card already chosen stays chosen (a second click would put it back).
  if (!s.selected.includes(card)) await page.locator(`.hand .card[data-card="${card}"]`).click({ timeout: 2000 }).catch(() => {});
  const b = (await tableState(page)).buttons;
  const choice = ['lead', 'capture', 'slough'].find((x) => b.includes(x)) ?? b[0];
  if (choice) await page.locator(`.prompt button[data-action="${choice}"]`).first().click({ timeout: 2000 }).catch(() => {});
  return card;
}

/** Plays until it is the page's turn in the play, with a card to play; the table's state then. */
export async function untilMyTurn(page, ms) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const s = await tableState(page);
    if (s.legal === 'actions' && s.legalCards.length) return s;
    if (s.handEnd) await page.locator('button[data-action="next"]').click({ timeout: 2000 }).catch(() => {});
    else if (s.legal === 'redeal') await page.locator('.prompt button[data-action="keep"]').click({ timeout: 2000 }).catch(() => {});
    await sleep(50);
  }
  throw new Error('never the page’s turn');
}
