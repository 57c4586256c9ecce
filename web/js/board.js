// The felt: four seats around the current trick, with the game's information in the middle.
// Used by the live table and by replays (which show every hand face up).

import { html } from '../vendor/preact-htm.js';
import { Backs, Card, Countdown } from './ui.js';
import { lang, t } from './i18n.js';
import { rankText } from './cards.js';
import { dabaifenTrickCounter, trumpText } from './scoring.js';
import { PlayerMenu } from './moderation.js';

/** @typedef {import('./wire').MadiaoView} MadiaoView */
/** @typedef {import('./wire').DabaifenView} DabaifenView */
/** @typedef {import('./wire').SeatInfo} SeatInfo */
/** @typedef {import('./wire').Timer} Timer */
/** @typedef {import('./wire').MadiaoTrickView} MadiaoTrickView */
/** @typedef {import('./wire').DabaifenTrickView} DabaifenTrickView */
/** @typedef {import('../vendor/preact-htm.js').VNode} VNode */

/** Where a seat sits on screen for a viewer at `bottom` (play runs counter-clockwise). */
export const POSITIONS = /** @type {const} */ (['bottom', 'right', 'top', 'left']);

/** @param {number} seat @param {number} bottom */
export function position(seat, bottom) {
  return POSITIONS[(seat - bottom + 4) % 4];
}

/**
 * @typedef {object} BoardProps
 * @property {'madiao' | 'dabaifen'} game
 * @property {MadiaoView | DabaifenView} view
 * @property {string[]} names
 * @property {number} bottom the seat shown at the bottom
 * @property {number | null} [own] the viewer's own seat, whose cards are shown below the felt
 *   (null for a spectator, who sees every seat's card count)
 * @property {SeatInfo[] | null} [seats] live seats (presence, bots); null in a replay
 * @property {(string | undefined)[]} [tips] a replay's seats' tooltips (a bot's internal name);
 *   at a live table the seats give them
 * @property {Timer | null} [timer]
 * @property {number} [timerAt] when the timer was received (Date.now())
 * @property {number} [seatsAt] when the seats were received (their `grace_ms` counts from then)
 * @property {number} [turnMs] the turn clock's length
 * @property {(string[] | null)[] | null} [hands] every hand face up (a replay), by seat
 * @property {boolean} [showLast] show the last complete trick instead of the current one
 * @property {VNode | null} [centerExtra]
 * @property {{id: string, token: string, username?: string} | null} [identity] the viewer at a live
 *   table: signed in, another person's seat name opens the menu to mute, block or report him
 */

/** @param {MadiaoView | DabaifenView} view @returns {view is MadiaoView} */
export function isMadiao(view) {
  return 'banker' in view;
}

/**
 * The trick to show: the current one (the last begun, complete or not), or with `last`, the one
 * before it.
 * @template {MadiaoTrickView | DabaifenTrickView} T
 * @param {T[]} tricks @param {boolean} last
 * @returns {T | null}
 */
export function shownTrick(tricks, last) {
  // A new trick with no card yet (Da Bai Fen opens it at once): the one before stays in view.
  const n = tricks.length && tricks[tricks.length - 1].plays.length === 0 ? tricks.length - 1 : tricks.length;
  const i = n - (last ? 2 : 1);
  return i >= 0 ? tricks[i] : null;
}

