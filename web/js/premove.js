// Play ahead (premove): while another seat is to play, the player may queue the card he will play
// when his turn comes; when it comes, the queued card is played if the server's `legal` still
// allows it, otherwise it is dropped with a notice. The page only compares the card with the legal
// choices the server sent: it knows no rule. Pure: unit-tested with `node --test`.

import { check, clickable, initialSelection, madiaoChoices, madiaoPlayKind, toggle } from './legal.js';

/** @typedef {import('./wire').Legal} Legal */
/** @typedef {import('./wire').MadiaoAction} MadiaoAction */
/** @typedef {import('./wire').DabaifenAction} DabaifenAction */

/**
 * Madiao: the action a chosen card takes by default (the `Enter` key, and a queued card): face up
 * when it leads or captures (§5), otherwise face down (a slough); face up as a discard only when
 * it may not be sloughed (a face-up discard costs 2 stakes under `faceup_discard: penalty`).
 * `null` when the card is not among the legal actions.
 * @param {Legal | null | undefined} legal @param {boolean} leading @param {string} card
 * @returns {MadiaoAction | null}
 */
export function madiaoDefault(legal, leading, card) {
  if (!legal || legal.kind !== 'actions') return null;
  const m = madiaoChoices(legal.actions).get(card);
  if (!m) return null;
  const kind = madiaoPlayKind(legal, leading, card);
  if (m.play && (kind !== 'discard' || !m.slough)) return { play: /** @type {any} */ (card) };
  if (m.slough) return { slough: /** @type {any} */ (card) };
  return null;
}

/**
 * What the queued card does when the turn comes, from the `legal` the server sent with it:
 * - `{send}`: the action to send at once (Madiao: as `madiaoDefault` chooses; Da Bai Fen: a
 *   single-card lead, or a follow of one card);
 * - `{select}`: the turn asks for several cards (a Da Bai Fen follow of a multi-card lead): the
 *   selection starts with the queued card (and the cards that must be played), for the player to
 *   complete;
 * - `{drop: true}`: the card may not be played now (the trick made it illegal): it is dropped.
 * `null` when `legal` is no turn to play (a window, the burial): the card stays queued.
 * @param {Legal | null | undefined} legal @param {boolean} leading (Madiao) the trick is to be led
 * @param {string} card
 * @returns {{send: MadiaoAction | DabaifenAction} | {select: string[]} | {drop: true} | null}
 */
export function premoveOutcome(legal, leading, card) {
  if (!legal) return null;
  switch (legal.kind) {
    case 'actions': {
      const a = madiaoDefault(legal, leading, card);
      return a ? { send: a } : { drop: true };
    }
    case 'lead':
      return /** @type {string[]} */ (legal.singles).includes(card)
        ? { send: { play: [/** @type {import('./wire').DabaifenCard} */ (card)] } }
        : { drop: true };
    case 'cards': {
      if (legal.action === 'bury') return null;
      if (!clickable(legal).has(card)) return { drop: true };
      if (legal.count === 1) {
        return check(legal, [card]).ok ? { send: { play: [/** @type {import('./wire').DabaifenCard} */ (card)] } } : { drop: true };
      }
      const start = initialSelection(legal);
      const sel = start.includes(card) ? start : toggle(legal, start, card);
      return sel.includes(card) ? { select: sel } : { drop: true };
    }
    default:
      return null;
  }
}

/**
 * Whether a card may be queued now: the hand is being played (Madiao's play, Da Bai Fen's burial
 * by the starter or play) and this seat has nothing to answer (`legal` is absent).
 * @param {{phase: string}} view @param {Legal | null | undefined} legal
 */
export function mayQueue(view, legal) {
  return !legal && (view.phase === 'play' || view.phase === 'playing' || view.phase === 'burying');
}
