// Ratings (docs/ratings.md): a game's leaderboard (`/ratings?game=…`) and an account's profile
// (`/players/{username}`: its ratings, recent rated matches and its rating history as a chart).

import { html, useEffect, useState } from '../vendor/preact-htm.js';
import * as api from './api.js';
import { lang, t } from './i18n.js';
import { errorText } from './ui.js';
import { PlayerMenu, useModeration } from './moderation.js';

/** @typedef {import('./wire').LeaderboardReply} LeaderboardReply */
/** @typedef {import('./wire').PlayerProfile} PlayerProfile */
/** @typedef {import('./wire').RatedResult} RatedResult */
/** @typedef {'madiao' | 'dabaifen'} Game */

/** The leaderboard's page size. */
export const BOARD_PAGE = 25;

/** A rating as shown: whole points, `?` after a provisional one. @param {number} r @param {boolean} provisional */
export function shownRating(r, provisional) {
  return `${Math.round(r)}${provisional ? '?' : ''}`;
}

/** A link to a player's profile. @param {{username: string}} p */
export function PlayerLink(p) {
  return html`<a class="player-link" href=${`/players/${encodeURIComponent(p.username)}`} data-link="1">${p.username}</a>`;
}

/** @param {unknown} e */
function message(e) {
  return e instanceof api.ApiError ? errorText(e.code, e.message) : String(e);
}

/** @param {{game: Game, navigate: (p: string) => void}} p */
export function LeaderboardPage(p) {
  const [offset, setOffset] = useState(0);
  const [board, setBoard] = useState(/** @type {LeaderboardReply | null} */ (null));
  const [error, setError] = useState(/** @type {string | null} */ (null));
  useEffect(() => {
    let alive = true;
    setBoard(null);
    setError(null);
    api.leaderboard(p.game, offset, BOARD_PAGE).then(
      (b) => alive && setBoard(b),
      (e) => alive && setError(message(e)),
    );
    return () => {
      alive = false;
    };
  }, [p.game, offset]);
  const games = /** @type {const} */ (['madiao', 'dabaifen']);
  return html`<div class="page ratings-page">
    <h1>${t('ratings.title')}</h1>
    <div class="game-tabs" role="tablist">
      ${games.map(
        (g) => html`<a key=${g} role="tab" aria-selected=${g === p.game ? 'true' : 'false'} class=${g === p.game ? 'on' : ''}
          href=${`/ratings?game=${g}`} data-link="1" data-game=${g} onClick=${() => setOffset(0)}>${t(`game.${g}`)}</a>`,
      )}
    </div>
    <p class="hint">${t('ratings.about')}</p>
    ${error ? html`<p class="error">${error}</p>` : null}
    ${!board && !error ? html`<p>${t('common.loading')}</p>` : null}
    ${board && board.entries.length === 0 ? html`<p class="hint" data-empty="1">${t('ratings.empty')}</p>` : null}
    ${board && board.entries.length
      ? html`<table class="leaderboard" data-game=${board.game}>
          <thead><tr><th>#</th><th>${t('ratings.player')}</th><th>${t('ratings.rating')}</th><th>±</th><th>${t('ratings.games')}</th></tr></thead>
          <tbody>
            ${board.entries.map(
              (e) => html`<tr key=${e.username} data-player=${e.username}>
                <td>${e.rank}</td>
                <td><${PlayerLink} username=${e.username} /></td>
                <td class="rating" title=${e.provisional ? t('ratings.provisional') : ''}>${shownRating(e.rating, e.provisional)}</td>
                <td>${Math.round(e.deviation)}</td>
                <td>${e.games}</td>
              </tr>`,
            )}
          </tbody>
        </table>`
      : null}
    ${board && board.total > BOARD_PAGE
      ? html`<div class="tb-pages">
          <button data-action="prev-page" disabled=${offset === 0} onClick=${() => setOffset(Math.max(0, offset - BOARD_PAGE))}>${t('lobby.prev_page')}</button>
          <span class="sub">${t('lobby.page', { from: offset + 1, to: offset + board.entries.length, total: board.total })}</span>
          <button data-action="next-page" disabled=${board.next === null} onClick=${() => setOffset(board.next ?? offset)}>${t('lobby.next_page')}</button>
        </div>`
      : null}
  </div>`;
}

/** A date in the page's language. @param {number} ms */
function day(ms) {
  return new Date(ms).toLocaleDateString(lang() === 'zh' ? 'zh-CN' : 'en');
}

/**
 * The points of a rating history chart: `[x, y]` in a `width` × `height` box (with `pad` around),
 * oldest on the left, the highest rating at the top; one point is drawn in the middle.
 * @param {number[]} ratings @param {number} width @param {number} height @param {number} pad
 * @returns {{points: [number, number][], lo: number, hi: number}}
 */
export function chartPoints(ratings, width, height, pad) {
  if (ratings.length === 0) return { points: [], lo: 0, hi: 0 };
  let lo = Math.min(...ratings);
  let hi = Math.max(...ratings);
  if (hi - lo < 20) {
    const mid = (hi + lo) / 2;
    lo = mid - 10;
    hi = mid + 10;
  }
  const w = width - 2 * pad;
  const h = height - 2 * pad;
  const n = ratings.length;
  /** @type {[number, number][]} */
  const points = ratings.map((r, i) => [
    pad + (n === 1 ? w / 2 : (i * w) / (n - 1)),
    pad + ((hi - r) * h) / (hi - lo),
  ]);
  return { points, lo, hi };
}

