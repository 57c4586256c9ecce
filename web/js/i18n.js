// English and 简体中文: the code that speaks them; the words are in i18n/en.js and i18n/zh.js.
// `t(key, params)` looks a key up in the current language (English when a key is missing, the key
// itself as a last resort), with `{name}` placeholders filled in. The choice is kept in local
// storage by main.js (through storage.js). Pure apart from the current language: unit-tested
// with `node --test` (every key used by the client exists in both languages).

import { EN } from './i18n/en.js';
import { ANALYSIS_REASONS_ZH, ZH } from './i18n/zh.js';

/** @typedef {'en' | 'zh'} Lang */

/** @type {Record<Lang, Record<string, string>>} */
export const STRINGS = { en: EN, zh: ZH };

/** @type {Lang} */
let current = 'en';
/** @type {Set<(lang: Lang) => void>} */
const listeners = new Set();

/** The current language. */
export function lang() {
  return current;
}

/** Sets the language and tells the listeners. @param {Lang} l */
export function setLang(l) {
  current = l;
  if (typeof document !== 'undefined') {
    document.documentElement.lang = l === 'zh' ? 'zh-Hans' : 'en';
    document.title = translate(l, 'page.title');
  }
  listeners.forEach((f) => f(l));
}

/** Calls `f` on every change of language; returns the unsubscribe. @param {(lang: Lang) => void} f */
export function onLang(f) {
  listeners.add(f);
  return () => {
    listeners.delete(f);
  };
}

/**
 * A key in `l`, with `{name}` placeholders filled from `params`.
 * @param {Lang} l @param {string} key @param {Record<string, string | number>} [params]
 */
export function translate(l, key, params) {
  // A count of one has its own form where the language needs it (`key_one`: "1 trick").
  const one = params && params.n === 1 ? STRINGS[l][`${key}_one`] : undefined;
  const s = one ?? STRINGS[l][key] ?? STRINGS.en[key] ?? key;
  if (!params) return s;
  return s.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

/** A key in the current language. @param {string} key @param {Record<string, string | number>} [params] */
export function t(key, params) {
  return translate(current, key, params);
}

/**
 * The codes whose server message tells what the translated sentence cannot (which field or card is
 * wrong, how long to wait, what failed): their message follows the translation.
 */
const DETAILED_ERRORS = new Set([
  'bad_request',
  'bad_name',
  'bad_chat',
  'banned',
  'chat_muted',
  'bad_json',
  'bad_message',
  'illegal',
  'too_large',
  'rate_limited',
  'storage',
  'internal',
  'unavailable',
]);

/**
 * The words of a deal that fails to verify (a replay's `deals.problems`), in the page's language,
 * from its code and figures (`why`, docs/protocol.md): each check has its sentence; a code the page
 * does not know is shown in the server's English (`detail`).
 * @param {import('./wire').DealProblem} p
 */
export function dealDetail(p) {
  const why = p.why;
  switch (why?.code) {
    case 'no_seed':
      return t('replay.detail_no_seed');
    case 'no_commitment':
      return t('replay.detail_no_commitment');
    case 'no_table':
      return t('replay.detail_no_table');
    case 'deck_size':
      return t('replay.detail_deck_size', { n: why.cards, m: why.dealt });
    case 'deck_cards': {
      const diffs = why.first
        .map((d) => t('replay.detail_card', { pos: d.index + 1, card: d.card, seed_card: d.seed_card }))
        .join(t('common.list_sep'));
      return why.places > why.first.length
        ? t('replay.detail_deck_many', { n: why.places, diffs })
        : t('replay.detail_deck', { diffs });
    }
    case 'commitment':
      return t('replay.detail_commitment', {
        commitment: why.commitment,
        seed: why.seed,
        hand: p.hand,
        table: why.table,
        expected: why.expected,
      });
    default:
      return p.detail;
  }
}

/**
 * The message for a server error code, in the page's language: the translation alone where it says
 * everything the server's message says (one sentence, not the same one twice), with the server's
 * words after it where they add a detail, and the server's words alone for a code the page does not
 * know.
 * A `reason` (one of several refusals under one code, docs/protocol.md) has its own sentence.
 * @param {string} code @param {string} message @param {string} [reason]
 */
export function errorText(code, message, reason) {
  if (reason && `err.${reason}` in STRINGS.en) return t(`err.${reason}`);
  const key = `err.${code}`;
  const known = t(key);
  if (known === key) return message || code;
  return DETAILED_ERRORS.has(code) && message ? `${known} — ${message}` : known;
}

/**
 * A bot's name for players, in the page's language ("Strong" for `pimc`): the server sends the
 * bot's id (GET /api/games, seats, records), the page its words; an id the page does not know is
 * shown as it is. @param {string} id
 */
export function botName(id) {
  const key = `bot.${id.replace(/-/g, '_')}`;
  const s = t(key);
  return s === key ? id : s;
}

/**
 * A player's name as records and My games keep it, for players: a bot's (`bot:heuristic`) by
 * [`botName`], a person's as it is. @param {string} name
 */
export function playerName(name) {
  return name.startsWith('bot:') ? botName(name.slice(4)) : name;
}

/**
 * The four players' names at a table, a replay or a game list, for players: each by
 * [`playerName`]; a bot whose name for players another seat shares (two "Club player"s) also by
 * its seat ("Club player 3"), so that every line that names a seat names one.
 * @param {readonly string[]} names each `bot:NAME` or a person's name, seat by seat
 */
export function playerNames(names) {
  const shown = names.map(playerName);
  return shown.map((s, i) =>
    names[i].startsWith('bot:') && shown.filter((x) => x === s).length > 1 ? t('seat.bot_seat', { bot: s, n: i + 1 }) : s,
  );
}

/**
 * The tooltip of a player's name: a bot's internal name (`heuristic`), nothing for a person.
 * @param {string | null | undefined} name `bot:NAME` or a person's name
 */
export function botTip(name) {
  return name && name.startsWith('bot:') ? name.slice(4) : undefined;
}

/** A preset's name for players (`standard`, `feng`); an unknown one as it is. @param {string} id */
export function presetName(id) {
  const key = `preset.${id}`;
  const s = t(key);
  return s === key ? id : s;
}


/** An analysis reason in the page's language (see `ANALYSIS_REASONS_ZH`). @param {string} reason */
export function analysisReason(reason) {
  if (current !== 'zh') return reason;
  for (const [re, zh] of ANALYSIS_REASONS_ZH) if (re.test(reason)) return reason.replace(re, zh);
  return reason;
}

/** A remark after a word, in brackets: " (default)" in English, "（默认）" in Chinese. @param {string} s */
export function aside(s) {
  return current === 'zh' ? `（${s}）` : ` (${s})`;
}
