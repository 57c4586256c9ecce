// One table's WebSocket (docs/protocol.md, "The WebSocket"): `hello`, then `join` or `watch`;
// versions checked (a gap asks for a `resync`); reconnects by itself with a growing delay and
// joins again, which gives back the same seat and a fresh `sync`; pings to stay alive.
// A cluster's node may die or stall under a player (docs/deploy.md): a closed socket, a silent
// one (no `pong`, no answer to an entry), an entry answered `unavailable`, and a `no_table` at a
// table this page has already seen are all met the same way, by entering the table again, on a
// new socket, with a growing, jittered delay, until it answers. A node that leaves in good order
// (it drains) says `moved` first: the table is entered again at once, with no delay. A move
// refused, or not answered in time, unlocks the hand (`onStall`) and asks for a fresh `sync`.

/** @typedef {import('./wire').ServerMsg} ServerMsg */
/** @typedef {import('./wire').ClientMsg} ClientMsg */
/** @typedef {'connecting' | 'open' | 'reconnecting' | 'closed'} SocketStatus */

/**
 * @typedef {object} SocketOptions
 * @property {string} table the table's id
 * @property {string} token the guest's token
 * @property {'join' | 'watch' | 'tv'} mode (`tv`: watching through the delayed stream)
 * @property {number | null} [seat] the seat wanted when joining
 * @property {(msg: ServerMsg) => void} onMessage every message to act on (after the version check)
 * @property {(status: SocketStatus, attempt: number) => void} onStatus
 * @property {(why: 'unanswered' | 'refused') => void} [onStall] a move was not answered in time,
 *   or was refused: the page unlocks its hand (a fresh `sync` follows)
 */

/** The first delay before entering again (ms); it doubles each attempt… */
export const BACKOFF_FIRST = 500;
/** …up to this (ms). */
export const BACKOFF_MAX = 5000;
/** How long an entry (`join`, `watch`) may wait for its `sync` before the socket is given up (ms). */
export const ENTRY_WAIT = 8000;
/** How long a move may wait for its answer (an `update`, or an `error`) (ms). */
export const MOVE_WAIT = 4000;
/** How often the socket pings (ms)… */
export const PING_EVERY = 15000;
/** …and how long it waits for anything after a ping before it is taken to be dead (ms). */
export const PONG_WAIT = 5000;

/**
 * The delay before reconnection attempt `n` (from 0): 0.5 s doubling to 5 s, each drawn between
 * half and the whole of that (so that the players of a node that died do not all come back at
 * the same moment).
 * @param {number} n @param {() => number} [random] uniform in [0, 1)
 */
export function backoff(n, random = Math.random) {
  const full = Math.min(BACKOFF_MAX, BACKOFF_FIRST * 2 ** Math.min(Math.max(n, 0), 10));
  return Math.round(full * (0.5 + random() / 2));
}

/**
 * What the socket does with an `error`: `fatal` ones end it (the page says why); `reenter`
 * ones enter the table again on a new socket (its node is gone or stalled); `resync` ones ask
 * for a fresh state (a refused move); the rest are the page's alone.
 * `entering`: the socket's entry awaits its `sync`; `seen`: this page has had the table's `sync`;
 * `moving`: a move of the page awaits its answer.
 * @param {string} code @param {{entering: boolean, seen: boolean, moving: boolean}} at
 * @returns {'fatal' | 'reenter' | 'resync' | 'page'}
 */
export function errorAction(code, at) {
  if (code === 'bad_token' || code === 'signed_out') return 'fatal';
  if (code === 'unavailable' && (at.entering || at.moving)) return 'reenter';
  if (code === 'no_table' && at.seen) return 'reenter';
  if (at.moving) return 'resync';
  return 'page';
}

/**
 * Whether a message with version `v` follows `last` without a gap. Events (`update`, `seats`,
 * `chat`, `chat_removed`, `host`) increase the version by exactly one; replies (`ack`, `error`) carry it unchanged.
 * @param {string} type @param {number | undefined} v @param {number | null} last
 * @returns {'ok' | 'gap' | 'stale'}
 */
