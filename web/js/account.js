// The account page (`/account`): a guest claims an account (a username and a password), anyone
// signs in (a new session on this browser), and a signed-in player sees its tables, signs out
// (here or everywhere), changes its password or deletes its account (docs/protocol.md,
// "Accounts"); "my games" lists the player's finished games with filters, each opening its replay.

import { html, useEffect, useState } from '../vendor/preact-htm.js';
import { ApiError, call } from './api.js';
import { botTip, errorText, playerNames, t } from './i18n.js';
import { MatchAccuracyView } from './match_accuracy.js';
import { notify } from './ui.js';
import { finalScoreText } from './final_score.js';
import { MyModeration } from './moderation.js';

/** @typedef {import('./storage.js').Identity} Identity */
/** @typedef {import('./wire').SessionReply} SessionReply */
/** @typedef {import('./wire').AccountInfo} AccountInfo */
/** @typedef {import('./wire').AccountTables} AccountTables */
/** @typedef {import('./wire').SignedOut} SignedOut */
/** @typedef {import('./wire').MyGames} MyGames */
/** @typedef {import('./wire').MyGame} MyGame */

/** @param {string} guestToken @param {string} username @param {string} password @returns {Promise<SessionReply>} */
export function claimAccount(guestToken, username, password) {
  return call('POST', '/api/account', { body: { username, password }, token: guestToken });
}

/** @param {string} username @param {string} password @returns {Promise<SessionReply>} */
export function signIn(username, password) {
  return call('POST', '/api/sessions', { body: { username, password } });
}

/** @param {string} token @returns {Promise<AccountInfo>} */
export function accountInfo(token) {
  return call('GET', '/api/account', { token });
}

/** @param {string} token @returns {Promise<AccountTables>} */
export function accountTables(token) {
  return call('GET', '/api/account/tables', { token });
}

/**
 * One page of the guest's finished games (`GET /api/account/games`).
 * @param {string} token @param {{game?: string, result?: string, opponent?: string, rated?: string, offset?: number}} f
 * @returns {Promise<MyGames>}
 */
export function myGames(token, f) {
  const q = new URLSearchParams();
  if (f.game) q.set('game', f.game);
  if (f.result) q.set('result', f.result);
  if (f.opponent && f.opponent.trim()) q.set('opponent', f.opponent.trim());
  if (f.rated) q.set('rated', f.rated);
  if (f.offset) q.set('offset', String(f.offset));
  const qs = q.toString();
  return call('GET', `/api/account/games${qs ? `?${qs}` : ''}`, { token });
}

/** @param {string} token @returns {Promise<void>} */
export function signOut(token) {
  return call('DELETE', '/api/sessions/current', { token });
}

/** @param {string} token @returns {Promise<SignedOut>} */
export function signOutEverywhere(token) {
  return call('DELETE', '/api/sessions', { token });
}

/** @param {string} token @param {string} current @param {string} password @returns {Promise<SignedOut>} */
export function changePassword(token, current, password) {
  return call('POST', '/api/account/password', { body: { current, password }, token });
}

/** @param {string} token @param {string} password @returns {Promise<void>} */
export function deleteAccount(token, password) {
  return call('POST', '/api/account/delete', { body: { password }, token });
}

/** The identity of a new session. @param {SessionReply} s @returns {Identity} */
export function sessionIdentity(s) {
  return { id: s.id, name: s.name, token: s.token, username: s.username };
}

/** True for the errors that mean this browser's token no longer works. @param {unknown} e */
export function tokenGone(e) {
  return e instanceof ApiError && (e.code === 'bad_token' || e.code === 'session_expired' || e.code === 'session_revoked');
}

/** @param {unknown} e */
function show(e) {
  notify('error', e instanceof ApiError ? errorText(e.code, e.message) : String(e));
}

/** @param {Event} e */
const value = (e) => /** @type {HTMLInputElement} */ (e.target).value;

/**
 * A form of named password fields (and a username field when `user` is given).
 * @param {{id: string, user?: boolean, fields: string[], submit: string, danger?: boolean, onSubmit: (v: Record<string, string>) => Promise<void>}} p
 */
function CredForm(p) {
  const [v, setV] = useState(/** @type {Record<string, string>} */ ({}));
  const [busy, setBusy] = useState(false);
  const names = p.user ? ['username', ...p.fields] : p.fields;
  /** @param {Event} e */
  const submit = async (e) => {
    e.preventDefault();
    setBusy(true);
    try {
      await p.onSubmit(v);
      setV({});
    } catch (err) {
      show(err);
    } finally {
      setBusy(false);
    }
  };
  return html`<form class=${`account-form ${p.id}`} onSubmit=${submit}>
    ${names.map(
      (n) => html`<label>${t(p.id === 'change-password' && n === 'password' ? 'account.new_password' : `account.${n}`)}
        <input name=${n} type=${n === 'username' ? 'text' : 'password'} value=${v[n] ?? ''}
          autocomplete=${n === 'username' ? 'username' : n === 'password' && p.id !== 'sign-in' ? 'new-password' : 'current-password'}
          onInput=${(/** @type {Event} */ e) => setV({ ...v, [n]: value(e) })} /></label>`,
    )}
    <button class=${p.danger ? 'danger' : 'primary'} type="submit" data-action=${p.id} disabled=${busy}>${p.submit}</button>
  </form>`;
}

