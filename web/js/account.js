// The account page (`/account`): a guest claims an account (a username and a password), anyone
// signs in (a new session on this browser), and a signed-in player sees its tables, signs out
// (here or everywhere), changes its password or deletes its account (docs/protocol.md,
// "Accounts").

import { html, useEffect, useState } from '../vendor/preact-htm.js';
import { ApiError, call } from './api.js';
import { errorText, t } from './i18n.js';
import { notify } from './ui.js';

/** @typedef {import('./state.js').Identity} Identity */
/** @typedef {import('./wire').SessionReply} SessionReply */
/** @typedef {import('./wire').AccountInfo} AccountInfo */
/** @typedef {import('./wire').AccountTables} AccountTables */
/** @typedef {import('./wire').SignedOut} SignedOut */

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
