// Shared pieces of the page: cards drawn in CSS, notices, small widgets.

import { html, useEffect, useRef, useState } from '../vendor/preact-htm.js';
import {
  MADIAO_RED,
  MADIAO_SUITS,
  SUIT_SYMBOL,
  dabaifenLabel,
  dabaifenRed,
  isTrump,
  madiaoEnglish,
  madiaoFigure,
  madiaoIndex,
  madiaoName,
  madiaoNameZh,
  madiaoSuit,
  rankText,
} from './cards.js';
import { aside, botName, errorText, lang, t } from './i18n.js';

export { errorText };

/** @typedef {import('../vendor/preact-htm.js').VNode} VNode */
/** @typedef {import('./wire').Trump} Trump */

/**
 * @typedef {object} CardProps
 * @property {'madiao' | 'dabaifen'} game
 * @property {string | null} code the card, `null` for a card face down that may not be seen
 * @property {Trump | null} [trump] Da Bai Fen: marks trumps
 * @property {boolean} [faceDown] played face down (Madiao's slough): shown dimmed with a mark
 * @property {boolean} [legal] may be played now: highlighted
 * @property {boolean} [selected]
 * @property {boolean} [focused] the keyboard's card
 * @property {boolean} [dim] cannot be played now
 * @property {boolean} [hinted] the card a hint suggests: marked
 * @property {boolean} [queued] queued to be played when the turn comes (play ahead): marked
 * @property {string} [mark] a small badge (e.g. kitty, winner)
 * @property {'small' | 'tiny'} [size]
 * @property {number} [dealt] just came into the hand, as the n-th of those that came together: it moves in
 * @property {(() => void) | null} [onClick]
 */

/** @typedef {import('./cards.js').ZeroCash} ZeroCash */

/** How the Madiao deck on the page draws the zero cash: the table's choice, else the default. */
let zeroCash = /** @type {ZeroCash | null} */ (null);

/**
 * Draws the page's Madiao cards as the deck `z` (a table's `zero_cash`; `null` or absent: the
 * default). Every viewer of a table draws its deck. @param {ZeroCash | null | undefined} z
 */
export function setZeroCash(z) {
  zeroCash = z ?? null;
}

/**
 * The figure on a Madiao card, drawn: the hero's name (Chinese, with its reading and the gloss
 * in the title), a silhouette for an unnamed figure, nothing for a card without one.
 * @param {string} code
 */
function FigureMark(code) {
  const f = madiaoFigure(code, zeroCash);
  if (!f) return null;
  if (f.name === null) {
    return html`<span class="figure unnamed" data-figure="" title=${t('card.figure_unnamed')}>
      <svg viewBox="0 0 10 12" width="0.9em" height="1.1em" aria-hidden="true"><circle cx="5" cy="2.6" r="2.1" fill="currentColor" /><path d="M1 12 C1 6.5 9 6.5 9 12 Z" fill="currentColor" /></svg>
    </span>`;
  }
  return html`<span class=${`figure len${f.name.length}`} data-figure=${f.name} title=${figureText(f.name, f.reading)}>${f.name}</span>`;
}

/**
 * A named figure in words: with its reading (pinyin) for English readers; Chinese reads the name.
 * @param {string} name @param {string | null} reading
 */
function figureText(name, reading) {
  return lang() === 'zh' ? t('card.figure_named', { name }) : t('card.figure', { name, reading: reading ?? '' });
}

/** The words for a Madiao card's figure, for its label. @param {string} code */
function figureWords(code) {
  const f = madiaoFigure(code, zeroCash);
  if (!f) return '';
  const sep = lang() === 'zh' ? '，' : ', ';
  if (f.name === null) return `${sep}${t('card.figure_unnamed')}`;
  return `${sep}${figureText(f.name, f.reading)}`;
}

