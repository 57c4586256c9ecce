// Duplicate events (`/events`, `/events/{id}`; docs/events.md): every table of an event plays the
// same boards and each result is compared with those of the same seat on the same board. The list
// with the form a host (an account) makes one with; an event's page: entering, the host's start,
// the player's table for his next board, the tables, each board's travelling score sheet, the
// standings, and the records as one archive. A host may make an event private, for the friends
// he invites (players he follows): only they and he see it.

import { html, useEffect, useState } from '../vendor/preact-htm.js';
import * as api from './api.js';
import { botName, t } from './i18n.js';
import { errorText } from './ui.js';

/** @typedef {import('./wire').EventInfo} EventInfo */
/** @typedef {import('./wire').EventList} EventList */
/** @typedef {import('./wire').NewEvent} NewEvent */
/** @typedef {import('./wire').EventSeat} EventSeat */
/** @typedef {import('./storage.js').Identity} Identity */

/** How often an event's page asks for it again, in milliseconds. */
const POLL_MS = 2000;

/** @param {unknown} e */
function message(e) {
  return e instanceof api.ApiError ? errorText(e.code, e.message, e.reason) : String(e);
}

/** A seat's name in the page's words: a bot's by its name for players. @param {EventSeat} s */
export function seatName(s) {
  return s.bot ? botName(s.name.replace(/^bot:/, '')) : s.name;
}

/** A score as shown: a percentage with two decimals, or stakes (Madiao) or card points (Da Bai Fen) with a sign. @param {number} v @param {string} scoring */
export function shownScore(v, scoring) {
  if (scoring === 'matchpoints') return `${v.toFixed(2)}%`;
  return v > 0 ? `+${v}` : `${v}`;
}

/**
 * A person's rating change in a rated event once it is over: the rating after, and the change
 * with its sign; nothing for a bot or before the end.
 * @param {import('./wire').EventStanding} s
 */
export function ratingChange(s) {
  if (s.rating_before === undefined || s.rating_after === undefined) return null;
  const d = Math.round(s.rating_after) - Math.round(s.rating_before);
  return html`<span data-rating-change=${d} class=${d > 0 ? 'up' : d < 0 ? 'down' : ''}>${Math.round(s.rating_after)} (${d > 0 ? '+' : d < 0 ? '−' : '±'}${Math.abs(d)})</span>`;
}

/** @param {{identity: Identity | null, navigate: (to: string) => void}} p */
export function EventsPage(p) {
  const [list, setList] = useState(/** @type {EventList | null} */ (null));
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const token = p.identity?.token ?? null;
  useEffect(() => {
    // With the token: the private events the asker is invited to are listed too.
    api.call('GET', '/api/events', { token }).then(setList, (e) => setError(message(e)));
  }, [token]);
  return html`<div class="page events-page">
    <h1>${t('events.title')}</h1>
    <p class="hint">${t('events.about')}</p>
    ${error ? html`<p class="error">${error}</p>` : null}
    ${list && list.events.length === 0 ? html`<p class="hint" data-empty="1">${t('events.none')}</p>` : null}
    ${list && list.events.length
      ? html`<div class="scroll-x"><table class="events-list">
          <thead><tr><th>${t('events.name')}</th><th>${t('events.host')}</th><th>${t('events.boards')}</th><th>${t('events.entrants')}</th><th>${t('events.status')}</th></tr></thead>
          <tbody>
            ${list.events.map(
              (e) => html`<tr key=${e.id} data-event=${e.id}>
                <td><a href=${`/events/${e.id}`} data-link="1">${e.name}</a>${e.rated ? html` <span class="rated-mark" data-rated="1">${t('events.rated_mark')}</span>` : null}${e.private ? html` <span class="private-mark" data-private="1">${t('events.private_mark')}</span>` : null}</td>
                <td>${e.host_name}</td><td>${e.boards}</td><td>${e.entrants}/${e.capacity}</td>
                <td>${t(`events.status_${e.status}`)}</td>
              </tr>`,
            )}
          </tbody></table></div>`
      : null}
    <${NewEventForm} identity=${p.identity} navigate=${p.navigate} />
  </div>`;
}

