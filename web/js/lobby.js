// The lobby: your name, a new table (game, preset, variants with their explanations, stake and
// clock, pace and grace period, who sits where), the open tables to join or watch, an invite link,
// your recent tables.

import { html, useEffect, useState } from '../vendor/preact-htm.js';
import * as api from './api.js';
import { aside, botName, lang, presetName, t } from './i18n.js';
import { GRACE, PACES, graceSeconds } from './pace.js';
import { ZERO_CASH } from './figures.js';
import { seenTables } from './storage.js';
import { VARIANTS, overrides } from './variants.js';
import { BotLabel, TutorialLinks, errorText, notify } from './ui.js';
import { PlayNow } from './playnow.js';

/** @typedef {import('./wire').GamesReply} GamesReply */
/** @typedef {import('./wire').GameInfo} GameInfo */
/** @typedef {import('./wire').TableSummary} TableSummary */
/** @typedef {import('./wire').SeatChoice} SeatChoice */
/** @typedef {import('./pace.js').Pace} Pace */
/** @typedef {import('./figures.js').ZeroCash} ZeroCash */
/** @typedef {import('./storage.js').Identity} Identity */
/** @typedef {'me' | 'open' | string} SeatPick a seat: me, open, or `bot:NAME` */

/** @param {unknown} e */
function show(e) {
  if (e instanceof api.ApiError) notify('error', errorText(e.code, e.message));
  else notify('error', String(e));
}

/** Asks a newcomer for a name and makes a guest identity. @param {{onIdentity: (id: Identity) => void, initial?: string}} p */
export function NameForm(p) {
  const [name, setName] = useState(p.initial ?? '');
  const [busy, setBusy] = useState(false);
  /** @param {Event} e */
  const submit = async (e) => {
    e.preventDefault();
    if (!name.trim()) return;
    setBusy(true);
    try {
      const g = await api.createGuest(name.trim());
      p.onIdentity({ id: g.id, name: g.name, token: g.token });
    } catch (err) {
      show(err);
    } finally {
      setBusy(false);
    }
  };
  return html`<form class="name-form" onSubmit=${submit}>
    <label for="name">${t('lobby.your_name')}</label>
    <input id="name" name="name" maxlength="24" autocomplete="nickname" value=${name} placeholder=${t('lobby.name_placeholder')}
      onInput=${(/** @type {Event} */ e) => setName(/** @type {HTMLInputElement} */ (e.target).value)} />
    <button class="primary" type="submit" disabled=${busy || !name.trim()}>${t('lobby.enter')}</button>
  </form>`;
}

/** @param {{identity: Identity, navigate: (p: string) => void, onRename: () => void}} p */
export function Lobby(p) {
  const [games, setGames] = useState(/** @type {GamesReply | null} */ (null));
  const [tables, setTables] = useState(/** @type {TableSummary[] | null} */ (null));
  const [offset, setOffset] = useState(0);
  const [total, setTotal] = useState(0);
  useEffect(() => {
    api.games().then(setGames, show);
  }, []);
  useEffect(() => {
    let alive = true;
    const load = () =>
      api.lobby(offset).then(
        (r) => {
          if (!alive) return;
          // The lobby shrank below this page: back to the last page there is.
          if (r.tables.length === 0 && r.total > 0 && offset > 0) {
            setOffset(Math.max(0, Math.floor((r.total - 1) / api.LOBBY_PAGE) * api.LOBBY_PAGE));
            return;
          }
          setTables(r.tables);
          setTotal(r.total);
        },
        () => alive && setTables((x) => x ?? []),
      );
    load();
    const h = setInterval(load, 4000);
    return () => {
      alive = false;
      clearInterval(h);
    };
  }, [offset]);
  const pages = { offset, total, setOffset };
  return html`<div class="page lobby">
    <section class="welcome">
      <p>${t('lobby.hello', { name: p.identity.name })} <button class="link" onClick=${p.onRename}>${t('lobby.rename')}</button></p>
      <p class="hint">${t('lobby.intro')}</p>
      <${TutorialLinks} />
    </section>
    <div class="lobby-grid">
      ${games ? html`<${NewTable} games=${games} identity=${p.identity} navigate=${p.navigate} />` : html`<section class="card-box"><p>${t('common.loading')}</p></section>`}
      <div class="lobby-side">
        <${PlayNow} identity=${p.identity} navigate=${p.navigate} />
        <${OpenTables} tables=${tables} pages=${pages} navigate=${p.navigate} />
        <${JoinLink} navigate=${p.navigate} />
        <${RecentTables} />
      </div>
    </div>
  </div>`;
}

