// One table's WebSocket (docs/protocol.md, "The WebSocket"): `hello`, then `join` or `watch`;
// versions checked (a gap asks for a `resync`); reconnects by itself with a growing delay and
// joins again, which gives back the same seat and a fresh `sync`; pings to stay alive.

/** @typedef {import('./wire').ServerMsg} ServerMsg */
/** @typedef {import('./wire').ClientMsg} ClientMsg */
/** @typedef {'connecting' | 'open' | 'reconnecting' | 'closed'} SocketStatus */

/**
 * @typedef {object} SocketOptions
 * @property {string} table the table's id
 * @property {string} token the guest's token
 * @property {'join' | 'watch'} mode
 * @property {number | null} [seat] the seat wanted when joining
 * @property {(msg: ServerMsg) => void} onMessage every message to act on (after the version check)
 * @property {(status: SocketStatus, attempt: number) => void} onStatus
 */

/** The delay before reconnection attempt `n` (from 0): 0.5 s doubling to 10 s. @param {number} n */
export function backoff(n) {
  return Math.min(10000, 500 * 2 ** Math.min(n, 5));
}

/**
 * Whether a message with version `v` follows `last` without a gap. Events (`update`, `seats`,
 * `chat`, `host`) increase the version by exactly one; replies (`ack`, `error`) carry it unchanged.
 * @param {string} type @param {number | undefined} v @param {number | null} last
 * @returns {'ok' | 'gap' | 'stale'}
 */
export function versionCheck(type, v, last) {
  if (v === undefined || last === null) return 'ok';
  if (type === 'update' || type === 'seats' || type === 'chat' || type === 'host') {
    if (v === last + 1) return 'ok';
    return v <= last ? 'stale' : 'gap';
  }
  return 'ok';
}

export class TableSocket {
  /** @param {SocketOptions} opts */
  constructor(opts) {
    this.opts = opts;
    /** @type {WebSocket | null} */
    this.ws = null;
    /** @type {number | null} */
    this.v = null;
    this.attempt = 0;
    this.closed = false;
    this.awaitingSync = false;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.retry = null;
    /** @type {ReturnType<typeof setInterval> | null} */
    this.pinger = null;
    /** @type {'join' | 'watch'} */
    this.mode = opts.mode;
    this.connect();
  }

  connect() {
    if (this.closed) return;
    this.opts.onStatus(this.attempt === 0 ? 'connecting' : 'reconnecting', this.attempt);
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}/ws`);
    this.ws = ws;
    ws.onopen = () => {
      this.send({ type: 'hello', token: this.opts.token });
    };
    ws.onmessage = (ev) => {
      /** @type {ServerMsg} */
      let msg;
      try {
        msg = JSON.parse(String(ev.data));
      } catch {
        return;
      }
      this.receive(msg);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.stopPing();
      this.ws = null;
      if (this.closed) return;
      this.opts.onStatus('reconnecting', this.attempt);
      const delay = backoff(this.attempt);
      this.attempt += 1;
      this.retry = setTimeout(() => this.connect(), delay);
    };
    ws.onerror = () => {
      // The close that follows schedules the reconnection.
    };
  }

  /** @param {ServerMsg} msg */
  receive(msg) {
    if (msg.type === 'welcome') {
      if (this.mode === 'join') {
        /** @type {ClientMsg} */
        const join = { type: 'join', table: this.opts.table };
        if (this.opts.seat !== undefined && this.opts.seat !== null) join.seat = this.opts.seat;
        this.send(join);
      } else {
        this.send({ type: 'watch', table: this.opts.table });
      }
      this.opts.onMessage(msg);
      return;
    }
    if (msg.type === 'sync') {
      this.v = msg.v;
      this.awaitingSync = false;
      this.attempt = 0;
      this.startPing();
      this.opts.onStatus('open', 0);
      this.opts.onMessage(msg);
      return;
    }
    if (msg.type === 'error' && (msg.code === 'bad_token' || msg.code === 'signed_out')) {
      this.close();
      this.opts.onMessage(msg);
      return;
    }
    if (msg.type === 'update' || msg.type === 'seats' || msg.type === 'chat') {
      if (this.awaitingSync) return;
      const check = versionCheck(msg.type, msg.v, this.v);
      if (check === 'stale') return;
      if (check === 'gap') {
        this.awaitingSync = true;
        this.send({ type: 'resync' });
        return;
      }
      this.v = msg.v;
    }
    this.opts.onMessage(msg);
  }

  /** @param {ClientMsg} msg @returns {boolean} whether it was sent */
  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  /** After `leave` the connection stays as a spectator: a reconnection watches. */
  watching() {
    this.mode = 'watch';
  }

  startPing() {
    this.stopPing();
    this.pinger = setInterval(() => this.send({ type: 'ping' }), 25000);
  }

  stopPing() {
    if (this.pinger) clearInterval(this.pinger);
    this.pinger = null;
  }

  close() {
    this.closed = true;
    this.stopPing();
    if (this.retry) clearTimeout(this.retry);
    const ws = this.ws;
    this.ws = null;
    if (ws) ws.close();
    this.opts.onStatus('closed', 0);
  }

  /** Drops the connection as a network failure would (for trying reconnection). */
  drop() {
    if (this.ws) this.ws.close();
  }
}
