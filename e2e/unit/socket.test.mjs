// The table's socket (web/js/socket.js) when a cluster's node dies or stalls under it: the
// reconnection delays, what it does with each error, and, over a fake WebSocket with mocked
// timers, that it enters the table again after `unavailable`, a silent entry or a silent ping,
// and that a move refused or unanswered unlocks the hand and asks for a fresh `sync`.
import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import {
  backoff, errorAction, TableSocket, BACKOFF_MAX, ENTRY_WAIT, MOVE_WAIT, PING_EVERY, PONG_WAIT,
} from '../../web/js/socket.js';

test('the delays double from 0.5 s to 5 s, each drawn between half and the whole', () => {
  const low = [0, 1, 2, 3, 4, 5, 6, 20].map((n) => backoff(n, () => 0));
  const high = [0, 1, 2, 3, 4, 5, 6, 20].map((n) => backoff(n, () => 0.999999));
  assert.deepEqual(low, [250, 500, 1000, 2000, 2500, 2500, 2500, 2500]);
  assert.deepEqual(high, [500, 1000, 2000, 4000, 5000, 5000, 5000, 5000]);
  // Seeded draws stay within the bounds.
  let seed = 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (let n = 0; n < 50; n++) {
    const d = backoff(n, rand);
    const full = Math.min(BACKOFF_MAX, 500 * 2 ** n);
    assert.ok(d >= full / 2 && d <= full, `attempt ${n}: ${d}`);
  }
});

test('unavailable, and no_table at a table seen, enter again; a refused move asks for the state', () => {
  const at = (o) => ({ entering: false, seen: true, moving: false, ...o });
  assert.equal(errorAction('unavailable', at({ entering: true })), 'reenter');
  assert.equal(errorAction('unavailable', at({ moving: true })), 'reenter');
  assert.equal(errorAction('unavailable', at({})), 'page'); // a rematch refused, say
  assert.equal(errorAction('no_table', at({ entering: true })), 'reenter');
  assert.equal(errorAction('no_table', at({ entering: true, seen: false })), 'page');
  assert.equal(errorAction('storage', at({ moving: true })), 'resync');
  assert.equal(errorAction('stale', at({ moving: true })), 'resync');
  assert.equal(errorAction('storage', at({})), 'page');
  assert.equal(errorAction('bad_token', at({ moving: true })), 'fatal');
});

/** A WebSocket that records what the page sends; the test opens it and speaks for the server. */
class FakeSocket {
  static OPEN = 1;
  /** @type {FakeSocket[]} */
  static all = [];
  constructor(url) {
    this.url = url;
    this.readyState = 0;
    this.sent = [];
    FakeSocket.all.push(this);
  }
  send(text) { this.sent.push(JSON.parse(text)); }
  close() {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.onclose && this.onclose();
  }
  open() { this.readyState = 1; this.onopen(); }
  hear(msg) { this.onmessage({ data: JSON.stringify(msg) }); }
  types() { return this.sent.map((m) => m.type); }
}

function setup() {
  FakeSocket.all = [];
  globalThis.WebSocket = /** @type {any} */ (FakeSocket);
  globalThis.location = /** @type {any} */ ({ protocol: 'http:', host: 'x' });
  mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
  const log = { stalls: [], messages: [] };
  const s = new TableSocket({
    table: 't1', token: 'k', mode: 'join', seat: null,
    onMessage: (m) => log.messages.push(m),
    onStatus: () => {},
    onStall: (why) => log.stalls.push(why),
  });
  return { s, log };
}

/** Opens the newest socket and lets it enter the table (its `sync` at version `v`). */
function enter(v = 10) {
  const ws = FakeSocket.all.at(-1);
  ws.open();
  ws.hear({ type: 'welcome' });
  ws.hear({ type: 'sync', v });
  return ws;
}

test('an entry answered unavailable, or not answered, enters again on a new socket', () => {
  const { s } = setup();
  try {
    const ws = FakeSocket.all[0];
    ws.open();
    ws.hear({ type: 'welcome' });
    assert.deepEqual(ws.types(), ['hello', 'join']);
    ws.hear({ type: 'error', code: 'unavailable', message: 'its node did not answer' });
    assert.equal(ws.readyState, 3, 'the socket is given up');
    mock.timers.tick(BACKOFF_MAX);
    assert.equal(FakeSocket.all.length, 2, 'a new socket after the delay');
    const ws2 = FakeSocket.all[1];
    ws2.open();
    ws2.hear({ type: 'welcome' });
    assert.deepEqual(ws2.types(), ['hello', 'join']);
    // This one's entry goes unanswered.
    mock.timers.tick(ENTRY_WAIT);
    assert.equal(ws2.readyState, 3);
    mock.timers.tick(BACKOFF_MAX);
    assert.equal(FakeSocket.all.length, 3);
    enter();
    assert.equal(s.seen, true);
  } finally {
    s.close();
    mock.timers.reset();
  }
});