/** @param {{games: GamesReply, identity: Identity, navigate: (p: string) => void}} p */
function NewTable(p) {
  const [game, setGame] = useState(/** @type {'madiao' | 'dabaifen'} */ ('madiao'));
  const info = /** @type {GameInfo} */ (p.games.games.find((g) => g.game === game));
  const presetNames = Object.keys(info.presets);
  const [preset, setPreset] = useState('standard');
  const presetValues = info.presets[preset] ?? info.presets.standard ?? {};
  const [chosen, setChosen] = useState(/** @type {Record<string, string>} */ ({}));
  const [stake, setStake] = useState(2);
  const [stakeMax, setStakeMax] = useState(2);
  // The clock: `untimed` or seconds; until the creator picks one, untimed when he is the only
  // person and the other seats are bots (an unrated table), else 30 s.
  const [clockPick, setClock] = useState(/** @type {string | null} */ (null));
  const [bank, setBank] = useState('60');
  const [pace, setPace] = useState(/** @type {Pace} */ ('normal'));
  const [grace, setGrace] = useState(String(GRACE.default));
  const [name, setName] = useState('');
  const [priv, setPriv] = useState(false);
  // Rated tables are for accounts only (the server refuses a guest's).
  const signedIn = Boolean(p.identity.username);
  const [rated, setRated] = useState(false);
  const bot = `bot:${info.default_bot}`;
  const [seats, setSeats] = useState(/** @type {SeatPick[]} */ (['me', bot, bot, bot]));
  const [busy, setBusy] = useState(false);
  const [more, setMore] = useState(false);
  const [zeroCash, setZeroCash] = useState(/** @type {ZeroCash} */ (ZERO_CASH[0]));
  const l = lang();

  /** @param {'madiao' | 'dabaifen'} g */
  const pickGame = (g) => {
    setGame(g);
    setPreset('standard');
    setChosen({});
    const gi = p.games.games.find((x) => x.game === g);
    const b = `bot:${gi ? gi.default_bot : 'random'}`;
    setSeats((s) => s.map((x) => (x.startsWith('bot:') ? b : x)));
  };
  const values = { ...presetValues, ...chosen };
  const soloWithBots = seats.filter((s) => s === 'me').length === 1 && seats.every((s) => s === 'me' || s.startsWith('bot:')) && !(signedIn && rated);
  const clock = clockPick ?? (soloWithBots ? 'untimed' : '30');
  const untimed = clock === 'untimed';

  /** @param {Event} e */
  const submit = async (e) => {
    e.preventDefault();
    const graceSecs = graceSeconds(grace);
    if (graceSecs === null) {
      notify('error', t('lobby.grace_hint'));
      return;
    }
    setBusy(true);
    /** @type {SeatChoice[]} */
    const seatChoices = seats.map((s) => (s === 'me' ? { kind: 'me' } : s === 'open' ? { kind: 'open' } : { kind: 'bot', bot: s.slice(4) }));
    try {
      const r = await api.createTable(p.identity.token, {
        game,
        rules: preset,
        variants: overrides(presetValues, values),
        stake: game === 'madiao' ? stake : undefined,
        stake_max: game === 'madiao' && stakeMax > stake ? stakeMax : undefined,
        untimed,
        turn_seconds: untimed ? undefined : Number(clock),
        bank_seconds: untimed ? undefined : Number(bank),
        pace,
        grace_seconds: graceSecs,
        // The default name in the host's language: the server's own default is English.
        name: name.trim() || t('lobby.table_name_default', { name: p.identity.name }),
        private: priv,
        seats: seatChoices,
        zero_cash: game === 'madiao' ? zeroCash : undefined,
        rated: signedIn && rated,
      });
      p.navigate(`/t/${r.table.id}${seats.includes('me') ? '' : '?watch'}`);
    } catch (err) {
      show(err);
    } finally {
      setBusy(false);
    }
  };

  return html`<section class="card-box new-table">
    <h2>${t('lobby.new_table')}</h2>
    <form onSubmit=${submit}>
      <div class="game-pick" role="radiogroup" aria-label=${t('lobby.game')}>
        ${/** @type {const} */ (['madiao', 'dabaifen']).map(
          (g) => html`<button key=${g} type="button" role="radio" aria-checked=${game === g ? 'true' : 'false'} class=${game === g ? 'on' : ''}
            data-game=${g} onClick=${() => pickGame(g)}>
            <span class="zh">${l === 'zh' ? t(`game.${g}`) : g === 'madiao' ? '馬弔' : '打百分'}</span>${l === 'zh' ? null : html`<span class="en">${t(`game.${g}`)}</span>`}
            <span class="about">${t(`lobby.about_${g}`)}</span></button>`,
        )}
      </div>
      <fieldset class="seats">
        <legend>${t('lobby.seats')}</legend>
        ${seats.map(
          (s, i) => html`<label key=${i} class="seat-pick">${t('lobby.seat_n', { n: i + 1 })}
            <select name=${`seat${i}`} value=${s} onChange=${(/** @type {Event} */ e) => {
              const v = /** @type {HTMLSelectElement} */ (e.target).value;
              setSeats(seats.map((x, j) => (j === i ? v : v === 'me' && x === 'me' ? bot : x)));
            }}>
              <option value="me">${t('lobby.seat_me')}</option>
              ${lobbyBots(info).map((b) => html`<option key=${b} value=${`bot:${b}`} title=${b} data-bot=${b}>${t('lobby.seat_bot', { bot: botName(b) })}${b === info.default_bot ? aside(t('lobby.default')) : ''}</option>`)}
              <option value="open">${t('lobby.seat_open')}</option>
            </select></label>`,
        )}
        <p class="hint">${t('lobby.seats_hint')}</p>
      </fieldset>
      <div class="row">
        <label>${t('lobby.preset')}
          <select name="preset" value=${preset} onChange=${(/** @type {Event} */ e) => { setPreset(/** @type {HTMLSelectElement} */ (e.target).value); setChosen({}); }}>
            ${presetNames.map((n) => html`<option key=${n} value=${n}>${presetName(n)}</option>`)}
          </select></label>
        ${game === 'madiao'
          ? html`<label>${t('lobby.stake')}
              <input type="number" name="stake" min="2" max="1000" step="2" value=${stake}
                onInput=${(/** @type {Event} */ e) => setStake(Number(/** @type {HTMLInputElement} */ (e.target).value))} /></label>`
          : null}
        ${game === 'madiao'
          ? html`<label title=${t('stake.default', { low: stake })}>${t('lobby.stake_max')}
              <input type="number" name="stake_max" min="2" max="1000" step="2" value=${Math.max(stakeMax, stake)}
                onInput=${(/** @type {Event} */ e) => setStakeMax(Number(/** @type {HTMLInputElement} */ (e.target).value))} /></label>`
          : null}
        <label>${t('lobby.clock')}
          <select name="clock" value=${clock} onChange=${(/** @type {Event} */ e) => setClock(/** @type {HTMLSelectElement} */ (e.target).value)}>
            <option value="untimed">${t('lobby.untimed')}</option>
            ${[15, 30, 60, 120, 600].map((s) => html`<option key=${s} value=${String(s)}>${t('lobby.seconds', { n: s })}</option>`)}
          </select></label>
        <label title=${t('lobby.bank_hint')}>${t('lobby.bank')}
          <select name="bank" value=${bank} disabled=${untimed} onChange=${(/** @type {Event} */ e) => setBank(/** @type {HTMLSelectElement} */ (e.target).value)}>
            ${[0, 30, 60, 120, 300].map((s) => html`<option key=${s} value=${String(s)}>${s === 0 ? t('lobby.bank_none') : t('lobby.seconds', { n: s })}</option>`)}
          </select></label>
      </div>
      <div class="row">
        <label title=${t('lobby.pace_hint')}>${t('lobby.pace')}
          <select name="pace" value=${pace} onChange=${(/** @type {Event} */ e) => setPace(/** @type {Pace} */ (/** @type {HTMLSelectElement} */ (e.target).value))}>
            ${PACES.map((x) => html`<option key=${x} value=${x}>${t(`pace.${x}`)}</option>`)}
          </select></label>
        <label title=${t('lobby.grace_hint')}>${t('lobby.grace')}
          <span class="with-unit"><input type="number" name="grace" min=${GRACE.min} max=${GRACE.max} step="1" value=${grace}
            onInput=${(/** @type {Event} */ e) => setGrace(/** @type {HTMLInputElement} */ (e.target).value)} /> ${t('lobby.seconds_unit')}</span></label>
      </div>
      <p class="hint pace-hint">${t('lobby.pace_hint')}</p>
      ${game === 'madiao'
        ? html`<div class="row zero-cash">
            <label title=${t('zero_cash.about')}>${t('zero_cash.label')}
              <select name="zero_cash" value=${zeroCash} onChange=${(/** @type {Event} */ e) => setZeroCash(/** @type {ZeroCash} */ (/** @type {HTMLSelectElement} */ (e.target).value))}>
                ${ZERO_CASH.map((z) => html`<option key=${z} value=${z}>${t(`zero_cash.${z}`)}</option>`)}
              </select></label>
            <span class="hint">${t('zero_cash.about')}</span>
          </div>`
        : null}
      <button type="button" class="link" aria-expanded=${more ? 'true' : 'false'} onClick=${() => setMore(!more)}>
        ${more ? '▾' : '▸'} ${t('lobby.variants')}${Object.keys(overrides(presetValues, values)).length ? aside(t('lobby.changed', { n: Object.keys(overrides(presetValues, values)).length })) : ''}</button>
      ${more
        ? html`<div class="variant-list">
            ${VARIANTS[game].map(
              (v) => html`<label key=${v.name} class="variant-pick">
                <span class="v-name">${v.label[l]}</span>
                <span class="v-about">${v.about[l]}</span>
                <select name=${v.name} value=${values[v.name] ?? ''} onChange=${(/** @type {Event} */ e) =>
                  setChosen({ ...chosen, [v.name]: /** @type {HTMLSelectElement} */ (e.target).value })}>
                  ${v.values.map((x) => html`<option key=${x.value} value=${x.value}>${x.text[l]}${presetValues[v.name] === x.value ? aside(presetName(preset)) : ''}</option>`)}
                </select>
              </label>`,
            )}
          </div>`
        : null}
      <div class="row">
        <label class="grow">${t('lobby.table_name')}
          <input name="table-name" maxlength="60" value=${name} placeholder=${t('lobby.table_name_default', { name: p.identity.name })}
            onInput=${(/** @type {Event} */ e) => setName(/** @type {HTMLInputElement} */ (e.target).value)} /></label>
        <label class="check"><input type="checkbox" checked=${priv} onChange=${(/** @type {Event} */ e) => setPriv(/** @type {HTMLInputElement} */ (e.target).checked)} /> ${t('lobby.private')}</label>
        <label class="check" title=${signedIn ? t('lobby.rated_hint') : t('lobby.rated_needs_account')}>
          <input type="checkbox" name="rated" checked=${signedIn && rated} disabled=${!signedIn}
            onChange=${(/** @type {Event} */ e) => setRated(/** @type {HTMLInputElement} */ (e.target).checked)} /> ${t('lobby.rated')}</label>
      </div>
      <p class="hint rated-hint" data-rated-hint=${signedIn ? 'rules' : 'account'}>${signedIn ? (rated ? t('lobby.rated_hint') : '') : t('lobby.rated_needs_account')}</p>
      <button class="primary big" type="submit" data-action="create" disabled=${busy}>${seats.includes('me') ? t('lobby.create_sit') : t('lobby.create_watch')}</button>
    </form>
  </section>`;
}

