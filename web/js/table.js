// A table, live: the socket, the state it keeps, the felt, your hand and the prompts, the end of
// each hand, chat. Everything shown comes from the server's messages: the client has no rules.

import { html, useEffect, useMemo, useReducer, useRef, useState } from '../vendor/preact-htm.js';
import * as api from './api.js';
import { HintBox, TrackerPanel, hintCards } from './assist.js';
import { Board, isMadiao, position } from './board.js';
import { lang, playerNames, t } from './i18n.js';
import { cardsAction, cardsPrompt, check, clickable, initialSelection, madiaoChoices, madiaoPlayKind, revokeRisk, toggle } from './legal.js';
import { RulesDialog } from './rules.js';
import { HandEnd, HandList, MatchScore, PastHand } from './hand_end.js';
import { HostBanner, HostControls, hostEventText, tableOver } from './host.js';
import { CannedRow, PlayerMenu, isMuted, useModeration } from './moderation.js';
import { MuteToggle, NotifyToggle, useDesktopNotify, useMuted, useTurnNotice } from './notice.js';
import { madiaoDefault, mayQueue, premoveOutcome } from './premove.js';
import { cardLabel } from './cards.js';
import { eventText, handResultLine, storyEvents, trickWonText } from './scoring.js';
import { loadEnds, rememberTable, saveEnds } from './storage.js';
import { TableSocket } from './socket.js';
import { BotLabel, Card, clearNotices, Countdown, errorText, notify, setZeroCash, useKeydown } from './ui.js';
import { BankClock, BotPlaysPrompt, PausedBanner, SoloControls, isPaused } from './clock.js';

/** @typedef {import('./wire').ServerMsg} ServerMsg */
/** @typedef {import('./wire').SyncMsg} SyncMsg */
/** @typedef {import('./wire').TableSummary} TableSummary */
/** @typedef {import('./wire').SeatInfo} SeatInfo */
/** @typedef {import('./wire').Legal} Legal */
/** @typedef {import('./wire').MadiaoView} MadiaoView */
/** @typedef {import('./wire').DabaifenView} DabaifenView */
/** @typedef {import('./wire').TableEvent} TableEvent */
/** @typedef {import('./wire').ChatMessage} ChatMessage */
/** @typedef {import('./wire').Timer} Timer */
/** @typedef {import('./wire').MadiaoAction} MadiaoAction */
/** @typedef {import('./wire').DabaifenAction} DabaifenAction */
/** @typedef {import('./wire').MadiaoResult} MadiaoResult */
/** @typedef {import('./wire').DabaifenResult} DabaifenResult */
/** @typedef {import('./storage.js').Identity} Identity */
/** @typedef {import('./socket.js').SocketStatus} SocketStatus */

/**
 * @typedef {object} TableState
 * @property {TableSummary} table
 * @property {SyncMsg['you']} you
 * @property {number} hand
 * @property {number} move
 * @property {MadiaoView | DabaifenView | null} view
 * @property {Legal | null} legal
 * @property {Timer | null} timer
 * @property {number} timerAt when the timer was received (Date.now())
 * @property {number} seatsAt when the seats were received (their `grace_ms` counts from then)
 * @property {SyncMsg['match']} match
 * @property {Array<MadiaoResult | DabaifenResult>} results
 * @property {ChatMessage[]} chat
 * @property {string[]} watchers the names of the people watching (live)
 * @property {LogItem[]} log
 * @property {Record<number, MadiaoView | DabaifenView>} ends the final view of each hand that ended
 *   while the page was open, by hand (its scoring, to show again during the match)
 * @property {boolean} ready we said `next` for this pause
 * @property {string | null} rematch the table of the rematch the host offered, if he did
 * @property {string | null} closedBy the host who closed the table while the page was open
 * @property {import('./wire').HintMsg | null} hint the hint for the current move, if one was asked
 * @property {number} [unlocked] counts the `sync`s, refusals and unanswered moves: each unlocks
 *   the hand after a move was sent
 * @property {import('./wire').TrackerMsg['tracker']} tracker the card tracker as last sent
 */

/** @typedef {import('./scoring.js').StoryEvent} StoryEvent */
/**
 * A line of the events: a table event, or a trick won or a hand's end seen in the views.
 * @typedef {{key: string, hand: number, event: TableEvent} | {key: string, hand: number, story: StoryEvent}} LogItem
 */

/** How many lines of events the page keeps. */
const LOG_KEEP = 200;

/**
 * The story lines a view adds (tricks won, the hand's end) after `prev`, the view before.
 * @param {TableState | null} st @param {number} hand @param {MadiaoView | DabaifenView | null} view @param {number} v
 * @returns {LogItem[]}
 */
function storyItems(st, hand, view, v) {
  if (!view) return [];
  const prev = st && st.hand === hand ? st.view : null;
  return storyEvents(prev, view).map((story, i) => ({ key: `${v}.${i}`, hand, story }));
}

/**
 * The final views kept, with `view` added when it ends its hand.
 * @param {{ends: TableState['ends']} | null} st @param {number} hand @param {MadiaoView | DabaifenView | null} view
 */
function keepEnd(st, hand, view) {
  const ends = st ? st.ends : {};
  return view && view.phase === 'over' && view.result ? { ...ends, [hand]: view } : ends;
}

