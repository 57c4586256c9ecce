// The notices socket (web/js/notices.js), over a fake WebSocket with mocked timers: it says
// `hello`, hands on the notices, comes back after a close, and stays closed once the server says
// the session is over (it would only be refused again).
import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import { openNotices } from '../../web/js/notices.js';

class FakeSocket {
  static OPEN = 1;
  static CONNECTING = 0;
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
}

function setup() {
  FakeSocket.all = [];
  globalThis.WebSocket = /** @type {any} */ (FakeSocket);
  globalThis.location = /** @type {any} */ ({ protocol: 'http:', host: 'x' });
  mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
  const log = { notices: [], status: [] };
  const n = openNotices({ token: 'k', onNotice: (x) => log.notices.push(x.type), onStatus: (up) => log.status.push(up) });
  return { n, log };
}

test('notices are handed on; a closed socket comes back', () => {
  const { n, log } = setup();
  try {
    const ws = FakeSocket.all[0];
    ws.open();
    assert.deepEqual(ws.sent, [{ type: 'hello', token: 'k' }]);
    ws.hear({ type: 'welcome' });
    ws.hear({ type: 'challenge', id: 'c1' });
    ws.hear({ type: 'friend', username: 'bo' });
    assert.deepEqual(log.notices, ['challenge', 'friend']);
    ws.close();
    mock.timers.tick(10000);
    assert.equal(FakeSocket.all.length, 2, 'a new socket after the close');
    assert.deepEqual(log.status, [true, false]);
    n.close();
  } finally {
    mock.timers.reset();
  }
});

for (const code of ['signed_out', 'bad_token']) {
  test(`after ${code} it stays closed`, () => {
    const { n, log } = setup();
    try {
      const ws = FakeSocket.all[0];
      ws.open();
      ws.hear({ type: 'error', code, message: 'over' });
      assert.equal(ws.readyState, 3, 'closed');
      mock.timers.tick(60000);
      assert.equal(FakeSocket.all.length, 1, 'no new socket');
      assert.deepEqual(log.status, [], 'not reported down: nothing will come back');
      n.close();
    } finally {
      mock.timers.reset();
    }
  });
}

test('another error leaves it open', () => {
  const { n, log } = setup();
  try {
    const ws = FakeSocket.all[0];
    ws.open();
    ws.hear({ type: 'welcome' });
    ws.hear({ type: 'error', code: 'rate_limited', message: 'slow' });
    assert.equal(ws.readyState, 1, 'still open');
    assert.deepEqual(log.status, [true]);
    n.close();
  } finally {
    mock.timers.reset();
  }
});
