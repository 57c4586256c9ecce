// Friends (`/friends`; docs/web.md, "Friends"): the players an account follows, who of them is
// online and at which table (to watch, or on the TV), and challenges to a table — sent, and
// received to accept or decline. It hears what changes live, over the notices socket
// (docs/protocol.md, "Friend notices"): a friend coming online or going offline or sitting down
// at a table, a challenge arriving or answered, an invitation to a private event. Only while
// that socket is down does it ask the server again, every 20 seconds.

import { html, useEffect, useState } from '../vendor/preact-htm.js';
import { ApiError, call } from './api.js';
import { t } from './i18n.js';
import { errorText } from './ui.js';
import { openNotices } from './notices.js';

/** @typedef {import('./wire').FriendsReply} FriendsReply */
/** @typedef {import('./wire').Friend} Friend */
/** @typedef {import('./wire').Challenge} Challenge */
/** @typedef {import('./storage.js').Identity} Identity */
/** @typedef {import('./wire').InvitedMsg} InvitedMsg */
/** @typedef {import('./notices.js').Notice} Notice */

/** How often the page asks for its friends and challenges again while its socket is down (ms). */
export const FALLBACK_POLL_MS = 20000;

/**
 * The page's state after a notice.
 * @param {FriendsReply} r @param {Notice} n @returns {FriendsReply}
 */
export function applyNotice(r, n) {
  if (n.type === 'friend') {
    return {
      ...r,
      friends: r.friends.map((f) => (f.username === n.username
        ? { ...f, name: n.name, online: n.online, table: n.table, at_private_table: n.at_private_table }
        : f)),
    };
  }
  if (n.type === 'challenge') {
    const { type: _type, ...c } = n;
    const known = r.challenges.some((x) => x.id === c.id);
    return { ...r, challenges: known ? r.challenges.map((x) => (x.id === c.id ? c : x)) : [c, ...r.challenges] };
  }
  return r;
}

/** @param {unknown} e */
function message(e) {
  return e instanceof ApiError ? errorText(e.code, e.message) : String(e);
}

/**
 * @param {{identity: Identity, navigate: (path: string) => void}} props
 */