/** @param {TableState | null} st @param {ServerMsg} msg @returns {TableState | null} */
export function reduce(st, msg) {
  const now = Date.now();
  switch (msg.type) {
    case 'sync': {
      const same = !!st && st.table.id === msg.table.id;
      const kept = same ? st : null;
      return {
        table: msg.table,
        you: msg.you,
        hand: msg.hand,
        move: msg.move,
        view: msg.view,
        legal: msg.legal,
        timer: msg.timer,
        timerAt: now,
        seatsAt: now,
        match: msg.match,
        results: msg.results,
        chat: msg.chat,
        watchers: msg.watchers ?? [],
        log: [...(kept ? kept.log : []), ...storyItems(kept, msg.hand, msg.view, msg.v)].slice(-LOG_KEEP),
        // A page opened afresh finds the scorings this tab saw before a reload.
        ends: keepEnd(kept ?? { ends: loadEnds(msg.table.id, msg.you.seat) }, msg.hand, msg.view),
        ready: false,
        rematch: msg.rematch ?? null,
        closedBy: kept ? kept.closedBy : null,
        hint: null,
        tracker: kept ? kept.tracker : null,
        unlocked: (kept && kept.unlocked ? kept.unlocked : 0) + 1,
      };
    }
    case 'error':
      // A refused move: the hand is unlocked (the state follows in a fresh `sync`).
      if (!st) return st;
      return { ...st, unlocked: (st.unlocked ?? 0) + 1 };
    case 'host':
      if (!st) return st;
      if (msg.event.kind === 'closed') {
        // Ended and kept, the match is finished (its finished hands are a record).
        return { ...st, table: { ...st.table, status: msg.event.kept ? 'finished' : 'closed' }, closedBy: msg.event.by, legal: null, timer: null };
      }
      if (msg.event.kind === 'rematch') return { ...st, rematch: msg.event.table };
      return st;
    case 'update': {
      if (!st) return st;
      // A take-back undoes the hand's end too, if the play taken back had ended it.
      const results = msg.event.kind === 'take_back' ? st.results.slice(0, msg.hand) : [...st.results];
      const v = msg.view;
      if (v && v.result && results.length <= msg.hand) results[msg.hand] = v.result;
      // The draw's steps are not listed (48 a deal): they would crowd the tricks out of the log.
      const own = msg.event.kind === 'draw' ? [] : [{ key: `${msg.v}`, hand: msg.hand, event: msg.event }];
      const log = [...st.log, ...own, ...storyItems(st, msg.hand, msg.view, msg.v)].slice(-LOG_KEEP);
      return {
        ...st,
        // The match has begun (the status changes with the first update, not by a `seats`; the
        // first may carry no view: a Madiao banker names the stake before anything is dealt).
        table: st.table.status === 'waiting' ? { ...st.table, status: 'playing' } : st.table,
        hand: msg.hand,
        move: msg.move,
        view: msg.view,
        legal: msg.legal,
        timer: msg.timer,
        timerAt: now,
        match: msg.match,
        results,
        log,
        ends: keepEnd(st, msg.hand, msg.view),
        ready: msg.event.kind === 'hand_start' ? false : st.ready,
        hint: st.hint && st.hint.move === msg.move && msg.legal ? st.hint : null,
      };
    }
    case 'seats':
      if (!st) return st;
      return {
        ...st,
        table: { ...st.table, seats: msg.seats, spectators: msg.spectators, status: msg.status },
        watchers: msg.watchers ?? [],
        timer: msg.timer,
        timerAt: now,
        seatsAt: now,
      };
    case 'hint':
      if (!st) return st;
      return { ...st, hint: msg.move === st.move ? msg : st.hint };
    case 'tracker':
      if (!st) return st;
      return { ...st, tracker: msg.tracker };
    case 'chat':
      if (!st) return st;
      return { ...st, chat: [...st.chat.slice(-99), msg.message] };
    case 'chat_removed':
      // The operator removed the line: it goes from the page at once.
      if (!st) return st;
      return { ...st, chat: st.chat.filter((m) => m.seq !== msg.seq) };
    case 'ack':
      if (!st) return st;
      if (msg.what === 'request' && msg.legal !== undefined) return { ...st, legal: msg.legal };
      if (msg.what === 'next') return { ...st, ready: true };
      return st;
    default:
      return st;
  }
}

/**
 * The names at a table, for players: a person's name, a bot's name for players ("Club player";
 * two alike also by seat, see `playerNames`), `Open seat N` for open seats.
 * @param {SeatInfo[]} seats
 */
export function seatNames(seats) {
  const bots = playerNames(seats.map((s) => (s.kind === 'bot' && s.bot ? `bot:${s.bot}` : s.kind === 'open' ? `open:${s.seat}` : (s.name ?? '?'))));
  return seats.map((s, i) =>
    s.kind === 'bot'
      ? s.bot ? bots[i] : t('seat.bot_named', { n: s.seat + 1 })
      : s.kind === 'open'
        ? s.invited
          ? `${t('seat.open', { n: s.seat + 1 })} · ${t('host.invited', { name: s.invited })}`
          : t('seat.open', { n: s.seat + 1 })
        : (s.name ?? '?'),
  );
}

/**
 * @param {{id: string, identity: Identity, watch: boolean, tv?: number, seat: number | null, navigate: (path: string) => void, onBadToken: (code: string) => void}} props
 *   `tv`: watched through the delayed stream, this many tricks late (the TV page)
 */