/** @param {BoardProps} p */
export function Board(p) {
  const { game, view, names, bottom } = p;
  const madiao = isMadiao(view);
  const tricks = /** @type {Array<MadiaoTrickView | DabaifenTrickView>} */ (view.tricks);
  const trick = shownTrick(tricks, !!p.showLast);
  const trump = madiao ? null : /** @type {DabaifenView} */ (view).trump;
  const toMove = view.to_move;
  // A bot's tooltip is its internal name (`heuristic`); its name for players is on the felt.
  const tips = [0, 1, 2, 3].map((s) => (p.seats ? (p.seats[s] && p.seats[s].bot) || undefined : p.tips ? p.tips[s] : undefined));
  return html`<div class=${`felt ${game}`} data-phase=${view.phase} data-timer=${p.timer ? p.timer.what : ''}>
    ${[0, 1, 2, 3].map((s) => {
      const pos = position(s, bottom);
      const info = p.seats ? p.seats[s] : null;
      const turn = toMove === s && view.phase !== 'over';
      const timer = p.timer && 'seat' in p.timer && p.timer.seat === s ? p.timer : null;
      return html`<div key=${s} class=${`seat pos-${pos}${turn ? ' turn' : ''}`} data-seat=${s}>
        <div class="seat-head">
          <span class=${`dot ${info ? (info.kind === 'open' ? 'open' : info.bot_plays ? 'bot' : info.present ? 'here' : 'gone') : 'here'}`}></span>
          ${info && info.kind === 'person' && info.guest && p.identity?.username && info.guest !== p.identity.id
            ? html`<span class="seat-name seat-menu" title=${names[s]}><${PlayerMenu} identity=${p.identity} player=${info.guest} name=${names[s]} /></span>`
            : html`<span class="seat-name" data-bot=${tips[s] ?? null} title=${tips[s] ?? names[s]}>${names[s]}</span>`}
          ${info && info.away ? html`<span class="badge away">${t('seat.away')}</span>` : null}
          ${info && info.kind === 'person' && info.bot_plays && !info.away ? html`<span class="badge away">${t('seat.bot_plays')}</span>` : null}
          ${roleBadges(view, s)}
        </div>
        <div class="seat-body">
          ${p.hands && p.hands[s]
            ? html`<div class="open-hand">${(p.hands[s] ?? []).map((c) => html`<${Card} key=${c} game=${game} code=${c} trump=${trump} size="tiny" />`)}</div>`
            : p.own === undefined || p.own === null || s !== p.own
              ? html`<${Backs} n=${view.hand_sizes[s]} />`
              : null}
          <span class="seat-stat">${seatStat(view, s)}</span>
          ${turn && timer && timer.what === 'turn' && typeof timer.remaining_ms === 'number'
            ? html`<${Countdown} remaining=${timer.remaining_ms} at=${p.timerAt ?? Date.now()} total=${p.turnMs} />`
            : turn && timer && timer.what === 'bot'
              ? html`<span class="thinking">${t('seat.thinking')}</span>`
              : timer && timer.what === 'grace'
                ? graceClock(timer.remaining_ms, p.timerAt ?? Date.now())
                : info && info.kind === 'person' && !info.present && typeof info.grace_ms === 'number'
                  ? graceClock(info.grace_ms, p.seatsAt ?? Date.now())
                  : null}
        </div>
      </div>`;
    })}
    <div class="center">
      <div class="info">${madiao ? madiaoInfo(/** @type {MadiaoView} */ (view), names) : dabaifenInfo(/** @type {DabaifenView} */ (view), names)}</div>
      <div class=${`trick${p.showLast ? ' last' : ''}`} data-gather=${!p.showLast && trick && trick.winner != null ? position(trick.winner, bottom) : null} aria-label=${t(p.showLast ? 'trick.last' : 'trick.current')}>
        ${trick ? trickCards(game, trick, bottom, trump, names, tips) : null}
        ${p.showLast ? html`<span class="trick-label">${t('trick.last')}</span>` : null}
      </div>
      ${p.centerExtra ?? null}
    </div>
  </div>`;
}

/**
 * A disconnected person's grace: a bot stands in for him when it runs out.
 * @param {number} remaining @param {number} at
 */
function graceClock(remaining, at) {
  return html`<span class="grace-clock" title=${t('seat.grace_title')}>
    <span class="badge away">${t('seat.disconnected')}</span> <${Countdown} remaining=${remaining} at=${at} />
  </span>`;
}

/** @param {MadiaoView | DabaifenView} view @param {number} s */
function roleBadges(view, s) {
  if (isMadiao(view)) {
    return view.banker === s ? html`<span class="badge role" data-role="banker" title=${t('role.banker')}>${lang() === 'zh' ? '' : '莊 '}${t('role.banker')}</span>` : null;
  }
  const out = [];
  // During the draw of a first or an open deal the starter is not known yet: the seat that drew
  // first is only provisional, and the badge says what that means. In a later deal the starter
  // is fixed from the start (docs/rules/dabaifen.md §4).
  const provisional = view.phase === 'drawing' && (view.first_deal || view.open);
  const starter = provisional ? null : view.starter;
  if (starter === s) out.push(html`<span class="badge role" data-role="starter" title=${t('role.starter_about')}>${t('role.starter')}</span>`);
  else if (provisional && view.provisional_starter === s) out.push(html`<span class="badge role" data-role="provisional" title=${t('role.provisional_about')}>${t('role.provisional')}</span>`);
  if (view.declaration && view.declaration.seat === s) out.push(html`<span class="badge decl">${t('role.declared')}</span>`);
  return out;
}

/** @param {MadiaoView | DabaifenView} view @param {number} s */
function seatStat(view, s) {
  if (isMadiao(view)) return t('seat.tricks', { n: view.tricks_won[s] });
  return t(s % 2 === 0 ? 'seat.team_a' : 'seat.team_b');
}