/**
 * "My games": the finished games of this browser's player, newest first, with filters (game,
 * result, opponent, rated or casual), each opening its replay.
 * @param {{token: string, navigate: (p: string) => void}} p
 */
function MyGamesList(p) {
  const [f, setF] = useState(/** @type {{game: string, result: string, opponent: string, rated: string}} */ ({ game: '', result: '', opponent: '', rated: '' }));
  const [list, setList] = useState(/** @type {MyGame[] | null} */ (null));
  const [page, setPage] = useState(/** @type {MyGames | null} */ (null));
  /** @param {number} offset */
  const load = (offset) =>
    myGames(p.token, { ...f, offset }).then((r) => {
      setPage(r);
      setList((old) => (offset && old ? [...old, ...r.games] : r.games));
    }, show);
  useEffect(() => {
    load(0);
  }, [p.token]);
  /** @param {string} k @returns {(e: Event) => void} */
  const field = (k) => (e) => setF({ ...f, [k]: value(e) });
  return html`<section class="account-box my-games">
    <h2>${t('games.title')}</h2>
    <form class="games-filter" onSubmit=${(/** @type {Event} */ e) => { e.preventDefault(); load(0); }}>
      <select name="game" aria-label=${t('games.any_game')} value=${f.game} onChange=${field('game')}>
        <option value="">${t('games.any_game')}</option>
        <option value="madiao">${t('game.madiao')}</option>
        <option value="dabaifen">${t('game.dabaifen')}</option>
      </select>
      <select name="result" aria-label=${t('games.any_result')} value=${f.result} onChange=${field('result')}>
        <option value="">${t('games.any_result')}</option>
        ${['won', 'lost', 'drawn'].map((r) => html`<option key=${r} value=${r}>${t(`result.${r}`)}</option>`)}
      </select>
      <select name="rated" aria-label=${t('games.any_kind')} value=${f.rated} onChange=${field('rated')}>
        <option value="">${t('games.any_kind')}</option>
        <option value="true">${t('games.rated')}</option>
        <option value="false">${t('games.casual')}</option>
      </select>
      <input name="opponent" maxlength="64" placeholder=${t('games.opponent')} aria-label=${t('games.opponent')} value=${f.opponent}
        onInput=${field('opponent')} />
      <button type="submit" data-action="filter-games">${t('games.filter')}</button>
    </form>
    ${page ? html`<p class="hint">${t('games.total', { n: page.total })}</p>` : null}
    <p class="hint won-explained">${t('games.won_explained')}</p>
    ${list && list.length === 0 ? html`<p class="hint">${t('games.none')}</p>` : null}
    ${list && list.length
      ? html`<ul class="games-list">
          ${list.map(
            (g) => html`<li key=${g.id} data-game=${g.id} data-result=${g.result} data-rated=${g.rated ? '1' : '0'}>
              <span class=${`result ${g.result}`}>${t(`result.${g.result}`)}</span>
              ${g.rated ? html`<span class="rated-mark">${t('games.rated')}</span>` : null}
              <a href=${g.replay} data-link="1" onClick=${(/** @type {Event} */ e) => { e.preventDefault(); p.navigate(g.replay); }}>${g.name || g.id}</a>
              <span class="hint players"> · ${t(`game.${g.game}`)} · ${playerNames(g.players).map((n, i) => (i === g.seat ? null : html`<span key=${i} class="player" data-seat=${i} title=${botTip(g.players[i])} data-bot=${botTip(g.players[i]) ?? null}>${n}</span>`)).filter((x) => x).map((x, k) => html`${k ? t('common.list_sep') : ''}${x}`)}</span>
              ${g.score ? html`<span class="final-score" title=${t('games.score')}> · ${finalScoreText(g.score, playerNames(g.players))}</span>` : null}
              <a class="button" href=${g.replay} data-action="replay" onClick=${(/** @type {Event} */ e) => { e.preventDefault(); p.navigate(g.replay); }}>${t('games.replay')}</a>
              ${g.accuracy ? html`<${MatchAccuracyView} key=${`${g.id}-acc`} id=${g.id} seat=${g.seat} token=${p.token} initial=${g.accuracy} />` : null}
            </li>`,
          )}
        </ul>`
      : null}
    ${page && page.next !== null ? html`<button data-action="more-games" onClick=${() => load(page.next ?? 0)}>${t('games.more')}</button>` : null}
  </section>`;
}