export function TablePage(props) {
  const [st, dispatch] = useReducer(reduce, null);
  const [status, setStatus] = useState(/** @type {SocketStatus} */ ('connecting'));
  const [mode, setMode] = useState(/** @type {'join' | 'watch' | 'tv'} */ (props.tv !== undefined ? 'tv' : props.watch ? 'watch' : 'join'));
  const [fatal, setFatal] = useState(/** @type {{code: string, message: string} | null} */ (null));
  const sock = useRef(/** @type {TableSocket | null} */ (null));

  useEffect(() => {
    setFatal(null);
    // Whether this socket got its table: a `closed` before that is the table's (it was closed).
    let synced = false;
    const s = new TableSocket({
      table: props.id,
      token: props.identity.token,
      mode,
      seat: props.seat,
      onStatus: (x) => setStatus(x),
      // A move refused or unanswered: the hand unlocks, with a notice (refusals have their own).
      onStall: (why) => {
        if (why === 'unanswered') notify('error', t('conn.move_unanswered'), props.id);
        dispatch({ type: 'error', code: 'unavailable', message: '' });
      },
      onMessage: (msg) => {
        if (msg.type === 'error') {
          if (msg.code === 'bad_token' || msg.code === 'signed_out') {
            props.onBadToken(msg.code);
            return;
          }
          if (msg.code === 'no_seat' || msg.code === 'seat_taken' || msg.code === 'removed' || msg.code === 'blocked') {
            notify('info', errorText(msg.code, msg.message), props.id);
            s.close();
            setMode('watch');
            return;
          }
          if (msg.code === 'no_table' || msg.code === 'finished' || (msg.code === 'closed' && !synced)) {
            s.close();
            setFatal({ code: msg.code, message: msg.message });
            return;
          }
          notify('error', errorText(msg.code, msg.message), props.id);
          dispatch(msg);
          return;
        }
        if (msg.type === 'host') notify('info', hostEventText(msg.event), props.id);
        if (msg.type === 'sync') {
          synced = true;
          rememberTable({ id: msg.table.id, name: msg.table.name, game: msg.table.game, at: Date.now() });
        }
        dispatch(msg);
      },
    });
    sock.current = s;
    return () => s.close();
  }, [props.id, mode, props.identity.token]);
  // A table's messages stay with it: leaving it (for the lobby, another table) takes them away.
  useEffect(() => () => clearNotices(props.id), [props.id]);

  if (fatal) return html`<${TableGone} id=${props.id} code=${fatal.code} message=${fatal.message} navigate=${props.navigate} />`;
  if (!st) {
    return html`<div class="page loading"><p>${status === 'reconnecting' ? t('conn.reconnecting') : t('conn.connecting')}</p></div>`;
  }
  return html`<${Table} st=${st} status=${status} sock=${sock.current} navigate=${props.navigate} identity=${props.identity}
    tv=${props.tv} onJoin=${() => props.tv !== undefined ? props.navigate(`/t/${props.id}`) : setMode('join')} onWatch=${() => setMode(props.tv !== undefined ? 'tv' : 'watch')} />`;
}

/** A table that is gone or finished: what happened, and its replay. @param {{id: string, code: string, message: string, navigate: (p: string) => void}} p */
function TableGone(p) {
  return html`<div class="page gone">
    <h2>${p.code === 'finished' ? t('table.finished') : p.code === 'closed' ? t('table.closed') : t('table.no_table')}</h2>
    <p>${errorText(p.code, p.message)}</p>
    ${p.code === 'finished'
      ? html`<p class="buttons">
          <button class="primary" onClick=${() => p.navigate(`/replay/${p.id}`)}>${t('replay.open')}</button>
          <a class="button" href=${api.recordUrl(p.id)} download=${`yezi-${p.id}.json`}>${t('replay.download')}</a>
        </p>`
      : null}
    <p><a href="/" onClick=${(/** @type {Event} */ e) => { e.preventDefault(); p.navigate('/'); }}>${t('nav.lobby')}</a></p>
  </div>`;
}

/**
 * @param {{st: TableState, status: SocketStatus, sock: TableSocket | null, navigate: (p: string) => void, onJoin: () => void, onWatch: () => void, identity?: import('./storage.js').Identity, tv?: number}} p
 */