/** A card drawn in CSS: Madiao's money cards or Da Bai Fen's French cards. @param {CardProps} p */
export function Card(p) {
  const size = p.size ? ` ${p.size}` : '';
  if (p.code === null) {
    return html`<span class=${`card back${size}${p.faceDown ? ' slough' : ''}`} data-card="back" aria-label=${t('card.hidden')}>
      ${p.faceDown ? html`<span class="back-mark">滅</span>` : null}
    </span>`;
  }
  const state =
    (p.legal ? ' legal' : '') + (p.selected ? ' selected' : '') + (p.focused ? ' focused' : '') + (p.dim ? ' dim' : '') + (p.faceDown ? ' facedown' : '') +
    (p.hinted ? ' hinted' : '') + (p.queued ? ' queued' : '');
  const mark = p.mark ? html`<span class="mark">${p.mark}</span>` : null;
  /** @type {VNode} */
  let face;
  let cls;
  let label;
  if (p.game === 'madiao') {
    const suit = madiaoSuit(p.code);
    const info = MADIAO_SUITS[suit];
    const name = madiaoName(p.code);
    const red = MADIAO_RED.has(p.code);
    const figure = FigureMark(p.code);
    cls = `card madiao suit-${info.cls}${red ? ' red' : ''}${figure ? ' has-figure' : ''}`;
    label = lang() === 'zh'
      ? `${madiaoNameZh(p.code)}${red ? `（${t('card.red')}）` : ''}${figureWords(p.code)}`
      : `${name} ${madiaoEnglish(p.code)}${red ? ` (${t('card.red')})` : ''}${figureWords(p.code)}`;
    face = html`<span class="corner"><b>${madiaoIndex(p.code)}</b><i>${info.zh}</i></span>
      <span class=${`name len${name.length}`}>${[...name].map((ch, i) => html`<span key=${i}>${ch}</span>`)}</span>
      ${figure}
      ${red ? html`<span class="red-dot" title=${t('card.red')}>紅</span>` : null}`;
  } else {
    const red = dabaifenRed(p.code);
    const trump = isTrump(p.code, p.trump);
    cls = `card dbf${red ? ' red' : ''}${trump && p.trump ? ' trump' : ''}`;
    label = dabaifenLabel(p.code, lang()) + (trump && p.trump ? aside(t('card.trump')) : '');
    if (p.code === 'BJ' || p.code === 'SJ') {
      face = html`<span class="corner"><b>${p.code === 'BJ' ? '大' : '小'}</b><i>王</i></span>
        <span class="joker">${p.code === 'BJ' ? '大王' : '小王'}</span><span class="joker-en">JOKER</span>`;
    } else {
      const sym = SUIT_SYMBOL[/** @type {'S' | 'H' | 'D' | 'C'} */ (p.code[1])];
      face = html`<span class="corner"><b>${rankText(p.code[0])}</b><i>${sym}</i></span><span class="pip">${sym}</span>`;
    }
  }
  const full = `${cls}${size}${state}${p.dealt != null ? ' dealt' : ''}`;
  // A card just dealt comes in after those dealt before it.
  const style = p.dealt != null ? { '--deal-i': String(Math.min(p.dealt, 12)) } : null;
  if (p.onClick) {
    const onClick = p.onClick;
    // Cards take no focus (the keyboard plays through the page's keys: arrows, digits, Enter).
    return html`<button type="button" tabindex="-1" class=${full} style=${style} data-card=${p.code} data-legal=${p.legal ? '1' : null} data-queued=${p.queued ? '1' : null} aria-pressed=${p.selected ? 'true' : 'false'} aria-label=${label} title=${label}
      onMouseDown=${(/** @type {Event} */ e) => e.preventDefault()} onClick=${() => onClick()}>
      ${face}${mark}
    </button>`;
  }
  return html`<span class=${full} data-card=${p.code} aria-label=${label} title=${label}>${face}${mark}</span>`;
}

/**
 * A bot as players see it: the bot mark and its name for players ("Strong"), the internal id
 * (`pimc`) as the tooltip. @param {{id: string}} p
 */
export function BotLabel(p) {
  return html`<span class="bot-name" data-bot=${p.id} title=${p.id}><${BotIcon} /> ${botName(p.id)}</span>`;
}

/**
 * The bot mark, drawn (an emoji needs a font the machine may lack): a robot's head, in the
 * text's colour. Its label says "bot" to screen readers.
 */
export function BotIcon() {
  return html`<svg class="bot-icon" viewBox="0 0 16 16" width="1em" height="1em" role="img" aria-label=${t('seat.bot')}>
    <line x1="8" y1="1.5" x2="8" y2="4" stroke="currentColor" stroke-width="1.3" />
    <circle cx="8" cy="1.5" r="1.1" fill="currentColor" />
    <rect x="2.5" y="4" width="11" height="9" rx="2.2" fill="none" stroke="currentColor" stroke-width="1.4" />
    <circle cx="5.8" cy="8" r="1.2" fill="currentColor" />
    <circle cx="10.2" cy="8" r="1.2" fill="currentColor" />
    <line x1="5.5" y1="11" x2="10.5" y2="11" stroke="currentColor" stroke-width="1.2" />
    <line x1="1" y1="7.5" x2="1" y2="10" stroke="currentColor" stroke-width="1.3" />
    <line x1="15" y1="7.5" x2="15" y2="10" stroke="currentColor" stroke-width="1.3" />
  </svg>`;
}

/** A row of card backs with a count. @param {{n: number}} p */
export function Backs(p) {
  const shown = Math.min(p.n, 6);
  return html`<span class="backs" aria-label=${t('seat.cards', { n: p.n })}>
    ${Array.from({ length: shown }, (_, i) => html`<span key=${i} class="mini-back"></span>`)}
    <span class="backs-n">${p.n}</span>
  </span>`;
}

/**
 * A countdown from `remaining` milliseconds at the moment `at` (Date.now()).
 * @param {{remaining: number, at: number, total?: number}} p
 */
