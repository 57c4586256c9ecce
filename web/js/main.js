// The page: the header (lobby, rules, replays, language, your name), the router (`/`,
// `/t/{id}`, `/replay/{id}`, `/replay`, `/rules`, `/tutorial/{game}`, `/account`) and the identity kept in local storage
// (a guest's, or an account's session).

import { html, render, useEffect, useState } from '../vendor/preact-htm.js';
import { AccountPage, tokenGone } from './account.js';
import { AnalysisPage } from './analysis.js';
import * as api from './api.js';
import { lang, onLang, setLang, t } from './i18n.js';
import { Lobby, NameForm } from './lobby.js';
import { LeaderboardPage, ProfilePage } from './ratings.js';
import { ReplayPage } from './replay.js';
import { RulesPage } from './rules.js';
import { loadIdentity, loadLang, saveIdentity, saveLang } from './storage.js';
import { TablePage } from './table.js';
import { TvPage } from './tv.js';
import { FriendsPage } from './friends.js';
import { FriendNotices } from './friend_notices.js';
import { TutorialPage } from './tutorial.js';
import { PuzzlesPage } from './puzzles.js';
import { EventPage, EventsPage } from './events.js';
import { TournamentsPage } from './tournaments.js';
import { Notices, TutorialLinks, notify, setZeroCash } from './ui.js';
import { route } from './routes.js';
import { registerServiceWorker } from './pwa.js';

/** @typedef {import('./storage.js').Identity} Identity */