/** @param {MadiaoView} view @param {string[]} names */
function madiaoInfo(view, names) {
  const trickNo = view.tricks.length;
  return html`<div class="info-row">
      <span class="upcard-label">${t('madiao.upcard')}</span>
      <${Card} game="madiao" code=${view.upcard} size="small" />
    </div>
    <div class="info-text">
      <div>${t('madiao.banker_is', { name: names[view.banker] })}</div>
      <div>${view.phase === 'redeal' ? t('madiao.redeal_phase') : view.phase === 'play' ? t('madiao.trick_n', { n: Math.max(1, trickNo) }) : t('phase.over')}</div>
      ${view.exposed_stock_card ? html`<div class="exposed">${t('madiao.exposed')} <${Card} game="madiao" code=${view.exposed_stock_card} size="tiny" /></div>` : null}
    </div>`;
}

/** @param {DabaifenView} view @param {string[]} names */
function dabaifenInfo(view, names) {
  const declarers = view.starter % 2;
  const defenders = 1 - declarers;
  const phaseText =
    view.phase === 'drawing'
      ? t('dbf.drawing', { n: view.drawn })
      : view.phase === 'annulling'
        ? t('dbf.annulling')
        : view.phase === 'burying'
          ? t('dbf.burying', { name: names[view.starter] })
          : view.phase === 'playing'
            ? trickCounterText(view)
            : t('phase.over');
  return html`<div class="info-row trump-row">
      <span class="trump-label">${t('dbf.trump')}</span>
      <span class=${`trump-value${view.trump && (view.trump.suit === 'H' || view.trump.suit === 'D') ? ' red' : ''}`} data-trump=${view.trump ? `${view.trump.suit}${view.trump.rank}` : ''}>
        ${view.trump ? trumpText(view.trump, lang()) : view.phase === 'drawing' ? t('dbf.trump_rank', { r: rankText(view.open ? '?' : view.ranks[view.provisional_starter % 2]) }) : '—'}
      </span>
    </div>
    <div class="info-text">
      <div class="ranks">
        <span class=${declarers === 0 ? 'decl' : ''}>${t('seat.team_a')} ${rankText(view.ranks[0])}</span>
        <span class=${declarers === 1 ? 'decl' : ''}>${t('seat.team_b')} ${rankText(view.ranks[1])}</span>
      </div>
      <div>${phaseText}${view.open ? ` · ${t('dbf.open_deal')}` : ''}</div>
      ${view.phase === 'playing' || view.phase === 'over'
        ? html`<div class="points">${t('dbf.points', { a: view.team_points[0], b: view.team_points[1] })} · ${t('dbf.defenders_points', { n: view.team_points[defenders] })}</div>`
        : null}
      ${view.kitty_turned.length
        ? html`<div class="kitty-turned">${t('dbf.kitty_turned')} ${view.kitty_turned.map((c) => html`<${Card} key=${c} game="dabaifen" code=${c} trump=${view.trump} size="tiny" />`)}</div>`
        : null}
    </div>`;
}

/** Da Bai Fen's trick counter: "Trick 6 · 2 cards each to play". @param {DabaifenView} view */
function trickCounterText(view) {
  const c = dabaifenTrickCounter(view);
  if (!c) return '';
  return `${t('dbf.trick_n', { n: c.number })} · ${t('dbf.cards_left', { n: c.left })}`;
}

/**
 * The cards of a trick, each by its player's side.
 * @param {'madiao' | 'dabaifen'} game @param {MadiaoTrickView | DabaifenTrickView} trick @param {number} bottom
 * @param {import('./wire').Trump | null} trump @param {string[]} names @param {(string | undefined)[]} tips
 */
function trickCards(game, trick, bottom, trump, names, tips) {
  return trick.plays.map((play) => {
    const pos = position(play.seat, bottom);
    const won = trick.winner === play.seat;
    /** @type {VNode[]} */
    let cards;
    if ('cards' in play) {
      cards = play.cards.map((c) => html`<${Card} key=${c} game=${game} code=${c} trump=${trump} size="small" />`);
    } else {
      cards = [
        html`<${Card} game=${game} code=${play.card} faceDown=${!play.face_up} size="small" dim=${!play.can_win && play.face_up} />`,
      ];
    }
    const kind = 'kind' in play ? play.kind : null;
    return html`<div key=${play.seat} class=${`play pos-${pos}${won ? ' won' : ''}`} data-seat=${play.seat} data-kind=${kind}>
      <div class="play-cards">${cards}</div>
      <span class="play-who" title=${tips[play.seat]} data-bot=${tips[play.seat] ?? null}>${names[play.seat]}${kind ? ` · ${t(`kind.${kind}`)}` : ''}${won ? ' ★' : ''}</span>
    </div>`;
  });
}
