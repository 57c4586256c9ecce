// Friend notices on every page (docs/web.md, "Friends"): an account away from the Friends page
// still hears its notices socket (docs/protocol.md, "Friend notices") and sees each notice in a
// small tray at the top right, under the header: a friend coming online or sitting down at a
// table (gone by itself after a few seconds), a challenge to accept or decline there, the answer
// to one of his, an invitation to a private event. The tray is fixed on the screen: it never
// moves the page under it (a table in play keeps its layout), and it keeps clear of the cards.

import { html, useEffect, useState } from '../vendor/preact-htm.js';
import { ApiError, call } from './api.js';
import { t } from './i18n.js';
import { openNotices } from './notices.js';
import { errorText, notify } from './ui.js';

/** @typedef {import('./notices.js').Notice} Notice */
/** @typedef {import('./wire').Challenge} Challenge */
/** @typedef {import('./wire').FriendMsg} FriendMsg */
/** @typedef {import('./wire').InvitedMsg} InvitedMsg */
/** @typedef {import('./storage.js').Identity} Identity */

/**
 * One notice in the tray: its key (one per friend, challenge or event: a newer notice about the
 * same replaces it), what it is, and when it goes by itself (ms since the epoch; `null`: when
 * answered or closed).
 * @typedef {{key: string, until: number | null} & ({kind: 'friend', friend: FriendMsg} | {kind: 'challenge', challenge: Challenge} | {kind: 'invited', invite: InvitedMsg})} TrayItem
 */

/** How long a notice that asks nothing stays (ms). */
export const PASSING_MS = 8000;

/** The most notices the tray shows at once (the newest). */
export const TRAY_MAX = 3;

/**
 * The tray after a notice arrives at `now`: a friend online or at a table passes after
 * [`PASSING_MS`] (one going offline is not shown, and takes his earlier notice away); a challenge
 * to the account stays until answered (and goes when withdrawn); the answer to one of his passes,
 * unless accepted (it stays, with the way to the table); an invitation stays until closed.
 * @param {TrayItem[]} list @param {Notice} n @param {number} now @returns {TrayItem[]}
 */
export function trayAfter(list, n, now) {
  /** @type {TrayItem | null} */
  let item = null;
  /** @type {string} */
  let key;
  if (n.type === 'friend') {
    const { type: _type, ...friend } = n;
    key = `friend:${friend.username}`;
    if (friend.online) item = { key, kind: 'friend', friend, until: now + PASSING_MS };
  } else if (n.type === 'challenge') {
    const { type: _type, ...challenge } = n;
    key = `challenge:${challenge.id}`;
    if (challenge.incoming) {
      if (challenge.status === 'pending') item = { key, kind: 'challenge', challenge, until: null };
    } else if (challenge.status !== 'pending' && challenge.status !== 'withdrawn') {
      item = { key, kind: 'challenge', challenge, until: challenge.status === 'accepted' ? null : now + PASSING_MS };
    }
  } else {
    const { type: _type, ...invite } = n;
    key = `invited:${invite.event}`;
    item = { key, kind: 'invited', invite, until: null };
  }
  const rest = list.filter((x) => x.key !== key);
  return item ? [item, ...rest] : rest;
}

/** The tray without the notices whose time has passed at `now`. @param {TrayItem[]} list @param {number} now */
export function trayAt(list, now) {
  return list.filter((x) => x.until === null || x.until > now);
}

/** @param {unknown} e */
const failure = (e) => notify('error', e instanceof ApiError ? errorText(e.code, e.message, e.reason) : String(e));

/**
 * The tray, for an account (a guest has no friends), on every page but Friends (which shows the
 * same notices in its own lists, from its own socket).
 * @param {{identity: Identity | null, page: string, navigate: (to: string) => void}} p
 */
