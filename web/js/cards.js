// Cards of both games: names, labels, colours, order and sorting. Pure (no DOM): unit-tested
// with `node --test` (e2e/unit/cards.test.mjs). The rules behind the names and the order are
// docs/rules/madiao.md §1 and docs/rules/dabaifen.md §1–2.

/** @typedef {import('./wire').MadiaoCard} MadiaoCard */
/** @typedef {import('./wire').DabaifenCard} DabaifenCard */
/** @typedef {import('./wire').Trump} Trump */
/** @typedef {'en' | 'zh'} Lang */
/** @typedef {import('./figures.js').ZeroCash} ZeroCash */
/** @typedef {import('./figures.js').Figure} Figure */

import { FIGURES, ZERO_CASH } from './figures.js';

export { ZERO_CASH };

// ---------------------------------------------------------------------------------------------
// Madiao (馬弔): four money suits, 40 cards.

/** The suits, highest first, with their Chinese names and English names. */
export const MADIAO_SUITS = /** @type {const} */ ({
  T: { zh: '十', en: 'Tens', cls: 'tens' },
  M: { zh: '萬', en: 'Myriads', cls: 'myriads' },
  S: { zh: '索', en: 'Strings', cls: 'strings' },
  W: { zh: '文', en: 'Cash', cls: 'cash' },
});

/** Every Madiao card, suit by suit (T, M, S, W), highest first within each suit (§1). */
export const MADIAO_ORDER = /** @type {MadiaoCard[]} */ ([
  'TW', 'TQ', 'TB', 'T9', 'T8', 'T7', 'T6', 'T5', 'T4', 'T3', 'T2',
  'M9', 'M8', 'M7', 'M6', 'M5', 'M4', 'M3', 'M2', 'M1',
  'S9', 'S8', 'S7', 'S6', 'S5', 'S4', 'S3', 'S2', 'S1',
  'W0', 'WH', 'W1', 'W2', 'W3', 'W4', 'W5', 'W6', 'W7', 'W8', 'W9',
]);

/** The ten red cards (§1). */
export const MADIAO_RED = new Set(['TW', 'TQ', 'TB', 'T2', 'M9', 'M1', 'S9', 'S1', 'W0', 'W9']);

const DIGITS = ['〇', '一', '二', '三', '四', '五', '六', '七', '八', '九'];

/** True for a Madiao card code. @param {string} code @returns {code is MadiaoCard} */
export function isMadiaoCard(code) {
  return MADIAO_ORDER.includes(/** @type {MadiaoCard} */ (code));
}

/** The suit letter of a Madiao card. @param {string} code @returns {'T' | 'M' | 'S' | 'W'} */
export function madiaoSuit(code) {
  return /** @type {'T' | 'M' | 'S' | 'W'} */ (code[0]);
}

/**
 * The Chinese name of a Madiao card as printed on it: 萬萬, 千萬, 百萬, 九十萬, 九萬, 九索, 空沒文,
 * 半文, 九文. @param {string} code
 */
export function madiaoName(code) {
  const suit = code[0];
  const v = code[1];
  if (suit === 'T') {
    if (v === 'W') return '萬萬';
    if (v === 'Q') return '千萬';
    if (v === 'B') return '百萬';
    return `${DIGITS[Number(v)]}十萬`;
  }
  if (suit === 'W') {
    if (v === '0') return '空沒文';
    if (v === 'H') return '半文';
    return `${DIGITS[Number(v)]}文`;
  }
  return `${DIGITS[Number(v)]}${suit === 'M' ? '萬' : '索'}`;
}

/**
 * A Madiao card's name in simplified characters, for running text (萬 → 万, 沒 → 没): the
 * traditional forms stay on the card faces. @param {string} code
 */
export function madiaoNameZh(code) {
  return madiaoName(code).replace(/萬/g, '万').replace(/沒/g, '没');
}