export function versionCheck(type, v, last) {
  if (v === undefined || last === null) return 'ok';
  if (type === 'update' || type === 'seats' || type === 'chat' || type === 'chat_removed' || type === 'host') {
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
    /** @type {'join' | 'watch' | 'tv'} */
    this.mode = opts.mode;
    /** Whether this page has had the table's `sync` (on any socket). */
    this.seen = false;
    /** Whether the entry on this socket awaits its `sync`. */
    this.entering = false;
    /** @type {ReturnType<typeof setTimeout> | null} the entry's, the move's, or the ping's deadline */
    this.deadline = null;
    /** Whether a move awaits its answer. */
    this.moving = false;
    /** Whether the deadline is a ping's (any message meets it). */
    this.pingDeadline = false;
    /** Whether the next connection is made at once (the server said `moved`), not after the backoff. */
    this.promptly = false;
    this.connect();
  }

  /** @param {number} ms @param {() => void} f @param {boolean} [ping] whether any message meets it */
  arm(ms, f, ping = false) {
    this.disarm();
    this.pingDeadline = ping;
    this.deadline = setTimeout(() => {
      this.deadline = null;
      f();
    }, ms);
  }

  disarm() {
    if (this.deadline) clearTimeout(this.deadline);
    this.deadline = null;
  }

  /** A move was refused or went unanswered: the page unlocks its hand. @param {'unanswered' | 'refused'} why */
  stall(why) {
    if (!this.moving) return;
    this.moving = false;
    if (this.opts.onStall) this.opts.onStall(why);
  }

  /** Gives up this socket and enters the table again on a new one, after the backoff. */
  reenter() {
    this.disarm();
    this.entering = false;
    this.drop();
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
      this.disarm();
      this.entering = false;
      this.stall('unanswered');
      this.ws = null;
      if (this.closed) return;
      this.opts.onStatus('reconnecting', this.attempt);
      const delay = this.promptly ? 0 : backoff(this.attempt);
      this.promptly = false;
      this.attempt += 1;
      this.retry = setTimeout(() => this.connect(), delay);
    };
    ws.onerror = () => {
      // The close that follows schedules the reconnection.
    };
  }

  /** @param {ServerMsg} msg */
  receive(msg) {
    // Anything heard answers a ping.
    if (this.deadline && this.pingDeadline) this.disarm();
    if (msg.type === 'welcome') {
      this.entering = true;
      // An entry unanswered: the table's node may be stalled; another socket may reach it.
      this.arm(ENTRY_WAIT, () => this.reenter());
      if (this.mode === 'join') {
        /** @type {ClientMsg} */
        const join = { type: 'join', table: this.opts.table };
        if (this.opts.seat !== undefined && this.opts.seat !== null) join.seat = this.opts.seat;
        this.send(join);
      } else {
        this.send({ type: this.mode === 'tv' ? 'tv' : 'watch', table: this.opts.table });
      }
      this.opts.onMessage(msg);
      return;
    }
    if (msg.type === 'moved') {
      // The node leaves (it drains): the table runs elsewhere; enter it again now.
      this.attempt = 0;
      this.promptly = true;
      this.reenter();
      return;
    }
    if (msg.type === 'sync') {
      this.v = msg.v;
      this.seen = true;
      this.entering = false;
      this.moving = false;
      this.disarm();
      this.awaitingSync = false;
      this.attempt = 0;
      this.startPing();
      this.opts.onStatus('open', 0);
      this.opts.onMessage(msg);
      return;
    }
    if (msg.type === 'error') {
      const action = errorAction(msg.code, { entering: this.entering, seen: this.seen, moving: this.moving });
      if (action === 'fatal') {
        this.close();
        this.opts.onMessage(msg);
        return;
      }
      if (action === 'reenter') {
        this.stall('refused');
        this.reenter();
        return;
      }
      if (action === 'resync') {
        this.stall('refused');
        this.disarm();
        this.awaitingSync = true;
        this.send({ type: 'resync' });
        // A resync unanswered too: the socket is given up.
        this.arm(MOVE_WAIT, () => this.reenter());
      }
      this.opts.onMessage(msg);
      return;
    }
    if (msg.type === 'update' && this.moving) {
      this.moving = false;
      this.disarm();
    }
    if (msg.type === 'update' || msg.type === 'seats' || msg.type === 'chat' || msg.type === 'chat_removed') {
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
    if (msg.type === 'act') {
      // Its answer is an `update` (or an `error`); none in time: ask for the state again.
      this.moving = true;
      this.arm(MOVE_WAIT, () => {
        this.stall('unanswered');
        this.awaitingSync = true;
        this.send({ type: 'resync' });
        this.arm(MOVE_WAIT, () => this.reenter());
      });
    }
    return true;
  }

  /** After `leave` the connection stays as a spectator: a reconnection watches. */
  watching() {
    this.mode = 'watch';
  }

  startPing() {
    this.stopPing();
    this.pinger = setInterval(() => {
      if (!this.send({ type: 'ping' })) return;
      // Nothing heard after a ping: the socket is silent (its node stalled).
      if (!this.deadline) this.arm(PONG_WAIT, () => this.reenter(), true);
    }, PING_EVERY);
  }

  stopPing() {
    if (this.pinger) clearInterval(this.pinger);
    this.pinger = null;
  }

  close() {
    this.closed = true;
    this.stopPing();
    this.disarm();
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
