// Moderation as a player uses it: his lists of muted and blocked players (kept for the page, from
// `GET /api/me/moderation`), the menu on another player's name in the chat (mute, block, report the
// player or the line), the row of canned chat messages, and the lists on his own page to undo.
// The server keeps the lists; muted players' lines are hidden here, live and in the history a
// table sends (docs/protocol.md, "Moderation").

import { html, useEffect, useState } from '../vendor/preact-htm.js';
import * as api from './api.js';
import { t } from './i18n.js';
import { errorText, notify } from './ui.js';

/** @typedef {import('./wire').Listed} Listed */
/** @typedef {import('./wire').MyLists} Lists */
/** @typedef {import('./wire').NewReport} NewReport */

/** The lists of the signed-in player, shared by every component of the page. */
let lists = /** @type {Lists} */ ({ muted: [], blocked: [] });
/** The token the lists are of. */
let listsOf = /** @type {string | null} */ (null);
/** @type {Set<() => void>} */
const listeners = new Set();

function changed() {
  for (const f of listeners) f();
}

/** @param {unknown} e */
function show(e) {
  notify('error', e instanceof api.ApiError ? errorText(e.code, e.message) : String(e));
}

/** Loads the lists of the account whose session is `token` (none for a guest: empty lists). @param {string | null} token */
export async function loadLists(token) {
  if (!token) {
    lists = { muted: [], blocked: [] };
    listsOf = null;
    changed();
    return;
  }
  lists = /** @type {Lists} */ (await api.call('GET', '/api/me/moderation', { token }));
  listsOf = token;
  changed();
}

/**
 * The lists of the signed-in player (`account`: the identity has a username), loaded once per
 * token and kept up to date by the menus.
 * @param {{token: string, username?: string} | null} identity
 * @returns {Lists}
 */
export function useModeration(identity) {
  const [, tick] = useState(0);
  useEffect(() => {
    const f = () => tick((n) => n + 1);
    listeners.add(f);
    const token = identity && identity.username ? identity.token : null;
    if (token !== listsOf) loadLists(token).catch(() => {});
    return () => {
      listeners.delete(f);
    };
  }, [identity?.token]);
  return lists;
}

/** True when the guest `id` is muted by the signed-in player. @param {string | null | undefined} id */
export function isMuted(id) {
  return !!id && lists.muted.some((m) => m.id === id);
}

/**
 * Mutes, blocks (or undoes either) the player `id`.
 * @param {string} token @param {'mutes' | 'blocks'} list @param {string} id @param {boolean} on
 */
export async function setListed(token, list, id, on) {
  await api.call(on ? 'PUT' : 'DELETE', `/api/me/${list}/${encodeURIComponent(id)}`, { token });
  await loadLists(token);
}

/** The short messages of the canned row, by key (their text is in the page's language). */
export const CANNED = ['good_luck', 'well_played', 'thanks', 'sorry', 'one_moment'];

/** A row of buttons that each send a short message. @param {{send: (text: string) => void}} p */
export function CannedRow(p) {
  return html`<div class="canned" role="group" aria-label=${t('canned.label')}>
    ${CANNED.map((k) => html`<button type="button" data-canned=${k} onClick=${() => p.send(t(`canned.${k}`))}>${t(`canned.${k}`)}</button>`)}
  </div>`;
}

/**
 * The menu on another player's name: mute, block, report him (or the line, when `line` is given).
 * Only a signed-in player has it; for others the name is plain text. Its button shows the name,
 * or `label` where the name is shown already (a profile's page).
 * @param {{identity: {id: string, token: string, username?: string} | null, player: string | null | undefined, name: string, line?: {table: string, seq: number}, label?: string}} p
 */
export function PlayerMenu(p) {
  const [open, setOpen] = useState(false);
  const [reporting, setReporting] = useState(false);
  const [reason, setReason] = useState('');
  const me = p.identity;
  if (!me || !me.username || !p.player || p.player === me.id) return html`<b>${p.name}</b>`;
  const player = p.player;
  const muted = lists.muted.some((m) => m.id === player);
  const blocked = lists.blocked.some((m) => m.id === player);
  /** @param {'mutes' | 'blocks'} list @param {boolean} on @param {string} done */
  const toggle = async (list, on, done) => {
    try {
      await setListed(me.token, list, player, on);
      notify('info', t(done, { name: p.name }));
      setOpen(false);
    } catch (e) {
      show(e);
    }
  };
  /** @param {Event} e */
  const report = async (e) => {
    e.preventDefault();
    const why = reason.trim();
    if (!why) return;
    try {
      /** @type {NewReport} */
      const body = { player, reason: why };
      if (p.line) {
        body.table = p.line.table;
        body.chat = p.line.seq;
      }
      await api.call('POST', '/api/reports', { token: me.token, body });
      notify('info', t('mod.reported', { name: p.name }));
      setReporting(false);
      setOpen(false);
      setReason('');
    } catch (err) {
      show(err);
    }
  };
  return html`<span class="player-menu">
    <button type="button" class="name-button" aria-expanded=${open} onClick=${() => setOpen(!open)}>${p.label ?? p.name}</button>
    ${open
      ? html`<span class="menu" role="menu">
          <button type="button" role="menuitem" data-mod="mute" onClick=${() => toggle('mutes', !muted, muted ? 'mod.unmuted' : 'mod.muted')}>
            ${muted ? t('mod.unmute') : t('mod.mute')}</button>
          <button type="button" role="menuitem" data-mod="block" onClick=${() => toggle('blocks', !blocked, blocked ? 'mod.unblocked' : 'mod.blocked')}>
            ${blocked ? t('mod.unblock') : t('mod.block')}</button>
          <button type="button" role="menuitem" data-mod="report" onClick=${() => setReporting(!reporting)}>
            ${p.line ? t('mod.report_line') : t('mod.report')}</button>
          ${reporting
            ? html`<form class="report-form" onSubmit=${report}>
                <input maxlength="500" value=${reason} placeholder=${t('mod.reason')} aria-label=${t('mod.reason')}
                  onInput=${(/** @type {Event} */ e) => setReason(/** @type {HTMLInputElement} */ (e.target).value)} />
                <button type="submit">${t('mod.send_report')}</button>
              </form>`
            : null}
        </span>`
      : null}
  </span>`;
}

/** The signed-in player's lists on his page, each with its undo. @param {{identity: {token: string, username?: string}}} p */
export function MyModeration(p) {
  const l = useModeration(p.identity);
  /** @param {'mutes' | 'blocks'} list @param {Listed} x */
  const undo = async (list, x) => {
    try {
      await setListed(p.identity.token, list, x.id, false);
    } catch (e) {
      show(e);
    }
  };
  /** @param {string} title @param {'mutes' | 'blocks'} list @param {Listed[]} xs @param {string} undoText */
  const section = (title, list, xs, undoText) => html`<div class=${`mod-list ${list}`}>
    <h3>${title}</h3>
    ${xs.length === 0
      ? html`<p class="hint">${t('mod.none')}</p>`
      : html`<ul>
          ${xs.map((x) => html`<li data-player=${x.id}>${x.name} <button type="button" onClick=${() => undo(list, x)}>${undoText}</button></li>`)}
        </ul>`}
  </div>`;
  return html`<section class="account-box moderation">
    <h2>${t('mod.title')}</h2>
    ${section(t('mod.muted_list'), 'mutes', l.muted, t('mod.unmute'))}
    ${section(t('mod.blocked_list'), 'blocks', l.blocked, t('mod.unblock'))}
  </section>`;
}