/** The English name of a Madiao card (the rules file's). @param {string} code */
export function madiaoEnglish(code) {
  const suit = code[0];
  const v = code[1];
  if (suit === 'T') {
    if (v === 'W') return 'Myriad Myriad';
    if (v === 'Q') return 'Thousand Myriad';
    if (v === 'B') return 'Hundred Myriad';
    // 九十萬 is nine tens (of myriads): named in its suit, not as a number of myriads, which
    // would read as a card of the Myriads.
    return `${v} tens`;
  }
  if (suit === 'W') {
    if (v === '0') return 'Zero cash';
    if (v === 'H') return 'Half cash';
    return `${v} cash`;
  }
  if (suit === 'M') return v === '1' ? '1 myriad' : `${v} myriads`;
  return v === '1' ? '1 string' : `${v} strings`;
}

/**
 * The figure drawn on a Madiao card (§1): a Water Margin hero on the Tens and the Myriads, the
 * zero cash as the table's deck draws it, `null` for a card without one. The data is generated
 * from the Rust table (web/js/figures.js).
 * @param {string} code @param {ZeroCash | null | undefined} [zeroCash] the deck (default `unnamed`)
 * @returns {Figure | null}
 */
export function madiaoFigure(code, zeroCash) {
  const deck = FIGURES[zeroCash && ZERO_CASH.includes(zeroCash) ? zeroCash : 'unnamed'];
  return deck[code] ?? null;
}

/**
 * The short index printed in a card's corner, readable at a glance: the value, then the suit's
 * character (9萬, 90萬 is written 90, ½文 for half cash). @param {string} code
 */
export function madiaoIndex(code) {
  const suit = code[0];
  const v = code[1];
  if (suit === 'T') {
    if (v === 'W') return '萬萬';
    if (v === 'Q') return '千萬';
    if (v === 'B') return '百萬';
    return `${v}0`;
  }
  if (suit === 'W') {
    if (v === '0') return '0';
    if (v === 'H') return '½';
  }
  return v;
}

/**
 * How strong a Madiao card is within its suit: a larger number is stronger (§1; in cash 9 is
 * the lowest). @param {string} code
 */
export function madiaoStrength(code) {
  const i = MADIAO_ORDER.indexOf(/** @type {MadiaoCard} */ (code));
  return i < 0 ? -1 : 100 - i;
}

/** Madiao cards sorted by suit (T, M, S, W), highest first. @param {readonly string[]} cards */
export function sortMadiao(cards) {
  return [...cards].sort((a, b) => MADIAO_ORDER.indexOf(/** @type {MadiaoCard} */ (a)) - MADIAO_ORDER.indexOf(/** @type {MadiaoCard} */ (b)));
}

// ---------------------------------------------------------------------------------------------
// Da Bai Fen (打百分): 52 French cards and two jokers.

/** The suits in the order hands show them. */
export const DABAIFEN_SUITS = /** @type {const} */ (['S', 'H', 'D', 'C']);
/** The ranks, highest first (`T` is ten). */
export const DABAIFEN_RANKS = 'AKQJT98765432';
/** Suit symbols. */
export const SUIT_SYMBOL = /** @type {const} */ ({ S: '♠', H: '♥', D: '♦', C: '♣' });
/** Suit names. */
export const SUIT_NAMES = /** @type {const} */ ({
  S: { en: 'spades', zh: '黑桃' },
  H: { en: 'hearts', zh: '紅心' },
  D: { en: 'diamonds', zh: '方塊' },
  C: { en: 'clubs', zh: '梅花' },
});

/** True for a Da Bai Fen card code. @param {string} code */
export function isDabaifenCard(code) {
  if (code === 'BJ' || code === 'SJ') return true;
  return code.length === 2 && DABAIFEN_RANKS.includes(code[0]) && 'SHDC'.includes(code[1]);
}

/** A rank as printed: 10 for `T`. @param {string} rank */
export function rankText(rank) {
  return rank === 'T' ? '10' : rank;
}

/** The printed suit of a Da Bai Fen card, `null` for a joker. @param {string} code */
export function dabaifenSuit(code) {
  return code === 'BJ' || code === 'SJ' ? null : /** @type {'S' | 'H' | 'D' | 'C'} */ (code[1]);
}

