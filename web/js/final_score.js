// The end of a match in lists and at the table: its final score in a line (My games, the public
// archive), and at a rated table each person's rating change in the row of his final score, as
// the server reports it (`GET /api/tables/{id}/ratings`). Pure apart from the hook and the cell.

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
 * finished (the ratings are stored with the table's end): null until the answer comes (or while
 * the table is not finished), then the changes (none if the question failed).
 * @param {string} tableId @param {boolean} ask
 * @returns {RatingChange[] | null}
 */
export function useRatingChanges(tableId, ask) {
  const [changes, setChanges] = useState(/** @type {RatingChange[] | null} */ (null));
  useEffect(() => {
    if (!ask) return;
    let live = true;
    api.tableRatings(tableId).then(
      (r) => live && setChanges(r.changes),
      () => live && setChanges([]),
    );
    return () => {
      live = false;
    };
  }, [tableId, ask]);
  return ask ? changes : null;
}

/**
 * One person's rating change, for the row of his final score: the change (`+14`) with the new
 * rating small beside it, the whole (before → after, the outcome) as the tooltip.
 * @param {{change: RatingChange, who?: string}} p `who`: the person's name, where the row names
 *   more than one (a Da Bai Fen partnership)
 */
export function RatingCell(p) {
  const c = p.change;
  const delta = Math.round(c.rating_after) - Math.round(c.rating_before);
  const title = `${Math.round(c.rating_before)} → ${Math.round(c.rating_after)} · ${t(`ratings.outcome.${c.outcome}`)}${c.forfeited ? ` · ${t('ratings.forfeited')}` : ''}`;
  return html`<span class="rating-change" data-seat=${c.seat} data-delta=${delta} data-after=${Math.round(c.rating_after)} title=${title}>
    ${p.who ? html`<span class="who">${p.who} </span>` : null}<b class=${delta > 0 ? 'plus' : delta < 0 ? 'minus' : ''}>${ratingDelta(c)}</b>
    <small class="after">${t('end.rating_now', { r: Math.round(c.rating_after) })}</small></span>`;
}