function Table(p) {
  const { st } = p;
  const game = st.table.game;
  // Every viewer draws the table's deck (the zero cash as it chose; §1).
  setZeroCash(st.table.zero_cash);
  const seats = st.table.seats;
  const names = seatNames(seats);
  const me = st.you.seat;
  const bottom = me ?? (st.view && isMadiao(st.view) ? st.view.banker : 0);
  const [showLast, setShowLast] = useState(false);
  // The seats' names open the moderation menu: the viewer's lists say mute or unmute.
  useModeration(p.identity ?? null);
  const [rules, setRules] = useState(false);
  const [help, setHelp] = useState(false);
  const [endHidden, setEndHidden] = useState(-1);
  const [pastHand, setPastHand] = useState(/** @type {number | null} */ (null));
  useEffect(() => saveEnds(st.table.id, me, st.ends), [st.ends]);
  const [panel, setPanel] = useState(/** @type {'chat' | 'log' | 'score'} */ ('chat'));
  const arrived = useArrivals(st.view && me !== null ? /** @type {string[]} */ (st.view.hand) : [], st.hand);
  /** @param {import('./wire').ClientMsg} msg */
  const send = (msg) => {
    if (!p.sock || !p.sock.send(msg)) notify('error', t('conn.not_connected'), st.table.id);
  };
  /** @param {MadiaoAction | DabaifenAction} action */
  const act = (action) => send({ type: 'act', action, move: st.move });
  const view = st.view;
  const over = !!view && view.phase === 'over';
  const mySeat = me !== null ? seats[me] : null;
  const open = seats.some((s) => s.kind === 'open');
  const finished = tableOver(st.table.status);
  const matchOver = !!st.match && st.match.over;
  const [muted, toggleMute] = useMuted();
  // Hints and the tracker: at casual tables only (never at a rated one, nor at a board of a
  // rated event).
  const assist = !st.table.rated && !st.table.no_aids;
  const [trackingAsked, setTracking] = useState(false);
  const tracking = assist && trackingAsked;
  const [hintHidden, setHintHidden] = useState(-1);
  const myTurn = !!view && me !== null && view.to_move === me && !!st.legal && ['actions', 'cards', 'lead'].includes(st.legal.kind);
  const askHint = () => { if (myTurn && assist) send({ type: 'hint' }); };
  // The tracker follows the view: asked again after every move while it is shown.
  useEffect(() => { if (tracking && me !== null && view) send({ type: 'tracker' }); }, [tracking, st.move, st.hand, me, !!view]);
  const [desktop, toggleDesktop] = useDesktopNotify((text) => notify('info', text));
  useTurnNotice(!!view && me !== null && view.to_move === me && !(mySeat && mySeat.bot_plays), muted, desktop, st.table.name);

  // Keyboard: L last trick, N next hand, ? help, C chat.
  useKeydown((e) => {
    if (isTyping(e)) return;
    if (e.key === 'l' || e.key === 'L') setShowLast((x) => !x);
    else if ((e.key === 'n' || e.key === 'N') && over && !matchOver) send({ type: 'next' });
    else if (e.key === '?') setHelp((x) => !x);
    else if (e.key === 'h' || e.key === 'H') askHint();
    else if ((e.key === 't' || e.key === 'T') && me !== null && assist) setTracking((x) => !x);
    else if (e.key === 'c' || e.key === 'C') {
      setPanel('chat');
      setTimeout(() => /** @type {HTMLInputElement | null} */ (document.querySelector('.chat input'))?.focus(), 0);
      e.preventDefault();
    }
  });

  const invite = `${location.origin}/t/${st.table.id}`;
  return html`<div class=${`table-page game-${game}`} data-table=${st.table.id} data-status=${st.table.status} data-hand=${st.hand}
    data-pace=${st.table.pace} data-grace=${st.table.grace_seconds}>
    <div class="table-head">
      <div class="title">
        <h2>${st.table.name}${st.table.rated ? html` <span class="rated-mark" data-rated="1" title=${t('lobby.rated_hint')}>${t('table.rated')}</span>` : null}</h2>
        <span class="sub">${t(`game.${game}`)} · ${t(`status.${st.table.status}`)} · ${t('table.hand_n', { n: st.hand + 1 })}${' · '}
          <span class="pace" data-pace=${st.table.pace} title=${t('lobby.pace_hint')}>${t('table.pace', { pace: t(`pace.${st.table.pace}`) })}</span>${' · '}
          <span class="grace" title=${t('lobby.grace_hint')}>${t('table.grace', { n: st.table.grace_seconds })}</span>
          ${st.table.spectators ? ` · ${t('table.spectators', { n: st.table.spectators })}` : ''}</span>
        ${st.watchers.length
          ? html`<p class="watchers sub" data-watchers=${st.watchers.join('\n')}>${t('table.watchers', { names: st.watchers.join(', ') })}</p>`
          : null}
      </div>
      <div class="head-buttons">
        ${p.status !== 'open' ? html`<span class="conn-bad" role="status">${t(p.status === 'closed' ? 'conn.closed' : 'conn.reconnecting')}</span>` : null}
        <${MuteToggle} muted=${muted} onToggle=${toggleMute} />
        ${me !== null ? html`<${NotifyToggle} on=${desktop} onToggle=${toggleDesktop} />` : null}
        ${me !== null && view && assist
          ? html`<button class="hint-button" data-action="hint" disabled=${!myTurn} onClick=${askHint}>${t('hint.button')}</button>
              <button class="tracker-toggle" data-action="tracker" aria-pressed=${tracking ? 'true' : 'false'} onClick=${() => setTracking((x) => !x)}>${t('track.button')}</button>`
          : null}
        <button onClick=${() => setRules(true)}>${t('nav.rules')}</button>
        <button onClick=${() => setHelp((x) => !x)} title=${t('keys.title')}>⌨</button>
        ${me !== null && !finished
          ? html`<button class="leave" onClick=${() => { if (confirm(t('table.leave_confirm'))) { send({ type: 'leave' }); p.sock?.watching(); } }}>${t('table.leave')}</button>`
          : null}
        ${me === null && open && !finished ? html`<button class="primary" onClick=${p.onJoin}>${t('table.take_seat')}</button>` : null}
        <${SoloControls} table=${st.table} me=${me} timer=${st.timer} send=${send} />
        ${st.you.host ? html`<${HostControls} table=${st.table} me=${me} rematch=${st.rematch} send=${send} hands=${st.results.length} token=${p.identity?.token ?? null} />` : null}
      </div>
    </div>
    <${HostBanner} table=${st.table} rematch=${st.rematch} closedBy=${st.closedBy} navigate=${p.navigate} />
    ${help ? html`<${KeysHelp} onClose=${() => setHelp(false)} />` : null}
    ${st.table.status === 'waiting'
      ? html`<div class="waiting">
          <p>${t('table.waiting', { n: st.table.open_seats })}</p>
          <ul class="seated" aria-label=${t('table.seated')}>
            ${seats.map((s) => html`<li key=${s.seat} data-seat=${s.seat} data-kind=${s.kind} data-present=${s.present ? '1' : '0'}>
              <span class=${`dot ${s.kind === 'bot' ? 'bot' : s.kind === 'open' ? 'open' : s.present ? 'here' : 'gone'}`}></span>
              <span class="seated-name">${s.kind === 'bot' ? html`<${BotLabel} id=${s.bot ?? ''} />` : s.kind === 'open' ? t('table.seat_free', { n: s.seat + 1 }) : html`<${PlayerMenu} identity=${p.identity ?? null} player=${s.guest} name=${s.name ?? ''} />`}</span>
              ${s.kind === 'person' && s.guest === st.table.host ? html`<span class="chip">${t('table.host')}</span>` : null}
              ${s.seat === me ? html`<span class="chip">${t('table.you')}</span>` : null}
              ${s.kind === 'person' && !s.present ? html`<span class="seated-note">${t('table.not_here')}</span>` : null}
            </li>`)}
          </ul>
          <p class="invite"><span>${t('table.invite')}</span> <input readonly value=${invite} onFocus=${(/** @type {Event} */ e) => /** @type {HTMLInputElement} */ (e.target).select()} />
            <button onClick=${() => copy(invite)}>${t('table.copy')}</button></p>
          ${st.you.host ? html`<button class="primary" data-action="start" onClick=${() => send({ type: 'start' })}>${t('table.start')}</button>` : null}
        </div>`
      : null}
    ${mySeat && mySeat.away
      ? html`<div class="banner">${t('table.away')} <button class="primary" onClick=${() => send({ type: 'back' })}>${t('table.back')}</button></div>`
      : null}
    ${me === null && st.table.status !== 'waiting'
      ? html`<div class="banner watch" data-tv=${p.tv ?? ''}>${p.tv !== undefined && p.tv > 0 ? t('tv.watching', { n: p.tv }) : t('table.watching')}</div>`
      : null}
    <${PausedBanner} table=${st.table} me=${me} timer=${st.timer} send=${send} />
    <div class="table-main">
      <div class="play-area">
        ${view
          ? html`<${Board} game=${game} view=${view} names=${names} bottom=${bottom} own=${me} seats=${seats} identity=${p.identity ?? null} timer=${st.timer} timerAt=${st.timerAt} seatsAt=${st.seatsAt}
              turnMs=${st.table.turn_seconds * 1000} showLast=${showLast}
              centerExtra=${view.tricks.filter((tr) => tr.plays.length > 0).length >= 2 || showLast
                ? html`<button class="last-trick" onClick=${() => setShowLast((x) => !x)} aria-pressed=${showLast ? 'true' : 'false'}>${t(showLast ? 'trick.back' : 'trick.show_last')}</button>`
                : /* Its place is kept before there is a last trick, so the hand below never jumps. */
                  html`<button class="last-trick placeholder" disabled aria-hidden="true" tabIndex=${-1}>${t('trick.show_last')}</button>`} />`
          : st.table.status !== 'waiting' && game === 'madiao'
            ? html`<${StakeFelt} st=${st} names=${names} act=${act} />`
            : html`<div class="felt empty"><p>${t('table.not_started')}</p></div>`}
        ${view && over && endHidden !== st.hand
          ? html`<${HandEnd} game=${game} view=${view} names=${names} match=${st.match} stake=${(view && 'stake' in view ? view.stake : null) ?? st.table.stake ?? 2}
              timer=${st.timer} timerAt=${st.timerAt} ready=${st.ready} seated=${me !== null} finished=${finished} tableId=${st.table.id}
              seats=${seats} me=${me} rated=${st.table.rated} token=${p.identity?.token ?? null}
              onNext=${() => send({ type: 'next' })} onHide=${() => setEndHidden(st.hand)} navigate=${p.navigate} />`
          : null}
        ${view && over && endHidden === st.hand
          ? html`<button class="show-end" onClick=${() => setEndHidden(-1)}>${t('end.show')}</button>`
          : null}
        ${st.hint && me !== null && hintHidden !== st.hint.move
          ? html`<${HintBox} hint=${st.hint} game=${game} onClose=${() => setHintHidden(st.hint ? st.hint.move : -1)} />`
          : null}
        ${view && me !== null ? html`<${MyHand} key=${`${st.hand}`} st=${st} view=${view} game=${game} act=${act} send=${send} names=${names} arrived=${arrived} botPlays=${!!mySeat && mySeat.bot_plays} />` : null}
        ${tracking && me !== null ? html`<section class="tracker-panel" aria-label=${t('track.title')}><h3>${t('track.title')}</h3>
            <${TrackerPanel} tracker=${st.tracker} game=${game} names=${names} /></section>` : null}
      </div>
      <aside class="side">
        <div class="tabs" role="tablist">
          ${['chat', 'log', 'score'].map(
            (x) => html`<button key=${x} role="tab" aria-selected=${panel === x ? 'true' : 'false'} class=${panel === x ? 'on' : ''}
              onClick=${() => setPanel(/** @type {'chat' | 'log' | 'score'} */ (x))}>${t(`side.${x}`)}</button>`,
          )}
        </div>
        ${panel === 'chat' ? html`<${Chat} chat=${st.chat} send=${send} identity=${p.identity} table=${st.table.id} />` : null}
        ${panel === 'log' ? html`<${Log} st=${st} names=${names} onShow=${setPastHand} />` : null}
        ${panel === 'score'
          ? html`<${MatchScore} game=${game} match=${st.match} names=${names} stake=${st.table.stake ?? 2} tips=${seats.map((s) => s.bot || undefined)} />
              <${HandList} game=${game} results=${st.results} names=${names} onShow=${setPastHand} />`
          : null}
      </aside>
    </div>
    ${pastHand !== null
      ? html`<${PastHand} game=${game} hand=${pastHand} view=${st.ends[pastHand] ?? null} result=${st.results[pastHand] ?? null}
          names=${names} stake=${st.table.stake ?? 2} onClose=${() => setPastHand(null)} />`
      : null}
    ${rules ? html`<${RulesDialog} game=${game} variants=${st.table.variants} onClose=${() => setRules(false)} />` : null}
  </div>`;
}