export function FriendNotices(p) {
  const token = p.identity?.username ? p.identity.token : null;
  const on = !!token && p.page !== 'friends';
  const [list, setList] = useState(/** @type {TrayItem[]} */ ([]));
  const [top, setTop] = useState(0);

  useEffect(() => {
    if (!on || !token) return undefined;
    const sock = openNotices({ token, onNotice: (n) => setList((l) => trayAfter(l, n, Date.now())), onStatus: () => {} });
    const timer = setInterval(() => setList((l) => {
      const kept = trayAt(l, Date.now());
      return kept.length === l.length ? l : kept;
    }), 1000);
    return () => { sock.close(); clearInterval(timer); setList([]); };
  }, [on, token]);

  // Just under the header while it shows, at the top of the screen once it has scrolled away.
  useEffect(() => {
    if (!on) return undefined;
    const place = () => {
      const header = document.querySelector('header.top');
      setTop(Math.max(0, Math.round(header ? header.getBoundingClientRect().bottom : 0)));
    };
    place();
    window.addEventListener('resize', place);
    window.addEventListener('scroll', place, { passive: true });
    return () => { window.removeEventListener('resize', place); window.removeEventListener('scroll', place); };
  }, [on, p.page, list.length > 0]);

  if (!on || !token || !list.length) return null;
  /** @param {string} key */
  const drop = (key) => setList((l) => l.filter((x) => x.key !== key));
  /** @param {Challenge} c @param {'accept' | 'decline'} what */
  const answer = (c, what) =>
    call('POST', `/api/challenges/${c.id}/${what}`, { token }).then((/** @type {Challenge} */ r) => {
      drop(`challenge:${c.id}`);
      if (what === 'accept' && r.table) p.navigate(`/t/${r.table}`);
    }, failure);
  const close = (/** @type {string} */ key) => html`<button class="link close" data-action="dismiss" aria-label=${t('friends.dismiss')}
    title=${t('friends.dismiss')} onClick=${() => drop(key)}>×</button>`;

  return html`<aside class="friend-notices" style=${`top: ${top}px`} aria-label=${t('friends.notices')} role="status" aria-live="polite">
    ${list.slice(0, TRAY_MAX).map((x) => {
      if (x.kind === 'friend') {
        const f = x.friend;
        return html`<div key=${x.key} class="friend-notice" data-notice="friend" data-friend=${f.username}>
          <span class="dot here"></span>
          <span class="what">${f.table
            ? t('friends.notice_table', { name: f.username, table: f.table.name })
            : f.at_private_table ? t('friends.notice_private', { name: f.username }) : t('friends.notice_online', { name: f.username })}</span>
          ${f.table ? html`<a href=${`/t/${f.table.id}?watch`} data-link="1" data-watch=${f.table.id} onClick=${() => drop(x.key)}>${t('friends.watch')}</a>` : null}
          ${close(x.key)}
        </div>`;
      }
      if (x.kind === 'challenge') {
        const c = x.challenge;
        if (c.incoming) {
          return html`<div key=${x.key} class="friend-notice challenge" data-notice="challenge" data-challenge=${c.id}>
            <span class="what">${t('friends.challenged_by', { name: c.from, game: t(`game.${c.game}`) })}</span>
            <span class="acts">
              <button class="primary" data-action="accept" onClick=${() => answer(c, 'accept')}>${t('friends.accept')}</button>
              <button data-action="decline" onClick=${() => answer(c, 'decline')}>${t('friends.decline')}</button>
            </span>
            ${close(x.key)}
          </div>`;
        }
        return html`<div key=${x.key} class="friend-notice" data-notice="answer" data-challenge=${c.id} data-status=${c.status}>
          <span class="what">${t(c.status === 'accepted' ? 'friends.notice_accepted' : 'friends.notice_declined', { name: c.to })}</span>
          ${c.status === 'accepted' && c.table
            ? html`<a href=${`/t/${c.table}`} data-link="1" data-table=${c.table} onClick=${() => drop(x.key)}>${t('friends.go_to_table')}</a>`
            : null}
          ${close(x.key)}
        </div>`;
      }
      const i = x.invite;
      return html`<div key=${x.key} class="friend-notice" data-notice="invited" data-invite=${i.event}>
        <span class="what">${t('friends.invited', { host: i.host, name: i.name })}</span>
        <a href=${`/events/${i.event}`} data-link="1" data-event=${i.event} onClick=${() => drop(x.key)}>${t('friends.see_event')}</a>
        ${close(x.key)}
      </div>`;
    })}
  </aside>`;
}
