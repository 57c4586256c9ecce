// Tournaments (docs/tournaments.md): the list with a form to make a swiss or an arena, and a
// tournament's page: join, start (a swiss's host), the player's table, the live standings and
// the tables. The pairing is the server's; the page asks every two seconds.

import { html, useEffect, useState } from '../vendor/preact-htm.js';
import * as api from './api.js';
import { t } from './i18n.js';
import { errorText, notify } from './ui.js';

/** @typedef {import('./wire').TournamentInfo} TournamentInfo */
/** @typedef {import('./wire').TournamentList} TournamentList */
/** @typedef {import('./wire').NewTournament} NewTournament */
/** @typedef {import('./storage.js').Identity} Identity */

/** How often a tournament's page asks for its state, in milliseconds. */
const POLL_MS = 2000;

/** @param {unknown} e */
function show(e) {
  notify('error', e instanceof api.ApiError ? errorText(e.code, e.message) : String(e));
}

/** @param {{id: string | null, identity: Identity | null, navigate: (p: string) => void}} p */
export function TournamentsPage(p) {
  return p.id
    ? html`<${Tournament} id=${p.id} identity=${p.identity} navigate=${p.navigate} />`
    : html`<${TournamentIndex} identity=${p.identity} navigate=${p.navigate} />`;
}

/** @param {{identity: Identity | null, navigate: (p: string) => void}} p */
function TournamentIndex(p) {
  const [list, setList] = useState(/** @type {TournamentList | null} */ (null));
  useEffect(() => {
    api.tournaments().then(setList).catch(show);
  }, []);
  return html`<div class="page tournaments-page">
    <h1>${t('tour.title')}</h1>
    <p class="hint">${t('tour.intro')}</p>
    <div class="tour-grid">
      ${p.identity ? html`<${NewTournamentForm} identity=${p.identity} navigate=${p.navigate} />`
        : html`<section class="card-box"><p>${t('tour.name_first')} <a href="/" data-link="1">${t('nav.lobby')}</a></p></section>`}
      <section class="card-box tour-list">
        <h2>${t('tour.all')}</h2>
        ${list === null ? html`<p>${t('common.loading')}</p>`
          : list.tournaments.length === 0 ? html`<p class="hint">${t('tour.none')}</p>`
          : html`<ul>${list.tournaments.map((x) => html`<li key=${x.id} data-tournament=${x.id} data-status=${x.status}>
              <a href=${`/tournaments/${x.id}`} data-link="1">${x.name}</a>
              <span class="hint"> · ${t(`tour.kind_${x.kind}`)} · ${t(`game.${x.game}`)} · ${t(`tour.status_${x.status}`)} · ${t('tour.players', { n: x.players })}</span>
            </li>`)}</ul>`}
      </section>
    </div>
  </div>`;
}