/**
 * Madiao, before a hand is dealt: its banker names the stake (rules §2). The banker picks an even
 * stake within the table's limits; everyone else sees who is choosing.
 * @param {{st: any, names: string[], act: (a: any) => void}} p
 */
function StakeFelt(p) {
  const legal = p.st.legal;
  const ask = legal && legal.kind === 'stake' ? legal : null;
  const [stake, setStake] = useState(0);
  const timer = p.st.timer;
  if (!ask) {
    const seat = timer && 'seat' in timer ? timer.seat : null;
    return html`<div class="felt empty stake-wait"><p>${seat === null ? t('table.not_started') : t('stake.choosing', { name: p.names[seat], n: p.st.hand + 1 })}</p></div>`;
  }
  const choices = [];
  for (let x = ask.low; x <= ask.high; x += 2) choices.push(x);
  const value = choices.includes(stake) ? stake : ask.low;
  return html`<div class="felt empty stake-pick" data-legal="stake">
    <form onSubmit=${(/** @type {Event} */ e) => { e.preventDefault(); p.act({ stake: value }); }}>
      <label>${t('stake.you_bank', { n: p.st.hand + 1, low: ask.low, high: ask.high })}
        <select name="stake" value=${String(value)} onChange=${(/** @type {Event} */ e) => setStake(Number(/** @type {HTMLSelectElement} */ (e.target).value))}>
          ${choices.map((x) => html`<option key=${x} value=${String(x)}>${x}</option>`)}
        </select></label>
      <button class="primary" type="submit" data-action="stake">${t('stake.name')}</button>
      <p class="hint">${t('stake.default', { low: ask.low })}</p>
    </form>
  </div>`;
}

/** @param {KeyboardEvent} e */
function isTyping(e) {
  const el = /** @type {HTMLElement | null} */ (e.target);
  return !!el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.isContentEditable);
}