/** @param {{identity: Identity | null, onIdentity: (id: Identity | null) => void, navigate: (p: string) => void}} p */
export function AccountPage(p) {
  const id = p.identity;
  const [tables, setTables] = useState(/** @type {AccountTables | null} */ (null));
  const account = id && id.username ? id : null;
  useEffect(() => {
    if (!id) return;
    accountTables(id.token).then(setTables, (e) => {
      if (tokenGone(e)) lost(e);
      else show(e);
    });
  }, [id?.token]);

  /** @param {unknown} e */
  function lost(e) {
    show(e);
    p.onIdentity(null);
  }

  /** @param {SessionReply} s */
  function adopt(s) {
    p.onIdentity(sessionIdentity(s));
  }

  const signInForm = html`<section class="account-box">
    <h2>${t('account.sign_in')}</h2>
    ${id && !account ? html`<p class="hint">${t('account.sign_in_hint')}</p>` : null}
    <${CredForm} id="sign-in" user=${true} fields=${['password']} submit=${t('account.sign_in')}
      onSubmit=${async (/** @type {Record<string, string>} */ v) => adopt(await signIn(v.username ?? '', v.password ?? ''))} />
  </section>`;

  const tableList = tables
    ? html`<section class="account-box">
        <h2>${t('account.my_tables')}</h2>
        ${tables.tables.length === 0
          ? html`<p class="hint">${t('account.no_tables')}</p>`
          : html`<ul class="my-tables">
              ${tables.tables.map(
                (x) => html`<li data-table=${x.id}>
                  <a href=${`/t/${x.id}`} data-link="1">${x.name || x.id}</a>
                  <span class="hint"> · ${t(`game.${x.game}`)} · ${t(`status.${x.status}`)}</span>
                </li>`,
              )}
            </ul>`}
      </section>`
    : null;

  if (!account) {
    return html`<div class="page account-page">
      ${id
        ? html`<section class="account-box">
            <h2>${t('account.claim')}</h2>
            <p class="hint">${t('account.claim_hint', { name: id.name })}</p>
            <${CredForm} id="claim" user=${true} fields=${['password']} submit=${t('account.claim_button')}
              onSubmit=${async (/** @type {Record<string, string>} */ v) => {
                adopt(await claimAccount(id.token, v.username ?? '', v.password ?? ''));
                notify('info', t('account.claimed'));
              }} />
          </section>`
        : null}
      ${signInForm} ${tableList}
      ${id ? html`<${MyGamesList} token=${id.token} navigate=${p.navigate} />` : null}
    </div>`;
  }

  return html`<div class="page account-page">
    <section class="account-box">
      <h2>${t('account.signed_in_as', { username: account.username ?? '' })}</h2>
      <p class="hint">${t('account.shown_as', { name: account.name })}</p>
      <p><a class="my-profile" href=${`/players/${encodeURIComponent(account.username ?? '')}`} data-link="1">${t('ratings.my_profile')}</a></p>
      <div class="actions">
        <button data-action="sign-out" onClick=${async () => {
          try {
            await signOut(account.token);
          } catch (e) {
            if (!tokenGone(e)) return show(e);
          }
          p.onIdentity(null);
        }}>${t('account.sign_out')}</button>
        <button data-action="sign-out-everywhere" onClick=${async () => {
          try {
            await signOutEverywhere(account.token);
            p.onIdentity(null);
            notify('info', t('account.signed_out_everywhere'));
          } catch (e) {
            if (tokenGone(e)) lost(e);
            else show(e);
          }
        }}>${t('account.sign_out_everywhere')}</button>
      </div>
    </section>
    ${tableList}
    <${MyGamesList} token=${account.token} navigate=${p.navigate} />
    <${MyModeration} identity=${account} />
    <section class="account-box">
      <h2>${t('account.change_password')}</h2>
      <${CredForm} id="change-password" fields=${['current', 'password']} submit=${t('account.change_password')}
        onSubmit=${async (/** @type {Record<string, string>} */ v) => {
          await changePassword(account.token, v.current ?? '', v.password ?? '');
          notify('info', t('account.password_changed'));
        }} />
    </section>
    <section class="account-box">
      <h2>${t('account.delete')}</h2>
      <p class="hint">${t('account.delete_hint')}</p>
      <${CredForm} id="delete-account" fields=${['password']} submit=${t('account.delete')} danger=${true}
        onSubmit=${async (/** @type {Record<string, string>} */ v) => {
          await deleteAccount(account.token, v.password ?? '');
          p.onIdentity(null);
          notify('info', t('account.deleted'));
        }} />
    </section>
  </div>`;
}