export function Countdown(p) {
  const [, tick] = useState(0);
  useEffect(() => {
    const h = setInterval(() => tick((x) => x + 1), 250);
    return () => clearInterval(h);
  }, []);
  const left = Math.max(0, p.remaining - (Date.now() - p.at));
  const secs = Math.ceil(left / 1000);
  const frac = p.total ? Math.max(0, Math.min(1, left / p.total)) : null;
  return html`<span class=${`countdown${secs <= 5 ? ' low' : ''}`} role="timer">
    ${frac !== null ? html`<span class="bar"><span style=${`width:${(frac * 100).toFixed(1)}%`}></span></span>` : null}
    <span class="secs">${t('common.secs', { n: secs })}</span>
  </span>`;
}

/** @typedef {{id: number, kind: 'error' | 'info', text: string, scope?: string}} Notice */

let nextNotice = 1;
/** @type {Set<(n: Notice[]) => void>} */
const noticeListeners = new Set();
/** @type {Notice[]} */
let notices = [];

/**
 * Shows a message for a few seconds (errors stay longer). A message about one page (a table's,
 * with the table's id as `scope`) goes when that page is left: see `clearNotices`.
 * @param {'error' | 'info'} kind @param {string} text @param {string} [scope]
 */
export function notify(kind, text, scope) {
  const n = { id: nextNotice++, kind, text, scope };
  notices = [...notices.slice(-3), n];
  noticeListeners.forEach((f) => f(notices));
  setTimeout(
    () => {
      notices = notices.filter((x) => x.id !== n.id);
      noticeListeners.forEach((f) => f(notices));
    },
    kind === 'error' ? 8000 : 3500,
  );
}

/** Takes away the messages of `scope` (a table left: its messages do not follow to the next page). @param {string} scope */
export function clearNotices(scope) {
  const kept = notices.filter((x) => x.scope !== scope);
  if (kept.length === notices.length) return;
  notices = kept;
  noticeListeners.forEach((f) => f(notices));
}

/**
 * What the messages keep clear of at the foot of the screen: the player's prompt, its buttons and
 * his hand (at a table, in a tutorial), and the lobby's *Create and sit down*.
 */
const KEEP_CLEAR = '.my-area, .new-table button[data-action="create"]';

/**
 * How far above the foot of a viewport `height` px high the messages sit: above the top of every
 * box (its top and bottom edges, in px from the viewport's top) that reaches into the lower half
 * of the screen; 0 when none does. A box whose top is in the upper third of the screen (a page
 * scrolled to it) leaves no room above it: the messages stay at the foot, over it.
 * @param {number} height @param {{top: number, bottom: number}[]} boxes
 */
export function noticeLift(height, boxes) {
  let lift = 0;
  for (const b of boxes) {
    if (b.bottom <= height / 2 || b.top >= height || b.bottom <= b.top || b.top < height / 3) continue;
    lift = Math.max(lift, height - b.top);
  }
  return Math.round(lift);
}

/** The lift of the messages on the page as it lies now (see noticeLift). */
function pageLift() {
  const boxes = [...document.querySelectorAll(KEEP_CLEAR)].map((e) => e.getBoundingClientRect());
  return noticeLift(window.innerHeight, boxes);
}

/**
 * The messages shown, newest last, at the foot of the screen on the right: above the player's
 * prompt, buttons and hand (and the lobby's create button), never over them; a tap goes through
 * them (they have nothing to press).
 */
export function Notices() {
  const [list, setList] = useState(notices);
  const [lift, setLift] = useState(0);
  useEffect(() => {
    noticeListeners.add(setList);
    return () => {
      noticeListeners.delete(setList);
    };
  }, []);
  // While a message shows, it follows what it keeps clear of (a prompt that grows, a rotation).
  useEffect(() => {
    if (!list.length) return undefined;
    const place = () => setLift(pageLift());
    place();
    const timer = setInterval(place, 250);
    window.addEventListener('resize', place);
    window.addEventListener('scroll', place, { passive: true, capture: true });
    return () => {
      clearInterval(timer);
      window.removeEventListener('resize', place);
      window.removeEventListener('scroll', place, { capture: true });
    };
  }, [list.length > 0]);
  return html`<div class="notices" role="status" aria-live="polite" style=${lift ? `--notice-lift: ${lift}px` : ''}>
    ${list.map((n) => html`<div key=${n.id} class=${`notice ${n.kind}`}>${n.text}</div>`)}
  </div>`;
}

/**
 * Listens to the page's key presses with the handler of the latest render: registered once, so a
 * key pressed right after a change (before effects run) still sees the current state.
 * @param {(e: KeyboardEvent) => void} handler
 */
export function useKeydown(handler) {
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => {
    /** @param {KeyboardEvent} e */
    const f = (e) => ref.current(e);
    document.addEventListener('keydown', f);
    return () => document.removeEventListener('keydown', f);
  }, []);
}

/** The links to both tutorials (on the first page, the lobby and the rules page). */
export function TutorialLinks() {
  return html`<p class="tutorial-links">${t('tut.learn')}
    <a href="/tutorial/madiao" data-link="1" data-tutorial="madiao">${t('game.madiao')}</a>
    <a href="/tutorial/dabaifen" data-link="1" data-tutorial="dabaifen">${t('game.dabaifen')}</a></p>`;
}
