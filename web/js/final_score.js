// The end of a match in lists and at the table: its final score in a line (My games, the public
// archive), and at a rated table each person's rating change beside the final score, as the
// server reports it (`GET /api/tables/{id}/ratings`). Pure apart from `RatingChanges`.

import { html, useEffect, useState } from '../vendor/preact-htm.js';
import * as api from './api.js';
import { rankText } from './cards.js';
import { t } from './i18n.js';
import { signed } from './scoring.js';

/** @typedef {import('./wire').MatchSummary} MatchSummary */
/** @typedef {import('./wire').RatingChange} RatingChange */

/**
 * A finished match's score in a line: Madiao, each seat's chips (`Ann +40 · Bo −20 …`); Da Bai
 * Fen, the two partnerships' ranks, the winners first marked.
 * @param {MatchSummary} score @param {readonly string[]} names
 */
export function finalScoreText(score, names) {
  if ('chips' in score) return score.chips.map((c, s) => `${names[s] ?? '?'} ${signed(c)}`).join(' · ');
  const team = (/** @type {number} */ k) => `${names[k] ?? '?'} & ${names[k + 2] ?? '?'}`;
  return [0, 1]
    .map((k) => t(score.winner === k ? 'final.team_won' : 'final.team', { names: team(k), rank: rankText(score.ranks[k]) }))
    .join(' · ');
}

/** A rating change as a signed whole number (`+23`, `−7`, `0`). @param {RatingChange} c */
export function ratingDelta(c) {
  return signed(Math.round(c.rating_after) - Math.round(c.rating_before));
}

/**
 * Each person's rating change in a finished rated match, asked of the server once the table is
 * finished (the ratings are stored with the table's end).
 * @param {{tableId: string, finished: boolean}} p
 */
export function RatingChanges(p) {
  const [changes, setChanges] = useState(/** @type {RatingChange[] | null} */ (null));
  useEffect(() => {
    if (!p.finished) return;
    let live = true;
    api.tableRatings(p.tableId).then(
      (r) => live && setChanges(r.changes),
      () => live && setChanges([]),
    );
    return () => {
      live = false;
    };
  }, [p.tableId, p.finished]);
  if (!p.finished) return html`<p class="rating-changes hint">${t('end.ratings_pending')}</p>`;
  if (!changes) return null;
  return html`<div class="rating-changes" data-ratings=${changes.length}>
    <h4>${t('end.ratings')}</h4>
    <ul>
      ${changes.map(
        (c) => html`<li key=${c.seat} data-seat=${c.seat} data-delta=${Math.round(c.rating_after) - Math.round(c.rating_before)}>
          <b>${c.name}</b> ${Math.round(c.rating_before)} → ${Math.round(c.rating_after)}
          <span class=${c.rating_after >= c.rating_before ? 'plus' : 'minus'}>(${ratingDelta(c)})</span>
          <span class="hint"> ${t(`ratings.outcome.${c.outcome}`)}${c.forfeited ? ` · ${t('ratings.forfeited')}` : ''}</span>
        </li>`,
      )}
    </ul>
    <p class="hint">${t('ratings.won_explained')}</p>
  </div>`;
}