test('a move unanswered unlocks the hand and asks for the state; a silent socket is left', () => {
  const { s, log } = setup();
  try {
    const ws = enter();
    s.send({ type: 'act', action: { play: '1C' }, move: 3 });
    mock.timers.tick(MOVE_WAIT - 1);
    assert.deepEqual(log.stalls, []);
    mock.timers.tick(1);
    assert.deepEqual(log.stalls, ['unanswered']);
    assert.equal(ws.types().at(-1), 'resync');
    // The resync goes unanswered too: the socket is given up, and the table entered again.
    mock.timers.tick(MOVE_WAIT);
    assert.equal(ws.readyState, 3);
    mock.timers.tick(BACKOFF_MAX);
    assert.equal(FakeSocket.all.length, 2);
    enter(12);
    assert.deepEqual(log.stalls, ['unanswered'], 'one notice');
  } finally {
    s.close();
    mock.timers.reset();
  }
});

test('a move refused with storage unlocks the hand and a fresh sync follows; an answered one does not', () => {
  const { s, log } = setup();
  try {
    const ws = enter();
    s.send({ type: 'act', action: { play: '1C' }, move: 3 });
    ws.hear({ type: 'update', v: 11 });
    mock.timers.tick(MOVE_WAIT * 3);
    assert.deepEqual(log.stalls, [], 'an answered move does not stall');
    s.send({ type: 'act', action: { play: '2C' }, move: 4 });
    ws.hear({ type: 'error', code: 'storage', message: 'the move could not be written', v: 11 });
    assert.deepEqual(log.stalls, ['refused']);
    assert.equal(ws.types().at(-1), 'resync');
    assert.equal(log.messages.at(-1).code, 'storage', 'the page hears the refusal');
    ws.hear({ type: 'sync', v: 11 });
    mock.timers.tick(MOVE_WAIT * 3);
    assert.equal(ws.readyState, 1, 'the socket stays');
  } finally {
    s.close();
    mock.timers.reset();
  }
});

test('a move refused unavailable enters again; a ping unanswered gives the socket up', () => {
  const { s, log } = setup();
  try {
    let ws = enter();
    s.send({ type: 'act', action: { play: '1C' }, move: 3 });
    ws.hear({ type: 'error', code: 'unavailable', message: 'its node could not be reached' });
    assert.deepEqual(log.stalls, ['refused']);
    assert.equal(ws.readyState, 3);
    mock.timers.tick(BACKOFF_MAX);
    ws = enter(11);
    // Pings answered keep the socket; one unanswered leaves it.
    mock.timers.tick(PING_EVERY);
    assert.equal(ws.types().at(-1), 'ping');
    ws.hear({ type: 'pong' });
    mock.timers.tick(PONG_WAIT);
    assert.equal(ws.readyState, 1);
    mock.timers.tick(PING_EVERY - PONG_WAIT);
    mock.timers.tick(PONG_WAIT);
    assert.equal(ws.readyState, 3, 'silent after a ping');
  } finally {
    s.close();
    mock.timers.reset();
  }
});

test('moved enters again at once, with no delay, even after earlier failures', () => {
  const { s } = setup();
  try {
    // Two failed entries first: the next delay would be a second or more.
    for (let i = 0; i < 2; i++) {
      const ws = FakeSocket.all.at(-1);
      ws.open();
      ws.hear({ type: 'welcome' });
      ws.hear({ type: 'error', code: 'unavailable', message: 'its node did not answer' });
      mock.timers.tick(BACKOFF_MAX);
    }
    const ws = enter();
    const before = FakeSocket.all.length;
    ws.hear({ type: 'moved', table: 't1' });
    assert.equal(ws.readyState, 3, 'the socket is given up');
    mock.timers.tick(0);
    assert.equal(FakeSocket.all.length, before + 1, 'a new socket at once');
    const ws2 = enter(12);
    assert.equal(ws2.types()[1], 'join');
    // A close without `moved` waits out the backoff again.
    ws2.close();
    mock.timers.tick(0);
    assert.equal(FakeSocket.all.length, before + 1, 'a plain close waits');
    mock.timers.tick(BACKOFF_MAX);
    assert.equal(FakeSocket.all.length, before + 2);
  } finally {
    s.close();
    mock.timers.reset();
  }
});
