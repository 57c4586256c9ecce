// Hints and the card tracker at a casual table (docs/protocol.md, "Hints and the tracker"): the
// hint the server's bot gives on your turn, with its reason in your language, and the tracker's
// facts (cards played by suit, voids shown, your top cards, cards unseen) as the server works them
// out from your view. The client adds no rules of its own.

import { html } from '../vendor/preact-htm.js';
import { madiaoName, madiaoNameZh, dabaifenLabel, SUIT_NAMES } from './cards.js';
import { lang, t } from './i18n.js';

/** @typedef {import('./wire').HintMsg} HintMsg */
/** @typedef {import('./wire').MadiaoTracker} MadiaoTracker */
/** @typedef {import('./wire').DabaifenTracker} DabaifenTracker */

/**
 * The cards of a hinted action (the card of a Madiao play or slough, the cards of a Da Bai Fen
 * play or burial; none for a pass, a declaration is its card).
 * @param {HintMsg | null} hint @returns {string[]}
 */
export function hintCards(hint) {
  if (!hint) return [];
  const a = /** @type {Record<string, unknown>} */ (hint.action);
  for (const k of ['play', 'slough', 'bury', 'declare']) {
    const v = a[k];
    if (typeof v === 'string') return [v];
    if (Array.isArray(v)) return v.map(String);
  }
  return [];
}

/**
 * What a hinted action does, in words: face up or face down (Madiao), play, bury, show, pass.
 * @param {HintMsg} hint
 */
function hintVerb(hint) {
  const a = /** @type {Record<string, unknown>} */ (hint.action);
  if ('slough' in a) return t('hint.slough');
  if ('bury' in a) return t('hint.bury');
  if ('declare' in a) return t('hint.declare');
  if ('pass' in a) return t('hint.pass');
  if ('annul' in a) return t('hint.annul');
  if ('redeal' in a) return a.redeal ? t('hint.redeal') : t('hint.keep');
  return t('hint.play');
}

/** A card's short name in the current language. @param {'madiao' | 'dabaifen'} game @param {string} code */
function short(game, code) {
  return game === 'madiao' ? (lang() === 'zh' ? madiaoNameZh(code) : madiaoName(code)) : dabaifenLabel(code, lang());
}

/**
 * The hint on show: the suggested card(s) and the reason.
 * @param {{hint: HintMsg, game: 'madiao' | 'dabaifen', onClose: () => void}} p
 */
export function HintBox(p) {
  const cards = hintCards(p.hint);
  const reason = lang() === 'zh' ? p.hint.reason.zh : p.hint.reason.en;
  return html`<div class="hint-box" role="status" data-hint=${JSON.stringify(p.hint.action)} data-kind=${p.hint.reason.kind}>
    <strong>${t('hint.title')}</strong>
    <span class="hint-move">${hintVerb(p.hint)} ${cards.map((c) => short(p.game, c)).join(' ')}</span>
    <span class="hint-reason">${reason}</span>
    <button class="close" onClick=${p.onClose} aria-label=${t('common.close')}>×</button>
  </div>`;
}

/** A suit's label in the tracker. @param {'madiao' | 'dabaifen'} game @param {string} suit */
function suitLabel(game, suit) {
  if (game === 'madiao') return { T: '十', M: '萬', S: '索', W: '文' }[suit] ?? suit;
  if (suit === 'trumps') return t('track.trumps');
  const n = SUIT_NAMES[/** @type {'S' | 'H' | 'D' | 'C'} */ (suit)];
  return n ? n[lang()] : suit;
}

/**
 * The tracker's four facts, compactly.
 * @param {{tracker: MadiaoTracker | DabaifenTracker | null, game: 'madiao' | 'dabaifen', names: string[]}} p
 */
export function TrackerPanel(p) {
  const tr = p.tracker;
  if (!tr) return html`<div class="tracker" data-tracker="none"><p class="sub">${t('track.none')}</p></div>`;
  const list = (/** @type {readonly string[]} */ cs) => (cs.length ? cs.map((c) => short(p.game, c)).join(' ') : '—');
  const hidden = 'hidden_plays' in tr ? tr.hidden_plays : 0;
  return html`<div class="tracker" data-tracker="on">
    <table>
      <thead><tr><th></th><th>${t('track.played')}</th><th>${t('track.unseen')}</th></tr></thead>
      <tbody>
        ${tr.suits.map(
          (s) => html`<tr key=${s.suit} data-suit=${s.suit}>
            <th>${suitLabel(p.game, s.suit)}</th>
            <td class="played" data-cards=${s.played.join(' ')}>${list(s.played)}</td>
            <td class="unseen" data-cards=${s.unseen.join(' ')}>${list(s.unseen)}</td>
          </tr>`,
        )}
      </tbody>
    </table>
    ${hidden ? html`<p class="sub">${t('track.hidden', { n: hidden })}</p>` : null}
    <p class="top" data-cards=${tr.top.join(' ')}><b>${t('track.top')}</b> ${list(tr.top)}</p>
    <p class="voids" data-voids=${tr.voids.map((v) => `${v.seat}:${v.suit}`).join(' ')}><b>${t('track.voids')}</b>
      ${tr.voids.length
        ? tr.voids.map((v) => t('track.void', { name: p.names[v.seat] ?? `${v.seat + 1}`, suit: suitLabel(p.game, v.suit) })).join('; ')
        : '—'}</p>
  </div>`;
}