/** The rank letter of a Da Bai Fen card, `null` for a joker. @param {string} code */
export function dabaifenRank(code) {
  return code === 'BJ' || code === 'SJ' ? null : code[0];
}

/** Red cards: hearts, diamonds and the big joker. @param {string} code */
export function dabaifenRed(code) {
  return code === 'BJ' || code[1] === 'H' || code[1] === 'D';
}

/** The card points of a card: K and 10 are 10, 5 is 5 (§1). @param {string} code */
export function cardPoints(code) {
  const r = dabaifenRank(code);
  return r === 'K' || r === 'T' ? 10 : r === '5' ? 5 : 0;
}

/** A card's short label: A♠, 10♥, and for the jokers 大王 / 小王 (or BJ / SJ in English). @param {string} code @param {Lang} lang */
export function dabaifenLabel(code, lang) {
  if (code === 'BJ') return lang === 'zh' ? '大王' : 'Big joker';
  if (code === 'SJ') return lang === 'zh' ? '小王' : 'Small joker';
  const suit = /** @type {'S' | 'H' | 'D' | 'C'} */ (code[1]);
  return `${rankText(code[0])}${SUIT_SYMBOL[suit]}`;
}

/** True when the card is a trump (§2): a joker, a trump-rank card, or of the trump suit. @param {string} code @param {Trump | null | undefined} trump */
export function isTrump(code, trump) {
  if (code === 'BJ' || code === 'SJ') return true;
  if (!trump) return false;
  return code[0] === trump.rank || code[1] === trump.suit;
}

/**
 * How strong a card is within its effective suit (§2): larger is stronger. Trumps: BJ, SJ, the
 * trump-rank card of the trump suit, the other trump-rank cards (equal), then the trump suit
 * A…2 without the trump rank. Plain suits: A…2.
 * @param {string} code @param {Trump | null | undefined} trump
 */
export function dabaifenStrength(code, trump) {
  if (code === 'BJ') return 100;
  if (code === 'SJ') return 99;
  const rank = code[0];
  if (trump && rank === trump.rank) return code[1] === trump.suit ? 98 : 97;
  return 20 - DABAIFEN_RANKS.indexOf(rank);
}

/**
 * Da Bai Fen cards sorted as the server shows a hand: with trumps known, the trumps first
 * (strongest first, equal trump-rank cards by suit S H D C), then spades, hearts, diamonds,
 * clubs, high first; without trumps, the jokers first then the suits in that order.
 * @param {readonly string[]} cards @param {Trump | null | undefined} trump
 */
export function sortDabaifen(cards, trump) {
  /** @param {string} c */
  const group = (c) => {
    if (trump ? isTrump(c, trump) : c === 'BJ' || c === 'SJ') return 0;
    return 1 + DABAIFEN_SUITS.indexOf(/** @type {'S' | 'H' | 'D' | 'C'} */ (c[1]));
  };
  /** @param {string} c */
  const tie = (c) => (c === 'BJ' || c === 'SJ' ? 0 : DABAIFEN_SUITS.indexOf(/** @type {'S' | 'H' | 'D' | 'C'} */ (c[1])));
  return [...cards].sort(
    (a, b) => group(a) - group(b) || dabaifenStrength(b, trump) - dabaifenStrength(a, trump) || tie(a) - tie(b),
  );
}

/** The effective suit of a card: `trumps` or its printed suit. @param {string} code @param {Trump | null | undefined} trump */
export function effectiveSuit(code, trump) {
  return isTrump(code, trump) ? 'trumps' : /** @type {'S' | 'H' | 'D' | 'C'} */ (code[1]);
}

/** The label of a card of either game. @param {'madiao' | 'dabaifen'} game @param {string} code @param {Lang} lang */
export function cardLabel(game, code, lang) {
  if (game === 'madiao') return lang === 'zh' ? madiaoNameZh(code) : `${madiaoName(code)} (${madiaoEnglish(code)})`;
  return dabaifenLabel(code, lang);
}