/** @param {string} text */
function copy(text) {
  navigator.clipboard?.writeText(text).then(
    () => notify('info', t('table.copied')),
    () => notify('info', text),
  );
}

/** The keyboard's keys. @param {{onClose: () => void}} p */
export function KeysHelp(p) {
  return html`<div class="keys-help" role="note">
    <strong>${t('keys.title')}</strong>
    <ul>
      <li><kbd>←</kbd> <kbd>→</kbd> ${t('keys.arrows')}</li>
      <li><kbd>1</kbd>…<kbd>9</kbd> ${t('keys.digits')}</li>
      <li><kbd>Space</kbd> ${t('keys.space')}</li>
      <li><kbd>Enter</kbd> ${t('keys.enter')}</li>
      <li><kbd>F</kbd> ${t('keys.f')}</li>
      <li><kbd>Esc</kbd> ${t('keys.esc')}</li>
      <li><kbd>L</kbd> ${t('keys.l')}</li>
      <li><kbd>N</kbd> ${t('keys.n')}</li>
      <li><kbd>H</kbd> ${t('keys.h')}</li>
      <li><kbd>T</kbd> ${t('keys.t')}</li>
      <li><kbd>C</kbd> ${t('keys.c')}</li>
      <li>${t('keys.premove')}</li>
    </ul>
    <button onClick=${p.onClose}>${t('common.close')}</button>
  </div>`;
}

/**
 * The cards that came into the hand since it was last drawn (a deal, a card drawn, the kitty taken
 * up), each with its place in the order they arrive; none when the page first draws a hand (a
 * reload in mid-hand deals nothing; a page that saw the table before the deal sees it dealt).
 * @param {string[]} hand
 * @param {number} handNo
 * @returns {Map<string, number>}
 */
function useArrivals(hand, handNo) {
  const seen = useRef(/** @type {{hand: number, cards: Set<string>} | null} */ (null));
  const key = `${handNo}:${hand.join(',')}`;
  return useMemo(() => {
    const before = seen.current;
    seen.current = { hand: handNo, cards: new Set(hand) };
    if (!before) return new Map();
    const fresh = hand.filter((c) => before.hand !== handNo || !before.cards.has(c));
    return new Map(fresh.map((c, i) => [c, i]));
  }, [key]);
}

/**
 * Your hand and what you may do: Madiao's play or slough, Da Bai Fen's selections, and the
 * prompts of the draw and the windows.
 * `guide`: cards to point out without choosing them (the tutorial's move to make).
 * `botPlays`: a bot plays for the seat now (its clock ran out, or its connection is gone).
 * @param {{st: Pick<TableState, 'legal' | 'move' | 'hint' | 'timer' | 'timerAt' | 'unlocked'> & {you: {seat: number | null}}, view: MadiaoView | DabaifenView, game: 'madiao' | 'dabaifen', act: (a: MadiaoAction | DabaifenAction) => void, send: (m: import('./wire').ClientMsg) => void, names: string[], arrived: Map<string, number>, guide?: string[], botPlays?: boolean}} p
 */