export function FriendsPage(props) {
  const token = props.identity.token;
  const [reply, setReply] = useState(/** @type {FriendsReply | null} */ (null));
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const [name, setName] = useState('');
  const [game, setGame] = useState(/** @type {'madiao' | 'dabaifen'} */ ('madiao'));

  const [live, setLive] = useState(false);
  const [invites, setInvites] = useState(/** @type {InvitedMsg[]} */ ([]));

  useEffect(() => {
    if (!props.identity.username) return undefined;
    let alive = true;
    let up = false;
    const load = () =>
      call('GET', '/api/friends', { token }).then(
        (r) => { if (alive) { setReply(r); setError(null); } },
        (e) => { if (alive) setError(message(e)); },
      );
    load();
    const notices = openNotices({
      token,
      onNotice: (n) => {
        if (!alive) return;
        if (n.type === 'invited') {
          const { type: _type, ...inv } = n;
          setInvites((list) => [inv, ...list.filter((i) => i.event !== inv.event)]);
        } else setReply((r) => (r ? applyNotice(r, n) : r));
      },
      onStatus: (now) => {
        if (!alive) return;
        // Back up: what came while it was down is asked for once.
        if (now && !up) load();
        up = now;
        setLive(now);
      },
    });
    const timer = setInterval(() => { if (!up) load(); }, FALLBACK_POLL_MS);
    return () => { alive = false; clearInterval(timer); notices.close(); };
  }, [token]);

  if (!props.identity.username) {
    return html`<div class="page friends-page">
      <h1>${t('friends.title')}</h1>
      <p class="hint">${t('friends.account_needed')}</p>
      <p><a href="/account" data-link="1" class="sign-in-link">${t('account.have_account')}</a></p>
    </div>`;
  }

  /** @param {Promise<any>} p @param {(r: any) => void} [then] */
  const run = (p, then) => p.then((r) => { setError(null); if (then) then(r); }, (e) => setError(message(e)));
  const refresh = () => run(call('GET', '/api/friends', { token }), setReply);

  /** @param {Event} e */
  const follow = (e) => {
    e.preventDefault();
    const u = name.trim();
    if (!u) return;
    run(call('PUT', `/api/friends/${encodeURIComponent(u)}`, { token }), (r) => { setReply(r); setName(''); });
  };

  /** @param {Challenge} c @param {'accept' | 'decline' | 'withdraw'} what */
  const answer = (c, what) =>
    run(call('POST', `/api/challenges/${c.id}/${what}`, { token }), (/** @type {Challenge} */ r) => {
      if (what === 'accept' && r.table) props.navigate(`/t/${r.table}`);
      else refresh();
    });

  const friends = reply?.friends ?? [];
  const challenges = reply?.challenges ?? [];
  const incoming = challenges.filter((c) => c.incoming && c.status === 'pending');
  return html`<div class="page friends-page" data-live=${live ? '1' : '0'}>
    <h1>${t('friends.title')}</h1>
    ${error ? html`<p class="error">${error}</p>` : null}
    ${invites.length
      ? html`<section class="invites">
          ${invites.map((i) => html`<div key=${i.event} class="banner invite" data-invite=${i.event}>
            ${t('friends.invited', { host: i.host, name: i.name })}${' '}
            <a href=${`/events/${i.event}`} data-link="1" data-event=${i.event}>${t('friends.see_event')}</a>
          </div>`)}
        </section>`
      : null}
    ${incoming.length
      ? html`<section class="challenges-in">
          ${incoming.map((c) => html`<div key=${c.id} class="banner challenge" data-challenge=${c.id}>
            ${t('friends.challenged_by', { name: c.from, game: t(`game.${c.game}`) })}
            <button class="primary" data-action="accept" onClick=${() => answer(c, 'accept')}>${t('friends.accept')}</button>
            <button data-action="decline" onClick=${() => answer(c, 'decline')}>${t('friends.decline')}</button>
          </div>`)}
        </section>`
      : null}
    <form class="follow-form" onSubmit=${follow}>
      <input name="username" placeholder=${t('friends.username')} value=${name} autocomplete="off"
        onInput=${(/** @type {Event} */ e) => setName(/** @type {HTMLInputElement} */ (e.target).value)} />
      <button type="submit" class="primary" data-action="follow">${t('friends.follow')}</button>
    </form>
    <div class="game-pick-inline">
      <label>${t('friends.challenge_game')}
        <select name="challenge-game" value=${game} onChange=${(/** @type {Event} */ e) => setGame(/** @type {HTMLSelectElement} */ (e.target).value === 'dabaifen' ? 'dabaifen' : 'madiao')}>
          <option value="madiao">${t('game.madiao')}</option>
          <option value="dabaifen">${t('game.dabaifen')}</option>
        </select></label>
    </div>
    ${reply && !friends.length ? html`<p class="hint">${t('friends.none')}</p>` : null}
    <ul class="friends">
      ${friends.map((f) => html`<li key=${f.username} data-friend=${f.username} data-online=${f.online ? '1' : '0'}>
        <span class=${`dot ${f.online ? 'on' : 'off'}`} title=${f.online ? t('friends.online') : t('friends.offline')}></span>
        <a href=${`/players/${encodeURIComponent(f.username)}`} data-link="1"><b>${f.username}</b></a>
        ${f.name !== f.username ? html` <span class="sub">(${f.name})</span>` : null}
        <span class="where">${f.table
          ? html`${t('friends.at_table', { name: f.table.name })}${' '}<a href=${`/t/${f.table.id}?watch`} data-link="1" data-watch=${f.table.id}>${t('friends.watch')}</a>
              ${f.table.status === 'playing' ? html` · <a href=${`/tv/${f.table.id}`} data-link="1">${t('nav.tv')}</a>` : null}`
          : f.at_private_table ? t('friends.private_table') : f.online ? t('friends.online') : t('friends.offline')}</span>
        <button data-action="challenge" onClick=${() => run(call('POST', '/api/challenges', { token, body: { username: f.username, game } }), refresh)}>${t('friends.challenge')}</button>
        <button class="link" data-action="unfollow" onClick=${() => run(call('DELETE', `/api/friends/${encodeURIComponent(f.username)}`, { token }), setReply)}>${t('friends.unfollow')}</button>
      </li>`)}
    </ul>
    ${challenges.length
      ? html`<h2>${t('friends.challenges')}</h2>
        <ul class="challenges">
          ${challenges.map((c) => html`<li key=${c.id} data-challenge=${c.id} data-status=${c.status}>
            ${c.incoming ? t('friends.from', { name: c.from }) : t('friends.to', { name: c.to })} · ${t(`game.${c.game}`)} ·${' '}<span class="status">${t(`friends.status.${c.status}`)}</span>
            ${c.status === 'accepted' && c.table ? html` <a href=${`/t/${c.table}`} data-link="1" data-table=${c.table}>${t('friends.go_to_table')}</a>` : null}
            ${!c.incoming && c.status === 'pending' ? html` <button class="link" data-action="withdraw" onClick=${() => answer(c, 'withdraw')}>${t('friends.withdraw')}</button>` : null}
          </li>`)}
        </ul>`
      : null}
  </div>`;
}