/**
 * @param {{tables: TableSummary[] | null, navigate: (p: string) => void,
 *   pages: {offset: number, total: number, setOffset: (n: number) => void}}} p
 */
function OpenTables(p) {
  const { offset, total, setOffset } = p.pages;
  const shown = p.tables?.length ?? 0;
  return html`<section class="card-box open-tables">
    <h2>${t('lobby.open_tables')}</h2>
    ${p.tables === null ? html`<p>${t('common.loading')}</p>` : null}
    ${p.tables && p.tables.length === 0 ? html`<p class="hint">${t('lobby.no_tables')}</p>` : null}
    <ul>
      ${(p.tables ?? []).map(
        (tb) => html`<li key=${tb.id} data-table=${tb.id}>
          <div class="tb-name"><b>${tb.name}</b>${tb.rated ? html` <span class="rated-mark" data-rated="1">${t('table.rated')}</span>` : null} <span class="sub">${t(`game.${tb.game}`)} · ${t(`status.${tb.status}`)} · <span class="tb-pace" data-pace=${tb.pace}>${t('table.pace', { pace: t(`pace.${tb.pace}`) })}</span></span></div>
          <div class="tb-seats">${tb.seats.map((s) => html`<span key=${s.seat} class=${`chip ${s.kind}`}>${s.kind === 'open' ? t('lobby.seat_open') : s.kind === 'bot' ? html`<${BotLabel} id=${s.bot ?? ''} />` : s.name}</span>`)}</div>
          <div class="tb-buttons">
            ${tb.open_seats > 0 ? html`<button class="primary" data-action="join" onClick=${() => p.navigate(`/t/${tb.id}`)}>${t('lobby.join')}</button>` : null}
            <button data-action="watch" onClick=${() => p.navigate(`/t/${tb.id}?watch`)}>${t('lobby.watch')}</button>
          </div>
        </li>`,
      )}
    </ul>
    ${total > api.LOBBY_PAGE
      ? html`<div class="tb-pages">
          <button data-action="prev-page" disabled=${offset === 0} onClick=${() => setOffset(Math.max(0, offset - api.LOBBY_PAGE))}>${t('lobby.prev_page')}</button>
          <span class="sub">${t('lobby.page', { from: offset + 1, to: offset + shown, total })}</span>
          <button data-action="next-page" disabled=${offset + shown >= total} onClick=${() => setOffset(offset + api.LOBBY_PAGE)}>${t('lobby.next_page')}</button>
        </div>`
      : null}
  </section>`;
}