/** The rating history of one game as an inline SVG line chart. @param {{results: RatedResult[], game: Game}} p */
export function RatingChart(p) {
  const width = 480;
  const height = 160;
  const pad = 16;
  // The first point is the rating before the first match.
  const ratings = p.results.length ? [p.results[0].rating_before, ...p.results.map((r) => r.rating_after)] : [];
  const { points, lo, hi } = chartPoints(ratings, width, height, pad);
  if (points.length === 0) return null;
  const d = points.map(([x, y], i) => `${i ? 'L' : 'M'}${x.toFixed(1)},${y.toFixed(1)}`).join(' ');
  return html`<figure class="rating-chart" data-game=${p.game} data-points=${points.length}>
    <svg viewBox=${`0 0 ${width} ${height}`} width="100%" role="img" aria-label=${t('ratings.history_of', { game: t(`game.${p.game}`) })}>
      <line x1=${pad} y1=${pad} x2=${width - pad} y2=${pad} class="grid" stroke="currentColor" stroke-opacity="0.15" />
      <line x1=${pad} y1=${height - pad} x2=${width - pad} y2=${height - pad} class="grid" stroke="currentColor" stroke-opacity="0.15" />
      <text x=${pad} y=${pad - 4} font-size="10" fill="currentColor">${Math.round(hi)}</text>
      <text x=${pad} y=${height - 4} font-size="10" fill="currentColor">${Math.round(lo)}</text>
      <path d=${d} fill="none" stroke="currentColor" stroke-width="2" />
      ${points.map(([x, y], i) => html`<circle key=${i} cx=${x} cy=${y} r="3" fill="currentColor"><title>${Math.round(ratings[i])}</title></circle>`)}
    </svg>
    <figcaption>${t('ratings.history_of', { game: t(`game.${p.game}`) })}</figcaption>
  </figure>`;
}

/**
 * A player's public page; a signed-in visitor also has the menu to mute, block or report him.
 * @param {{username: string, identity?: {id: string, token: string, username?: string} | null}} p
 */
export function ProfilePage(p) {
  const [profile, setProfile] = useState(/** @type {PlayerProfile | null} */ (null));
  useModeration(p.identity ?? null);
  const [error, setError] = useState(/** @type {string | null} */ (null));
  useEffect(() => {
    let alive = true;
    setProfile(null);
    setError(null);
    api.player(p.username).then(
      (x) => alive && setProfile(x),
      (e) => alive && setError(message(e)),
    );
    return () => {
      alive = false;
    };
  }, [p.username]);
  if (error) return html`<div class="page profile-page"><h1>${p.username}</h1><p class="error">${error}</p></div>`;
  if (!profile) return html`<div class="page profile-page"><p>${t('common.loading')}</p></div>`;
  const games = profile.ratings.reduce((n, r) => n + r.games, 0);
  return html`<div class="page profile-page" data-player=${profile.username}>
    <h1>${profile.username}</h1>
    ${p.identity?.username && profile.guest !== p.identity.id
      ? html`<div class="profile-mod"><${PlayerMenu} identity=${p.identity} player=${profile.guest} name=${profile.username} label=${t('mod.menu')} /></div>`
      : null}
    <p class="sub">${t('ratings.joined', { date: day(profile.joined_ms) })} · ${t('ratings.rated_games', { n: games })}</p>
    ${profile.ratings.length === 0 ? html`<p class="hint">${t('ratings.no_rated')}</p>` : null}
    ${profile.ratings.map(
      (r) => html`<section key=${r.game} class="card-box game-rating" data-game=${r.game}>
        <h2>${t(`game.${r.game}`)}</h2>
        <p><b class="rating" data-rating=${Math.round(r.rating)}>${shownRating(r.rating, r.provisional)}</b> ± ${Math.round(r.deviation)}
          ${r.provisional ? html`<span class="hint"> (${t('ratings.provisional')})</span>` : null}</p>
        <p class="sub">${t('ratings.record', { n: r.games, wins: r.wins, losses: r.losses, draws: r.draws })}${' · '}<a href=${`/ratings?game=${r.game}`} data-link="1">${t('ratings.leaderboard')}</a></p>
        <p class="hint won-explained">${t('ratings.won_explained')}</p>
        <${RatingChart} game=${r.game} results=${profile.history.filter((h) => h.game === r.game)} />
      </section>`,
    )}
    ${profile.recent.length
      ? html`<section class="card-box recent-rated">
          <h2>${t('ratings.recent')}</h2>
          <ul>
            ${profile.recent.map(
              (x) => html`<li key=${x.table} data-table=${x.table} data-outcome=${x.outcome}>
                <span class=${`outcome ${x.outcome}`}>${t(`ratings.outcome.${x.outcome}`)}</span>
                ${x.forfeited ? html` <span class="hint">(${t('ratings.forfeited')})</span>` : null}
                <span class="sub"> ${t(`game.${x.game}`)} · ${day(x.at_ms)} · ${Math.round(x.rating_before)} → ${Math.round(x.rating_after)}
                  (${x.rating_after >= x.rating_before ? '+' : ''}${Math.round(x.rating_after - x.rating_before)})</span>${' · '}<a href=${`/replay/${x.table}`} data-link="1">${t('ratings.replay')}</a>
              </li>`,
            )}
          </ul>
        </section>`
      : null}
  </div>`;
}
