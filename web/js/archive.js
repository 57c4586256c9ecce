// The public archive on the Replays page (docs/protocol.md, "The public archive"): finished
// public games, newest first, a page at a time, searched by a player's name; each opens its
// replay, and its record downloads; a player's games and a month's download as one archive.

import { html, useEffect, useState } from '../vendor/preact-htm.js';
import { lang, playerNames, t } from './i18n.js';
import { errorText } from './ui.js';
import { finalScoreText } from './final_score.js';

/** @typedef {import('./wire').ArchivePage} ArchivePage */
/** @typedef {import('./wire').ArchivedGame} ArchivedGame */

/** The archive's page size the page asks for (the server allows 1 to 100). */
export const ARCHIVE_PAGE = 20;

/**
 * The address of one page of the archive.
 * @param {string} player @param {string | null} before
 */
export function archivePath(player, before) {
  const q = new URLSearchParams({ limit: String(ARCHIVE_PAGE) });
  if (player.trim()) q.set('player', player.trim());
  if (before) q.set('before', before);
  return `/api/archive/games?${q}`;
}

/** The UTC month (`YYYY-MM`) of a time in milliseconds. @param {number} ms */
export function monthOf(ms) {
  return new Date(ms).toISOString().slice(0, 7);
}

/** @param {string} path @returns {Promise<ArchivePage>} */
async function fetchPage(path) {
  const res = await fetch(path);
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new Error(body?.error ? errorText(body.error.code, body.error.message) : res.statusText);
  return body;
}

/**
 * The list of finished public games, with its search.
 * @param {{navigate: (p: string) => void}} p
 */
export function ArchiveList(p) {
  const [query, setQuery] = useState('');
  const [asked, setAsked] = useState('');
  const [games, setGames] = useState(/** @type {ArchivedGame[] | null} */ (null));
  const [next, setNext] = useState(/** @type {string | null} */ (null));
  const [error, setError] = useState(/** @type {string | null} */ (null));

  useEffect(() => {
    let live = true;
    setGames(null);
    setError(null);
    fetchPage(archivePath(asked, null)).then(
      (page) => {
        if (!live) return;
        setGames(page.games);
        setNext(page.next);
      },
      (e) => live && setError(String(e.message ?? e)),
    );
    return () => {
      live = false;
    };
  }, [asked]);

  const more = () => {
    if (!next) return;
    fetchPage(archivePath(asked, next)).then(
      (page) => {
        setGames((g) => [...(g ?? []), ...page.games]);
        setNext(page.next);
      },
      (e) => setError(String(e.message ?? e)),
    );
  };

  /** @param {Event} e */
  const search = (e) => {
    e.preventDefault();
    setAsked(query);
  };

  const l = lang();
  const month = monthOf(Date.now());
  return html`<section class="card-box archive" data-archive="1" data-asked=${asked} data-state=${games === null && !error ? 'loading' : 'ready'}>
    <h3>${t('archive.title')}</h3>
    <form class="archive-search" onSubmit=${search}>
      <label>${t('archive.player')} <input type="search" name="player" maxlength="64" value=${query}
        onInput=${(/** @type {Event} */ e) => setQuery(/** @type {HTMLInputElement} */ (e.target).value)} /></label>
      <button type="submit" data-action="archive-search">${t('archive.search')}</button>
    </form>
    <p class="archive-bulk">
      ${asked.trim()
        ? html`<a href=${`/api/archive/player/${encodeURIComponent(asked.trim())}`} download data-action="archive-player">${t('archive.player_all', { name: asked.trim() })}</a> · `
        : null}
      <a href=${`/api/archive/month/${month}`} download data-action="archive-month">${t('archive.month_all', { month })}</a>
      <span class="sub"> ${t('archive.format')}</span>
    </p>
    ${error ? html`<p class="error-box" role="alert">${error}</p>` : null}
    ${games === null && !error ? html`<p>${t('common.loading')}</p>` : null}
    ${games && games.length === 0 ? html`<p class="hint">${asked.trim() ? t('archive.none_for', { name: asked.trim() }) : t('archive.none')}</p>` : null}
    ${games && games.length > 0
      ? html`<ul class="archive-games">${games.map(
          (g) => html`<li key=${g.id} data-game=${g.id}>
            <a href=${`/replay/${g.id}`} data-link="1" data-action="archive-open"
              onClick=${(/** @type {Event} */ e) => { e.preventDefault(); p.navigate(`/replay/${g.id}`); }}>${g.name}</a>
            <span class="sub"> ${t(`game.${g.game}`)} · ${new Date(g.finished_ms).toLocaleString(l === 'zh' ? 'zh-CN' : 'en')}</span>
            <span class="archive-seats"> ${g.seats.map((s, i) => html`${i ? t('common.list_sep') : ''}${s.bot ? html`<span data-bot=${s.name} title=${s.name}>${t('archive.bot', { name: shownNames(g)[i] })}</span>` : s.name}`)}</span>
            ${g.score ? html`<span class="final-score" title=${t('games.score')}> · ${finalScoreText(g.score, shownNames(g))}</span>` : null}
            ${' '}<a class="small" href=${`/api/archive/games/${g.id}`} download=${`yezi-${g.id}.json`} data-action="archive-record">${t('archive.record')}</a>
          </li>`,
        )}</ul>`
      : null}
    ${next ? html`<button onClick=${more} data-action="archive-more">${t('archive.more')}</button>` : null}
  </section>`;
}

/**
 * An archived game's players by their names for players (two bots alike also by seat).
 * @param {import('./wire').ArchivedGame} g
 */
function shownNames(g) {
  return playerNames(g.seats.map((s) => (s.bot ? `bot:${s.name}` : s.name)));
}