/** The id of a table in an invite link or a bare id. @param {string} text */
export function tableIdOf(text) {
  const s = text.trim();
  const m = /\/t\/([A-Za-z0-9]+)/.exec(s);
  if (m) return m[1];
  return /^[A-Za-z0-9]+$/.test(s) ? s : null;
}

/** @param {{navigate: (p: string) => void}} p */
function JoinLink(p) {
  const [text, setText] = useState('');
  /** @param {Event} e */
  const submit = (e) => {
    e.preventDefault();
    const id = tableIdOf(text);
    if (id) p.navigate(`/t/${id}`);
    else notify('error', t('lobby.bad_link'));
  };
  return html`<section class="card-box">
    <h2>${t('lobby.invite')}</h2>
    <form class="inline" onSubmit=${submit}>
      <input value=${text} placeholder=${t('lobby.invite_placeholder')} aria-label=${t('lobby.invite')}
        onInput=${(/** @type {Event} */ e) => setText(/** @type {HTMLInputElement} */ (e.target).value)} />
      <button type="submit">${t('lobby.go')}</button>
    </form>
  </section>`;
}

/**
 * Tables this browser was at, with their replays: a replay link only for a table the server says
 * is finished (an unfinished table has no replay yet).
 */
function RecentTables() {
  const list = seenTables().slice(0, 8);
  const [finished, setFinished] = useState(/** @type {Record<string, boolean>} */ ({}));
  const ids = list.map((x) => x.id).join(',');
  useEffect(() => {
    let live = true;
    for (const x of list) {
      api.table(x.id).then(
        (tb) => { if (live && tb.status === 'finished') setFinished((f) => ({ ...f, [x.id]: true })); },
        () => {},
      );
    }
    return () => { live = false; };
  }, [ids]);
  return html`<section class="card-box recent">
    <h2>${t('lobby.recent')}</h2>
    ${list.length === 0 ? html`<p class="hint">${t('lobby.no_recent')}</p>` : null}
    <ul>${list.map(
      (x) => html`<li key=${x.id} data-table=${x.id}><a href=${`/t/${x.id}`} data-link="1">${x.name}</a> <span class="sub">${t(`game.${x.game}`)}</span>
        ${finished[x.id] ? html`<a class="small" href=${`/replay/${x.id}`} data-link="1">${t('lobby.replay')}</a>` : null}</li>`,
    )}</ul>
    <p><a href="/replay" data-link="1">${t('lobby.open_file')}</a></p>
  </section>`;
}

/**
 * The bots a lobby offers for a seat: the game's bots without those kept for research (the API
 * still seats them).
 * @param {import('./wire').GameInfo} info
 */
export function lobbyBots(info) {
  const research = new Set(info.research_bots ?? []);
  return info.bots.filter((b) => !research.has(b));
}