/** @param {{identity: Identity, navigate: (p: string) => void}} p */
function NewTournamentForm(p) {
  const [kind, setKind] = useState(/** @type {'swiss' | 'arena'} */ ('swiss'));
  const [game, setGame] = useState(/** @type {'madiao' | 'dabaifen'} */ ('madiao'));
  const [rounds, setRounds] = useState(3);
  const [minutes, setMinutes] = useState(30);
  const [hands, setHands] = useState(4);
  const [rated, setRated] = useState(false);
  const [deadline, setDeadline] = useState(120);
  const [busy, setBusy] = useState(false);
  /** @param {Event} e */
  const submit = async (e) => {
    e.preventDefault();
    setBusy(true);
    try {
      /** @type {NewTournament} */
      const req = { kind, game };
      if (kind === 'swiss') {
        req.rounds = rounds;
        req.deadline_seconds = deadline;
      } else req.minutes = minutes;
      if (game === 'madiao') req.hands = hands;
      if (rated) req.rated = true;
      const made = await api.createTournament(p.identity.token, req);
      p.navigate(`/tournaments/${made.id}`);
    } catch (err) {
      show(err);
    } finally {
      setBusy(false);
    }
  };
  /** @param {Event} e */
  const num = (e) => Number(/** @type {HTMLInputElement} */ (e.target).value);
  return html`<form class="card-box new-tournament" onSubmit=${submit}>
    <h2>${t('tour.new')}</h2>
    <div class="tour-pick" role="radiogroup" aria-label=${t('tour.kind')}>
      ${/** @type {const} */ (['swiss', 'arena']).map((k) => html`<button key=${k} type="button" role="radio" aria-checked=${kind === k ? 'true' : 'false'}
        class=${kind === k ? 'on' : ''} data-kind=${k} onClick=${() => setKind(k)}>${t(`tour.kind_${k}`)}</button>`)}
    </div>
    <p class="hint">${t(`tour.about_${kind}`)}</p>
    <div class="tour-pick" role="radiogroup" aria-label=${t('play.game')}>
      ${/** @type {const} */ (['madiao', 'dabaifen']).map((g) => html`<button key=${g} type="button" role="radio" aria-checked=${game === g ? 'true' : 'false'}
        class=${game === g ? 'on' : ''} data-game=${g} onClick=${() => setGame(g)}>${t(`game.${g}`)}</button>`)}
    </div>
    ${kind === 'swiss'
      ? html`<label>${t('tour.rounds')} <input type="number" name="rounds" min="1" max="20" value=${rounds} onInput=${(/** @type {Event} */ e) => setRounds(num(e))} /></label>`
      : html`<label>${t('tour.minutes')} <input type="number" name="minutes" min="1" max="240" value=${minutes} onInput=${(/** @type {Event} */ e) => setMinutes(num(e))} /></label>`}
    ${game === 'madiao' ? html`<label>${t('tour.hands')} <input type="number" name="hands" min=${rated ? 4 : 1} max="1000" value=${hands} onInput=${(/** @type {Event} */ e) => setHands(num(e))} /></label>` : null}
    ${kind === 'swiss' ? html`<label>${t('tour.deadline')} <input type="number" name="deadline_seconds" min="10" max="900" value=${deadline} onInput=${(/** @type {Event} */ e) => setDeadline(num(e))} /></label>` : null}
    <label class="check"><input type="checkbox" name="rated" checked=${rated} disabled=${!p.identity.username}
      onChange=${(/** @type {Event} */ e) => setRated(/** @type {HTMLInputElement} */ (e.target).checked)} /> ${t('tour.rated')}</label>
    ${!p.identity.username ? html`<p class="hint">${t('tour.rated_account')}</p>` : null}
    <button class="primary" type="submit" data-action="create-tournament" disabled=${busy}>${t('tour.create')}</button>
  </form>`;
}