/** @param {{identity: Identity | null, navigate: (to: string) => void}} p */
function NewEventForm(p) {
  const [form, setForm] = useState({ name: '', game: 'madiao', boards: 8, tables: 3, people: 1, par: 1, scoring: 'matchpoints', turn: 30, start: '' });
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const [busy, setBusy] = useState(false);
  const [priv, setPriv] = useState(false);
  const [rated, setRated] = useState(false);
  const [friends, setFriends] = useState(/** @type {string[] | null} */ (null));
  const [invite, setInvite] = useState(/** @type {string[]} */ ([]));
  const token0 = p.identity?.token ?? null;
  useEffect(() => {
    if (!priv || friends || !token0) return;
    api.call('GET', '/api/friends', { token: token0 }).then(
      (/** @type {import('./wire').FriendsReply} */ r) => setFriends(r.friends.map((f) => f.username)),
      (e) => setError(message(e)),
    );
  }, [priv, token0]);
  if (!p.identity?.username) {
    return html`<p class="hint" data-needs-account="1">${t('events.need_account')} <a href="/account" data-link="1">${t('nav.account')}</a></p>`;
  }
  const token = p.identity.token;
  /** @param {string} k @returns {(e: Event) => void} */
  const set = (k) => (e) => {
    const el = /** @type {HTMLInputElement} */ (e.target);
    setForm({ ...form, [k]: el.type === 'number' ? Number(el.value) : el.value });
  };
  /** @param {Event} e */
  const submit = (e) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    /** @type {NewEvent} */
    const req = {
      game: form.game === 'dabaifen' ? 'dabaifen' : 'madiao',
      boards: form.boards,
      tables: form.tables,
      people_per_table: form.people,
      par_tables: form.par,
      scoring: form.scoring === 'total' ? 'total' : 'matchpoints',
      turn_seconds: form.turn,
    };
    if (form.name.trim()) req.name = form.name.trim();
    if (form.start) req.start_at_ms = new Date(form.start).getTime();
    if (priv) req.invite = invite;
    if (rated) req.rated = true;
    api.call('POST', '/api/events', { body: req, token }).then(
      (/** @type {EventInfo} */ ev) => p.navigate(`/events/${ev.id}`),
      (err) => {
        setError(message(err));
        setBusy(false);
      },
    );
  };
  return html`<form class="new-event" onSubmit=${submit}>
    <h2>${t('events.new')}</h2>
    <label>${t('events.name')} <input name="name" maxlength="60" value=${form.name} onInput=${set('name')} placeholder=${t('events.name_hint')} /></label>
    <label>${t('events.game')} <select name="game" value=${form.game} onChange=${set('game')}>
      <option value="madiao">${t('game.madiao')}</option>
      <option value="dabaifen">${t('game.dabaifen')}</option>
    </select></label>
    <label>${t('events.boards')} <input name="boards" type="number" min="1" max="32" value=${form.boards} onInput=${set('boards')} /></label>
    <label>${t('events.tables')} <input name="tables" type="number" min="1" max="16" value=${form.tables} onInput=${set('tables')} /></label>
    <label>${t('events.people')} <input name="people" type="number" min="1" max="4" value=${form.people} onInput=${set('people')} /></label>
    <label>${t('events.par')} <input name="par" type="number" min="0" max="2" value=${form.par} onInput=${set('par')} /></label>
    <label>${t('events.scoring')} <select name="scoring" value=${form.scoring} onChange=${set('scoring')}>
      <option value="matchpoints">${t('events.matchpoints')}</option>
      <option value="total">${t('events.total')}</option>
    </select></label>
    <label>${t('events.turn')} <input name="turn" type="number" min="5" max="3600" value=${form.turn} onInput=${set('turn')} /></label>
    <label>${t('events.start_at')} <input name="start" type="datetime-local" value=${form.start} onInput=${set('start')} /></label>
    <label class="check"><input type="checkbox" name="rated" checked=${rated} onChange=${(/** @type {Event} */ e) => setRated(/** @type {HTMLInputElement} */ (e.target).checked)} /> ${t('events.rated')}</label>
    <label class="check"><input type="checkbox" name="private" checked=${priv} onChange=${(/** @type {Event} */ e) => setPriv(/** @type {HTMLInputElement} */ (e.target).checked)} /> ${t('events.private')}</label>
    ${priv ? html`<fieldset class="invite" data-invite-list="1">
      <legend>${t('events.private_hint')}</legend>
      ${friends && !friends.length ? html`<p class="hint">${t('events.invite_none')}</p>` : null}
      ${(friends ?? []).map((u) => html`<label key=${u} class="check"><input type="checkbox" name="invite" value=${u} data-invite=${u}
        checked=${invite.includes(u)}
        onChange=${(/** @type {Event} */ e) => setInvite((/** @type {HTMLInputElement} */ (e.target)).checked ? [...invite, u] : invite.filter((x) => x !== u))} /> ${u}</label>`)}
    </fieldset>` : null}
    <p class="hint" data-hint=${form.game}>${t(form.game === 'dabaifen' ? 'events.new_hint_dabaifen' : 'events.new_hint')}</p>
    ${error ? html`<p class="error">${error}</p>` : null}
    <button type="submit" data-action="create-event" disabled=${busy}>${t('events.create')}</button>
  </form>`;
}

