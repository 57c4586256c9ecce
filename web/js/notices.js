// The notices socket (docs/protocol.md, "Friend notices"): a WebSocket that says `hello` and
// nothing else, to hear the `friend`, `challenge` and `invited` notices to the account. It pings
// to stay alive and comes back by itself, with a growing delay, when it closes; the page hears
// whether it is up (to ask the server itself, slowly, only while it is down). A session that is
// over (`bad_token`, `signed_out`) closes it for good.

import { backoff, PING_EVERY } from './socket.js';

/** @typedef {import('./wire').FriendMsg} FriendMsg */
/** @typedef {import('./wire').Challenge} Challenge */
/** @typedef {import('./wire').InvitedMsg} InvitedMsg */
/** @typedef {{type: 'friend'} & FriendMsg | {type: 'challenge'} & Challenge | {type: 'invited'} & InvitedMsg} Notice */

/** The `error` codes that end the session the socket said `hello` with. */
const SESSION_GONE = new Set(['bad_token', 'signed_out']);

/**
 * Opens the notices socket of the account whose session is `token`.
 * @param {{token: string, onNotice: (n: Notice) => void, onStatus: (up: boolean) => void}} opts
 * @returns {{close: () => void}}
 */
export function openNotices(opts) {
  let closed = false;
  let attempt = 0;
  /** @type {WebSocket | null} */
  let ws = null;
  /** @type {ReturnType<typeof setInterval> | null} */
  let pinger = null;
  /** @type {ReturnType<typeof setTimeout> | null} */
  let retry = null;

  const connect = () => {
    if (closed) return;
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const sock = new WebSocket(`${proto}//${location.host}/ws`);
    ws = sock;
    sock.onopen = () => sock.send(JSON.stringify({ type: 'hello', token: opts.token }));
    sock.onmessage = (ev) => {
      /** @type {any} */
      let msg;
      try { msg = JSON.parse(String(ev.data)); } catch { return; }
      if (msg.type === 'welcome') {
        attempt = 0;
        opts.onStatus(true);
      } else if (msg.type === 'friend' || msg.type === 'challenge' || msg.type === 'invited') {
        opts.onNotice(msg);
      } else if (msg.type === 'error' && SESSION_GONE.has(msg.code)) {
        // The session is over (signed out, or unknown to the server): coming back would only be
        // refused again, so the socket stays closed.
        closed = true;
        if (pinger) clearInterval(pinger);
        pinger = null;
        sock.close();
      }
    };
    sock.onclose = () => {
      if (pinger) clearInterval(pinger);
      pinger = null;
      if (closed) return;
      opts.onStatus(false);
      retry = setTimeout(connect, backoff(attempt++));
    };
    // An error is followed by a close, which comes back.
    sock.onerror = () => {};
    pinger = setInterval(() => {
      if (sock.readyState === WebSocket.OPEN) sock.send(JSON.stringify({ type: 'ping' }));
    }, PING_EVERY);
  };
  connect();
  return {
    close() {
      closed = true;
      if (pinger) clearInterval(pinger);
      if (retry) clearTimeout(retry);
      // Closed while still connecting, Chromium warns: it is closed once open instead.
      if (ws && ws.readyState === WebSocket.CONNECTING) {
        const sock = ws;
        sock.onopen = () => sock.close();
      } else if (ws) ws.close();
    },
  };
}