/** @param {{id: string, identity: Identity | null, navigate: (p: string) => void}} p */
function Tournament(p) {
  const [info, setInfo] = useState(/** @type {TournamentInfo | null} */ (null));
  const [missing, setMissing] = useState(false);
  useEffect(() => {
    let stop = false;
    const load = () => api.tournament(p.id).then((x) => { if (!stop) setInfo(x); }).catch((e) => {
      if (stop) return;
      if (e instanceof api.ApiError && e.status === 404) setMissing(true);
      else show(e);
    });
    load();
    const timer = setInterval(load, POLL_MS);
    return () => { stop = true; clearInterval(timer); };
  }, [p.id]);
  if (missing) return html`<div class="page"><p>${t('tour.missing')}</p></div>`;
  if (!info) return html`<div class="page"><p>${t('common.loading')}</p></div>`;
  const me = p.identity?.id ?? null;
  const mine = info.standings.find((s) => s.guest === me) ?? null;
  const myTable = me ? info.tables.find((x) => x.points === null && x.table && x.guests.includes(me)) : null;
  const canJoin = p.identity && !mine && info.status !== 'finished' && (info.kind === 'arena' || info.round === 0);
  /** @param {() => Promise<TournamentInfo>} f */
  const act = async (f) => {
    try {
      setInfo(await f());
    } catch (e) {
      show(e);
    }
  };
  const token = p.identity?.token ?? '';
  const left = info.ends_ms !== null && info.status !== 'finished' ? Math.max(0, Math.round(((info.status === 'open' ? info.starts_ms ?? 0 : info.ends_ms) - info.now_ms) / 60000)) : null;
  return html`<div class="page tournament-page" data-tournament=${info.id} data-status=${info.status} data-round=${info.round}>
    <h1>${info.name}</h1>
    <p class="tour-meta">${t(`tour.kind_${info.kind}`)} · ${t(`game.${info.game}`)} · <b>${t(`tour.status_${info.status}`)}</b>
      ${info.kind === 'swiss' ? html` · ${t('tour.round_of', { n: info.round, of: info.rounds ?? 0 })}` : null}
      ${left !== null ? html` · ${t(info.status === 'open' ? 'tour.starts_in' : 'tour.ends_in', { n: left })}` : null}${' · '}${t('tour.players', { n: info.players })}
      ${' · '}<span class="tour-rated" data-rated=${info.rated ? '1' : '0'}>${t(info.rated ? 'tour.is_rated' : 'tour.is_casual')}</span></p>
    ${info.deadline_ms !== null ? html`<p class="tour-deadline" data-deadline=${info.deadline_ms}>${info.deadline_ms > info.now_ms
      ? t('tour.deadline_in', { n: Math.ceil((info.deadline_ms - info.now_ms) / 1000) })
      : t('tour.deadline_past')}${info.forfeits.length > 0 ? html` <span class="hint" data-forfeits=${info.forfeits.length}>${t('tour.forfeits', {
        names: info.forfeits.map((g) => info.standings.find((s) => s.guest === g)?.name ?? g).join(', ') })}</span>` : null}</p>` : null}
    <div class="tour-actions">
      ${canJoin ? html`<button class="primary" data-action="join-tournament" onClick=${() => act(() => api.joinTournament(token, info.id))}>${t('tour.join')}</button>` : null}
      ${mine && info.kind === 'arena' && info.status !== 'finished' ? html`<button data-action="leave-tournament" onClick=${() => act(() => api.leaveTournament(token, info.id))}>${t('tour.leave')}</button>` : null}
      ${info.kind === 'swiss' && info.round === 0 && me === info.host ? html`<button class="primary" data-action="start-tournament" disabled=${info.players < 2}
          onClick=${() => act(() => api.startTournament(token, info.id))}>${t('tour.start')}</button>` : null}
      ${myTable ? html`<a class="button primary my-table" href=${`/t/${myTable.table}`} data-link="1" data-table=${myTable.table}>${t('tour.my_table')}</a>` : null}
      ${!p.identity ? html`<span class="hint">${t('tour.name_first')} <a href="/" data-link="1">${t('nav.lobby')}</a></span>` : null}
    </div>
    <div class="tour-grid">
      <section class="card-box">
        <h2>${t('tour.standings')}</h2>
        <table class="standings">
          <thead><tr><th>#</th><th>${t('tour.player')}</th><th>${t('tour.points')}</th><th>${t('tour.matches')}</th>${info.kind === 'swiss' ? html`<th>${t('tour.tiebreak')}</th>` : null}</tr></thead>
          <tbody>${info.standings.map((s) => html`<tr key=${s.guest} data-guest=${s.guest} data-points=${s.points} class=${s.guest === me ? 'me' : ''}>
            <td>${s.rank}</td><td>${s.name}${s.playing ? html` <span class="hint">${t('tour.playing')}</span>` : null}</td><td>${s.points}</td><td>${s.matches}</td>${info.kind === 'swiss' ? html`<td>${s.tiebreak}</td>` : null}
          </tr>`)}</tbody>
        </table>
      </section>
      <section class="card-box tour-tables">
        <h2>${t('tour.tables')}</h2>
        ${info.tables.length === 0 ? html`<p class="hint">${t('tour.no_tables')}</p>` : html`<ul>${info.tables.map((x, i) => html`<li key=${x.table ?? i} data-table=${x.table ?? ''} data-over=${x.points ? '1' : '0'}>
          ${x.round !== null ? html`<span class="hint">${t('tour.round_n', { n: x.round })} · </span>` : null}
          ${x.names.map((n, j) => html`<span key=${j}>${n}${x.points ? html` <b>${x.points[j]}</b>` : null}${j + 1 < x.names.length ? ', ' : ''}</span>`)}
          ${x.bots > 0 ? html`<span class="hint"> + ${t('tour.bots', { n: x.bots })}</span>` : null}
          ${x.table ? html` · <a href=${x.points ? `/replay/${x.table}` : `/tv/${x.table}`} data-link="1" data-watch=${x.points ? null : x.table}>${t(x.points ? 'tour.replay' : 'tour.watch')}</a>` : null}
        </li>`)}</ul>`}
      </section>
    </div>
  </div>`;
}