export function MyHand(p) {
  const { st, view, game } = p;
  const legal = st.legal;
  const hand = /** @type {string[]} */ (view.hand);
  const arrived = p.arrived;
  const trump = isMadiao(view) ? null : view.trump;
  const legalKey = `${st.move}:${legal ? legal.kind : ''}:${hand.join('')}`;
  // A move sent locks the hand until the table answers: a refusal, an unanswered move or a fresh
  // `sync` unlocks it (`unlocked` counts them).
  const lockKey = `${legalKey}#${st.unlocked ?? 0}`;
  const [selected, setSelected] = useState(/** @type {string[]} */ (initialSelection(legal)));
  const [focus, setFocus] = useState(0);
  const [sent, setSent] = useState('');
  // Play ahead: the card queued while another seat is to play (not in the tutorials).
  const [queued, setQueued] = useState(/** @type {string | null} */ (null));
  const premove = !p.guide && st.you.seat !== null && mayQueue(view, legal);
  useEffect(() => {
    setSelected(initialSelection(legal));
    setSent('');
    if (queued === null) return;
    const plays = currentPlays(view);
    const out = premoveOutcome(legal, plays.length === 0 || plays.length === 4, queued);
    if (!out) return;
    setQueued(null);
    if ('send' in out) send(out.send);
    else if ('select' in out) {
      setSelected(out.select);
      notify('info', t('premove.complete', { card: cardLabel(game, queued, lang()) }));
    } else notify('info', t('premove.dropped', { card: cardLabel(game, queued, lang()) }));
  }, [legalKey]);
  const can = useMemo(() => clickable(legal), [legal]);
  const asked = hintCards(st.hint);
  const hinted = p.guide && p.guide.length ? p.guide : asked;
  // A hint chooses its cards (Enter plays them); the choice stays yours to change.
  useEffect(() => {
    if (asked.length && asked.every((c) => can.has(c))) setSelected(asked);
  }, [st.hint]);
  const madiaoMoves = legal && legal.kind === 'actions' ? madiaoChoices(legal.actions) : null;
  const multi = !!legal && (legal.kind === 'cards' || legal.kind === 'lead');
  const kitty = !isMadiao(view) && view.kitty ? /** @type {string[]} */ (view.kitty) : [];
  const myTurn = view.to_move !== null && view.to_move === st.you.seat;

  /** @param {MadiaoAction | DabaifenAction} a */
  const send = (a) => {
    setSent(lockKey);
    p.act(a);
  };
  /** @param {string} card */
  const click = (card) => {
    if (premove && hand.includes(card)) {
      setQueued(queued === card ? null : card);
      return;
    }
    if (!legal || !can.has(card)) return;
    if (legal.kind === 'actions') setSelected(selected[0] === card ? [] : [card]);
    else setSelected(toggle(legal, selected, card));
  };
  const confirm = () => {
    if (!legal || sent === lockKey) return;
    if (legal.kind === 'actions') {
      const c = selected[0];
      const plays = currentPlays(view);
      // Enter: a lead or a capture face up; anything else face down (a face-up discard costs 2 stakes).
      const a = c ? madiaoDefault(legal, plays.length === 0 || plays.length === 4, c) : null;
      if (a) send(a);
      return;
    }
    const a = cardsAction(legal, selected);
    if (a) {
      if (revokeRisk(legal, selected) && !window.confirm(t('dbf.revoke_warning'))) return;
      send(a);
    }
  };
  /** The face-down choice of the keyboard (F). */
  const faceDown = () => {
    const c = selected[0];
    if (legal && legal.kind === 'actions' && c && madiaoMoves?.get(c)?.slough) send({ slough: /** @type {any} */ (c) });
  };

  useKeydown((e) => {
    if (isTyping(e) || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
      if (!hand.length) return;
      const d = e.key === 'ArrowRight' ? 1 : -1;
      setFocus((f) => (f + d + hand.length) % hand.length);
      e.preventDefault();
    } else if (e.key === ' ') {
      const c = hand[focus];
      if (c) click(c);
      e.preventDefault();
    } else if (/^[1-9]$/.test(e.key)) {
      const i = Number(e.key) - 1;
      const c = hand[i];
      if (c) {
        setFocus(i);
        click(c);
      }
    } else if (e.key === 'Enter') {
      if (document.activeElement && document.activeElement.tagName === 'BUTTON') return;
      confirm();
      e.preventDefault();
    } else if (e.key === 'f' || e.key === 'F') {
      faceDown();
    } else if (e.key === 'Escape') {
      setSelected(initialSelection(legal));
      setQueued(null);
    }
  });

  const ok = multi ? check(legal, selected) : null;
  return html`<div class=${`my-area${myTurn ? ' my-turn' : ''}`}>
    <div class="prompt" data-legal=${legal ? legal.kind : ''}>${prompt()}${queued !== null && premove
      ? html` <span class="queued-note" data-queued=${queued}>${t('premove.queued', { card: cardLabel(game, queued, lang()) })}</span>`
      : null}</div>
    <div class=${`hand n${hand.length}`} style=${`--n: ${hand.length}`} role="group" aria-label=${t('hand.label')}>
      ${hand.map((c, i) => html`<${Card} key=${c} game=${game} code=${c} trump=${trump} dealt=${arrived.get(c)}
          legal=${can.has(c) && legal?.kind !== 'declare'} selected=${selected.includes(c)} focused=${i === focus} hinted=${hinted.includes(c)} queued=${queued === c}
          dim=${!!legal && (legal.kind === 'actions' || multi) && !can.has(c)}
          mark=${kitty.includes(c) ? t('dbf.kitty_mark') : ''}
          onClick=${() => { setFocus(i); click(c); }} />`)}
      ${hand.length === 0 ? html`<span class="empty-hand">${t('hand.empty')}</span>` : null}
    </div>
  </div>`;

  function prompt() {
    if (p.botPlays && view.phase !== 'over') return html`<${BotPlaysPrompt} />`;
    if (isPaused(st.timer) && view.phase !== 'over') return html`<span class="wait" data-paused="1">${t('solo.paused_prompt')}</span>`;
    if (!legal) {
      if (view.phase === 'over') return null;
      if (st.timer && st.timer.what === 'window') {
        return html`<span class="wait">${t(isMadiao(view) ? 'madiao.redeal_phase' : 'dbf.annulling')}</span>
          <${Countdown} remaining=${st.timer.remaining_ms} at=${st.timerAt} />`;
      }
      if (!isMadiao(view) && view.phase === 'drawing') return html`<span class="wait">${t('dbf.drawing', { n: view.drawn })}</span>`;
      if (st.timer && st.timer.what === 'trick') {
        return html`<span class="wait">${t('trick.on_show')}</span> <${Countdown} remaining=${st.timer.remaining_ms} at=${st.timerAt} />`;
      }
      if (view.to_move !== null) return html`<span class="wait">${t('prompt.waiting_for', { name: p.names[view.to_move] })}</span>`;
      return null;
    }
    // An untimed table's turn has no clock to show.
    const timer = st.timer && ((st.timer.what === 'turn' && typeof st.timer.remaining_ms === 'number') || st.timer.what === 'window') ? st.timer : null;
    const clock = timer ? html`<${Countdown} remaining=${timer.remaining_ms} at=${st.timerAt} /><${BankClock} timer=${timer} at=${st.timerAt} />` : null;
    switch (legal.kind) {
      case 'actions': {
        const c = selected[0];
        const m = c && madiaoMoves ? madiaoMoves.get(c) : null;
        const plays = currentPlays(view);
        const lead = plays.length === 0 || plays.length === 4;
        const kind = c ? madiaoPlayKind(legal, lead, c) : null;
        return html`<span class="ask">${lead ? t('madiao.your_lead') : t('madiao.your_follow')}</span> ${clock}
          ${c && m
            ? html`<span class="choices">
                ${m.play
                  ? html`<button class=${kind === 'discard' ? 'warn' : 'primary'} data-action=${kind === 'lead' ? 'lead' : kind === 'capture' ? 'capture' : 'discard'}
                      onClick=${() => send({ play: /** @type {any} */ (c) })}>${t(kind === 'lead' ? 'madiao.lead' : kind === 'capture' ? 'madiao.capture' : 'madiao.discard')}</button>`
                  : null}
                ${m.slough
                  ? html`<button class=${m.play && kind !== 'discard' ? '' : 'primary'} data-action="slough" onClick=${() => send({ slough: /** @type {any} */ (c) })}>${t('madiao.slough')}</button>`
                  : null}
              </span>`
            : html`<span class="hint">${t('madiao.pick')}</span>`}`;
      }
      case 'cards': {
        const bury = legal.action === 'bury';
        const ask = t(cardsPrompt(legal, hand.length) ?? 'dbf.follow_prompt', { n: legal.count, m: legal.must.length });
        return html`<span class="ask">${ask}</span> ${clock}
          <span class="count">${selected.length}/${legal.count}</span>
          <button class="primary" data-action=${bury ? 'bury' : 'play'} disabled=${!ok || !ok.ok} onClick=${confirm}>
            ${bury ? t('dbf.bury') : t('dbf.play_n', { n: legal.count })}</button>`;
      }
      case 'lead':
        return html`<span class="ask">${t('dbf.lead_prompt')}</span> ${clock}
          ${selected.length >= 2 && legal.revoke === 'penalize' ? html`<span class="hint warn-text">${t('dbf.revoke_hint')}</span>` : null}
          <button class="primary" data-action="play" disabled=${!ok || !ok.ok} onClick=${confirm}>
            ${selected.length > 1 ? t('dbf.lead_n', { n: selected.length }) : t('dbf.lead')}</button>
          ${ok && !ok.ok && selected.length > 1 ? html`<span class="hint">${t(ok.why)}</span>` : null}`;
      case 'declare':
        return html`<span class="ask">${legal.cards.length ? t('dbf.declare_prompt') : t('dbf.declare_none')}</span>
          <span class="choices">
            ${legal.cards.map(
              (c) => html`<button key=${c} class=${legal.requested === c ? 'primary on' : 'primary'} data-action="declare" data-card=${c}
                onClick=${() => p.act({ declare: c })}>${t('dbf.show')} <${Card} game="dabaifen" code=${c} size="tiny" /></button>`,
            )}
            ${legal.requested ? html`<span class="hint">${t('dbf.requested', { card: legal.requested })}</span>
              <button data-action="withdraw" onClick=${() => p.act({ pass: true })}>${t('common.withdraw')}</button>` : null}
          </span>`;
      case 'annul':
        return html`<span class="ask">${t('dbf.annul_prompt')}</span> ${clock}
          <span class="choices">
            <button class=${legal.requested ? 'primary on' : 'primary'} data-action="annul" onClick=${() => p.act({ annul: true })}>${t('dbf.annul')}</button>
            <button data-action="keep" onClick=${() => p.act({ pass: true })}>${legal.requested ? t('common.withdraw') : t('dbf.keep')}</button>
          </span>`;
      case 'redeal':
        return html`<span class="ask">${t('madiao.redeal_prompt')}</span> ${clock}
          <span class="choices">
            <button class=${legal.requested ? 'primary on' : 'primary'} data-action="redeal" onClick=${() => p.act({ redeal: true })}>${t('madiao.redeal')}</button>
            <button data-action="keep" onClick=${() => p.act({ redeal: false })}>${legal.requested ? t('common.withdraw') : t('madiao.play_on')}</button>
          </span>`;
      default:
        return null;
    }
  }
}