/** @param {{id: string, identity: Identity | null, navigate: (to: string) => void}} p */
export function EventPage(p) {
  const [ev, setEv] = useState(/** @type {EventInfo | null} */ (null));
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const token = p.identity?.token ?? null;
  const load = () => api.call('GET', `/api/events/${p.id}`, { token }).then(
    (/** @type {EventInfo} */ e) => {
      setEv(e);
      setError(null);
    },
    (e) => setError(message(e)),
  );
  useEffect(() => {
    load();
    const timer = setInterval(load, POLL_MS);
    return () => clearInterval(timer);
  }, [p.id, token]);
  /** @param {string} what */
  const post = (what) => api.call('POST', `/api/events/${p.id}/${what}`, { body: {}, token }).then(
    (/** @type {EventInfo} */ e) => setEv(e),
    (e) => setError(message(e)),
  );
  if (!ev) return html`<div class="page event-page">${error ? html`<p class="error">${error}</p>` : html`<p>${t('common.loading')}</p>`}</div>`;
  const you = ev.you;
  return html`<div class="page event-page" data-event=${ev.id} data-status=${ev.status} data-game=${ev.game}>
    <h1>${ev.name}</h1>
    <p class="event-facts">
      <span class="event-game">${t(`game.${ev.game}`)}</span>${' · '}${t('events.facts', { host: ev.host_name, boards: ev.boards, tables: ev.tables, people: ev.people_per_table, par: ev.par_tables })}${' · '}${t(ev.scoring === 'total' ? 'events.total' : 'events.matchpoints')}${' · '}<b>${t(`events.status_${ev.status}`)}</b>
    </p>
    ${ev.rated ? html`<p class="rated-note" data-rated="1">${t('events.rated_note')}</p>` : null}
    ${ev.private ? html`<p class="private-note" data-private="1">${t('events.private_for', { names: ev.invited.join(', ') })}</p>` : null}
    ${error ? html`<p class="error">${error}</p>` : null}
    ${ev.status === 'open' ? html`<section class="event-entry">
      ${ev.start_at_ms ? html`<p data-start-at=${ev.start_at_ms}>${t('events.begins', { at: new Date(ev.start_at_ms).toLocaleString() })}</p>` : null}
      <p>${t('events.entrants_of', { n: ev.entrants.length, capacity: ev.capacity })}${ev.entrants.length ? `: ${ev.entrants.join(', ')}` : ''}</p>
      ${!p.identity ? html`<p class="hint">${t('events.need_name')} <a href="/" data-link="1">${t('nav.lobby')}</a></p>` : null}
      ${p.identity && !ev.entered && ev.rated && !p.identity.username ? html`<p class="hint" data-needs-account="1">${t('events.rated_account')} <a href="/account" data-link="1">${t('nav.account')}</a></p>` : null}
      ${p.identity && !ev.entered && !(ev.rated && !p.identity.username) ? html`<button data-action="enter-event" onClick=${() => post('enter')}>${t('events.enter')}</button>` : null}
      ${ev.entered ? html`<p class="ok" data-entered="1">${t('events.entered')}</p>` : null}
      ${ev.host ? html`<button data-action="start-event" onClick=${() => post('start')}>${t('events.start')}</button>
        <p class="hint">${t('events.start_hint')}</p>` : null}
    </section>` : null}
    ${you ? html`<section class="event-you" data-board=${you.board ?? ''}>
      ${you.board !== undefined && you.table_id
        ? html`<p>${t('events.your_board', { board: you.board + 1, table: you.table + 1, seat: you.seat })}
            <a class="button" href=${`/t/${you.table_id}`} data-link="1" data-action="play-board">${t('events.play')}</a></p>`
        : you.board === undefined ? html`<p>${t('events.you_done')}</p>` : html`<p>${t('events.board_coming')}</p>`}
    </section>` : null}
    ${ev.event_tables.length ? html`<section><h2>${t('events.tables_title')}</h2><div class="scroll-x"><table class="event-tables">
      <thead><tr><th>#</th>${[0, 1, 2, 3].map((s) => html`<th key=${s}>${t('events.seat', { n: s })}</th>`)}<th>${t('events.board')}</th></tr></thead>
      <tbody>${ev.event_tables.map((tb) => html`<tr key=${tb.index} data-table=${tb.index}>
        <td class="num" data-label=${t('events.table')}>${tb.index + 1}${tb.par ? html` <span class="par">${t('events.par_mark')}</span>` : null}</td>
        ${tb.seats.map((s, i) => html`<td key=${i} class=${s.bot ? 'bot' : 'person'} data-label=${t('events.seat', { n: i })}>${seatName(s)}</td>`)}
        <td class="board" data-label=${t('events.board')}>${tb.board === undefined ? '✓' : (() => {
          const id = tb.table_ids[tb.board];
          // The TV of the table's board, delayed as the TV is; not for a player who has still
          // to play that board himself (every table plays the same cards).
          const mayWatch = id && (!you || you.board === undefined || tb.board < you.board);
          return mayWatch ? html`${tb.board + 1} · <a href=${`/tv/${id}`} data-link="1" data-watch=${id}>${t('events.watch')}</a>` : tb.board + 1;
        })()}</td>
      </tr>`)}</tbody></table></div></section>` : null}
    ${ev.standings.length && ev.travellers.length ? html`<section><h2>${t('events.standings')}</h2><div class="scroll-x"><table class="event-standings">
      <thead><tr><th>#</th><th>${t('events.player')}</th><th>${t('events.table_seat')}</th><th>${t('events.boards')}</th><th>${t(ev.scoring === 'total' ? 'events.total' : 'events.matchpoints')}</th>${ev.rated ? html`<th>${t('events.rating')}</th>` : null}</tr></thead>
      <tbody>${ev.standings.map((s) => html`<tr key=${`${s.table}-${s.seat}`} class=${s.bot ? 'bot' : 'person'} data-standing=${s.name}>
        <td>${s.rank}</td><td>${s.bot ? botName(s.name.replace(/^bot:/, '')) : s.name}${s.par ? html` <span class="par">${t('events.par_mark')}</span>` : null}</td>
        <td>${s.table + 1}/${s.seat}</td><td>${s.boards}</td><td class="score">${shownScore(s.score, ev.scoring)}</td>${ev.rated ? html`<td class="rating-change">${ratingChange(s)}</td>` : null}
      </tr>`)}</tbody></table></div></section>` : null}
    ${ev.travellers.length ? html`<section class="travellers"><h2>${t('events.travellers')}</h2>
      <p class="hint" data-scores=${ev.game}>${t(ev.game === 'dabaifen' ? 'events.scores_dabaifen' : 'events.scores_madiao')}</p>
      ${ev.travellers.slice().reverse().map((tr) => html`<div key=${tr.board} class="traveller" data-board=${tr.board}>
        <h3>${t('events.board_n', { n: tr.board + 1 })}${tr.complete ? '' : html` <span class="hint">${t('events.in_play')}</span>`}</h3>
        <div class="scroll-x"><table>
          <thead><tr><th>${t('events.table')}</th>${[0, 1, 2, 3].map((s) => html`<th key=${s}>${t('events.seat', { n: s })}</th>`)}</tr></thead>
          <tbody>${tr.lines.map((l) => html`<tr key=${l.table} data-table=${l.table}>
            <td><a href=${`/replay/${l.table_id}`} data-link="1">${l.table + 1}</a></td>
            ${l.scores.map((v, s) => html`<td key=${s}>${shownScore(v, 'total')} <span class="pct">${l.percent[s].toFixed(0)}%</span></td>`)}
          </tr>`)}</tbody>
        </table></div>
      </div>`)}
    </section>` : null}
    <p class="event-links">
      ${ev.travellers.length ? html`<a href=${`/api/events/${ev.id}/records`} download=${`yezi-event-${ev.id}.json`} data-action="records">${t('events.records')}</a>` : null}
      ${ev.seed ? html`${' · '}<span class="seed">${t('events.seed', { seed: ev.seed })}</span>` : null}${ev.travellers.length ? ' · ' : ''}<a href="/events" data-link="1">${t('events.all')}</a>
    </p>
  </div>`;
}