function App() {
  const [, setLangState] = useState(lang());
  const [loc, setLoc] = useState({ path: location.pathname, search: location.search });
  const [identity, setIdentity] = useState(/** @type {Identity | null} */ (loadIdentity()));
  const [renaming, setRenaming] = useState(false);
  const [checked, setChecked] = useState(false);

  useEffect(() => onLang((l) => setLangState(l)), []);
  useEffect(() => {
    const onPop = () => setLoc({ path: location.pathname, search: location.search });
    window.addEventListener('popstate', onPop);
    // In-page links (`data-link`) navigate without reloading.
    /** @param {MouseEvent} e */
    const onClick = (e) => {
      const a = /** @type {HTMLElement | null} */ (e.target instanceof Element ? e.target.closest('a[data-link]') : null);
      if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
      e.preventDefault();
      navigate(/** @type {HTMLAnchorElement} */ (a).getAttribute('href') ?? '/');
    };
    document.addEventListener('click', onClick);
    return () => {
      window.removeEventListener('popstate', onPop);
      document.removeEventListener('click', onClick);
    };
  }, []);
  // A stored token is checked once: a server with a fresh database no longer knows it.
  useEffect(() => {
    if (!identity) {
      setChecked(true);
      return;
    }
    api.me(identity.token).then(
      (g) => {
        if (g.name !== identity.name) adoptIdentity({ ...identity, name: g.name });
        setChecked(true);
      },
      (e) => {
        if (tokenGone(e)) {
          if (identity.username) notify('error', t(`err.${e.code}`));
          adoptIdentity(null);
        }
        setChecked(true);
      },
    );
  }, []);

  /** @param {string} to */
  function navigate(to) {
    history.pushState(null, '', to);
    setLoc({ path: location.pathname, search: location.search });
    window.scrollTo(0, 0);
  }

  /** @param {Identity | null} id */
  function adoptIdentity(id) {
    saveIdentity(id);
    setIdentity(id);
    setRenaming(false);
  }

  const r = route(loc.path, loc.search);
  // Away from a table, Madiao cards are drawn as the default deck (a table draws its own).
  if (r.page !== 'table' && r.page !== 'tv') setZeroCash(null);
  /** @type {import('../vendor/preact-htm.js').VNode | null} */
  let body = null;
  // A table needs a name to sit down; opening a record file needs one to post it.
  const needsName = r.page === 'lobby' || r.page === 'table' || r.page === 'tv' || (r.page === 'replay' && !r.id);
  if (needsName && (!identity || renaming)) {
    body = html`<div class="page first">
      ${r.page === 'table' ? html`<p>${t('lobby.name_for_table')}</p>` : r.page === 'replay' ? html`<p>${t('replay.name_for_file')}</p>` : html`<${Intro} />`}
      <${NameForm} initial=${renaming && identity ? identity.name : ''} onIdentity=${adoptIdentity} />
      ${renaming ? null : html`<p class="hint"><a href="/account" data-link="1" class="sign-in-link">${t('account.have_account')}</a></p>`}
      ${renaming ? html`<p class="hint">${t('lobby.rename_hint')}</p>` : null}
    </div>`;
  } else if (r.page === 'lobby' && identity) {
    body = html`<${Lobby} identity=${identity} navigate=${navigate} onRename=${() => setRenaming(true)} />`;
  } else if (r.page === 'table' && identity) {
    body = checked
      ? html`<${TablePage} key=${`${r.id}${r.watch}`} id=${r.id} identity=${identity} watch=${r.watch} seat=${r.seat} navigate=${navigate}
          onBadToken=${(/** @type {string} */ code) => { notify('error', t(code === 'signed_out' ? 'err.signed_out' : 'err.bad_token')); adoptIdentity(null); }} />`
      : null;
  } else if (r.page === 'replay') {
    body = html`<${ReplayPage} key=${r.id ?? 'file'} id=${r.id} identity=${identity} navigate=${navigate} />`;
  } else if (r.page === 'analysis') {
    body = html`<${AnalysisPage} key=${r.id} id=${r.id} hand=${r.hand} seat=${r.seat} identity=${identity} navigate=${navigate} />`;
  } else if (r.page === 'account') {
    body = html`<${AccountPage} identity=${identity} onIdentity=${adoptIdentity} navigate=${navigate} />`;
  } else if (r.page === 'tutorial') {
    body = html`<${TutorialPage} key=${r.game} game=${r.game} navigate=${navigate} />`;
  } else if (r.page === 'puzzles') {
    body = checked ? html`<${PuzzlesPage} key=${r.game} game=${r.game} id=${r.id} identity=${identity} navigate=${navigate} />` : null;
  } else if (r.page === 'events') {
    body = checked ? html`<${EventsPage} identity=${identity} navigate=${navigate} />` : null;
  } else if (r.page === 'event') {
    body = checked ? html`<${EventPage} key=${r.id} id=${r.id} identity=${identity} navigate=${navigate} />` : null;
  } else if (r.page === 'tournaments') {
    body = checked ? html`<${TournamentsPage} key=${r.id ?? 'list'} id=${r.id} identity=${identity} navigate=${navigate} />` : null;
  } else if (r.page === 'rules') {
    body = html`<${RulesPage} game=${r.game} />`;
  } else if (r.page === 'ratings') {
    body = html`<${LeaderboardPage} game=${r.game} navigate=${navigate} />`;
  } else if (r.page === 'tv' && identity) {
    body = checked
      ? html`<${TvPage} key=${r.id ?? 'top'} id=${r.id} identity=${identity} navigate=${navigate}
          onBadToken=${(/** @type {string} */ code) => { notify('error', t(code === 'signed_out' ? 'err.signed_out' : 'err.bad_token')); adoptIdentity(null); }} />`
      : null;
  } else if (r.page === 'friends') {
    body = identity
      ? html`<${FriendsPage} key=${identity.token} identity=${identity} navigate=${navigate} />`
      : html`<${AccountPage} identity=${identity} onIdentity=${adoptIdentity} navigate=${navigate} />`;
  } else if (r.page === 'player') {
    body = html`<${ProfilePage} key=${r.username} username=${r.username} identity=${identity} />`;
  }

  return html`<div class="app">
    <header class="top">
      <a class="brand" href="/" data-link="1"><span class="logo">葉子</span> <span>yezi</span></a>
      <nav>
        <a href="/" data-link="1" class=${r.page === 'lobby' ? 'on' : ''}>${t('nav.lobby')}</a>
        <a href="/rules" data-link="1" class=${r.page === 'rules' ? 'on' : ''}>${t('nav.rules')}</a>
        <a href="/replay" data-link="1" class=${r.page === 'replay' || r.page === 'analysis' ? 'on' : ''}>${t('nav.replays')}</a>
        <a href="/puzzles" data-link="1" class=${r.page === 'puzzles' ? 'on' : ''} data-nav="puzzles">${t('nav.puzzles')}</a>
        <a href="/tournaments" data-link="1" class=${r.page === 'tournaments' ? 'on' : ''} data-nav="tournaments">${t('nav.tournaments')}</a>
        <a href="/ratings" data-link="1" class=${r.page === 'ratings' ? 'on' : ''} data-nav="ratings">${t('nav.ratings')}</a>
        <a href="/tv" data-link="1" class=${r.page === 'tv' ? 'on' : ''} data-nav="tv">${t('nav.tv')}</a>
        <a href="/friends" data-link="1" class=${r.page === 'friends' ? 'on' : ''} data-nav="friends">${t('nav.friends')}</a>
        <a href="/events" data-link="1" class=${r.page === 'events' || r.page === 'event' ? 'on' : ''} data-nav="events">${t('nav.events')}</a>
        <a href="/account" data-link="1" class=${r.page === 'account' ? 'on' : ''} data-nav="account">${t('nav.account')}</a>
      </nav>
      <div class="top-right">
        ${identity ? html`<span class="me" title=${t('page.shown_as')} data-guest=${identity.id}>${identity.name}</span>` : null}
        ${identity?.username ? html`<a class="account-name" href="/account" data-link="1" title=${t('account.signed_in_as', { username: identity.username })}>@${identity.username}</a>` : null}
        <button class="lang" data-action="lang" aria-label=${t('nav.language')}
          onClick=${() => { const l = lang() === 'en' ? 'zh' : 'en'; saveLang(l); setLang(l); }}>${lang() === 'en' ? '中文' : 'English'}</button>
      </div>
    </header>
    <main>${body}</main>
    <${FriendNotices} identity=${identity} page=${r.page} navigate=${navigate} />
    <${Notices} />
  </div>`;
}

function Intro() {
  return html`<section class="intro">
    <h1><span class="logo">葉子</span> yezi</h1>
    <p>${t('intro.text')}</p>
    <p class="games">${lang() === 'zh'
      ? html`<span><b>${t('game.madiao')}</b></span> · <span><b>${t('game.dabaifen')}</b></span>`
      : html`<span><b>馬弔</b> Madiao</span> · <span><b>打百分</b> Da Bai Fen</span>`}</p>
    <${TutorialLinks} />
  </section>`;
}

const stored = loadLang();
setLang(stored ?? (navigator.language && navigator.language.toLowerCase().startsWith('zh') ? 'zh' : 'en'));
const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(html`<${App} />`, root);
}
registerServiceWorker();