/** The plays of Madiao's current trick (empty when a new trick is to be led). @param {MadiaoView | DabaifenView} view */
function currentPlays(view) {
  if (!isMadiao(view) || !view.tricks.length) return [];
  const tr = view.tricks[view.tricks.length - 1];
  return tr.plays.length === 4 ? [] : tr.plays;
}

/**
 * The chat: lines of muted players hidden, each other player's name a menu (mute, block, report),
 * and a row of canned messages.
 * @param {{chat: ChatMessage[], send: (m: import('./wire').ClientMsg) => void, identity?: import('./storage.js').Identity, table: string}} p
 */
function Chat(p) {
  const [text, setText] = useState('');
  useModeration(p.identity ?? null);
  const shown = p.chat.filter((m) => !isMuted(m.guest));
  const list = useRef(/** @type {HTMLDivElement | null} */ (null));
  useEffect(() => {
    if (list.current) list.current.scrollTop = list.current.scrollHeight;
  }, [p.chat.length]);
  /** @param {Event} e */
  const submit = (e) => {
    e.preventDefault();
    const line = text.trim();
    if (!line) return;
    p.send({ type: 'chat', text: line });
    setText('');
  };
  return html`<div class="chat">
    <div class="chat-lines" ref=${list} aria-live="polite">
      ${shown.length === 0 ? html`<p class="hint">${t('chat.empty')}</p>` : null}
      ${shown.map(
        (m) => html`<p key=${m.seq} data-seq=${m.seq}><${PlayerMenu} identity=${p.identity ?? null} player=${m.guest} name=${m.name}
          line=${{ table: p.table, seq: m.seq }} /> ${m.text}</p>`,
      )}
    </div>
    <${CannedRow} send=${(/** @type {string} */ line) => p.send({ type: 'chat', text: line })} />
    <form onSubmit=${submit}>
      <input maxlength="500" value=${text} placeholder=${t('chat.placeholder')} aria-label=${t('chat.placeholder')}
        onInput=${(/** @type {Event} */ e) => setText(/** @type {HTMLInputElement} */ (e.target).value)} />
      <button type="submit">${t('chat.send')}</button>
    </form>
  </div>`;
}

/**
 * The events of the table in words, newest first: the plays, each trick won and each hand's
 * result, with its scoring to open again.
 * @param {{st: TableState, names: string[], onShow: (hand: number) => void}} p
 */
function Log(p) {
  const game = p.st.table.game;
  const l = lang();
  const items = p.st.log.slice(-120).reverse();
  return html`<div class="log">
    ${items.length === 0 ? html`<p class="hint">${t('log.empty')}</p>` : null}
    ${items.map((x) => {
      if ('event' in x) return html`<p key=${x.key}>${eventText(game, x.event, p.names, l)}</p>`;
      if (x.story.kind === 'trick') return html`<p key=${x.key} class="log-trick" data-story="trick" data-hand=${x.hand}>${trickWonText(x.story, p.names, l)}</p>`;
      const view = p.st.ends[x.hand];
      const result = view ? view.result : p.st.results[x.hand];
      return html`<p key=${x.key} class="log-result" data-story="result" data-hand=${x.hand}>
        ${result ? handResultLine(game, x.hand, result, p.names, l) : ''}
        <button class="link" data-action="show-hand" onClick=${() => p.onShow(x.hand)}>${t('end.show')}</button></p>`;
    })}
  </div>`;
}

export { position };
