// The tutorials (`/tutorial/madiao`, `/tutorial/dabaifen`): a scripted first hand of each game
// that teaches its rules step by step. The server replays the frozen script with the engine
// (`GET /api/tutorial/{game}`) into seat 0's views, the bots' moves and, at each of the learner's
// decisions, a lesson with the legal choices; this page shows them with the table's own felt and
// hand, asks the learner for the scripted move (a wrong one is explained and refused), plays the
// bots' moves in turn and ends on the settlement or the account, then offers practice positions
// (the easiest puzzles) where the learner chooses alone. No rule is worked out here.

import { html, useEffect, useMemo, useState } from '../vendor/preact-htm.js';
import * as api from './api.js';
import { Board } from './board.js';
import { cardLabel } from './cards.js';
import { Scoring } from './hand_end.js';
import { lang, t } from './i18n.js';
import { eventText } from './scoring.js';
import { MyHand } from './table.js';
import { Practice } from './puzzles.js';
import { errorText } from './ui.js';

/** @typedef {import('./wire').Tutorial} Tutorial */
/** @typedef {import('./wire').TutorialStep} TutorialStep */
/** @typedef {import('./wire').MadiaoView} MadiaoView */
/** @typedef {import('./wire').DabaifenView} DabaifenView */

/** The rules section of each lesson's `rules` anchor, on the rules page. */
export const RULES_SECTIONS = /** @type {const} */ (['declarations', 'play', 'settlement', 'drawing', 'kitty', 'scoring']);

/** How long a bot's move stays on its own before the next (ms); a hidden poll passes at once. */
const BOT_MS = 900;
const QUIET_MS = 80;

/**
 * The cards of an action (`{play: c}`, `{slough: c}`, `{bury: [...]}`, `{play: [...]}`,
 * `{declare: c}`), or null for one without cards.
 * @param {unknown} action
 * @returns {string[] | null}
 */
export function actionCards(action) {
  if (!action || typeof action !== 'object') return null;
  for (const k of ['play', 'slough', 'bury', 'declare']) {
    const v = /** @type {Record<string, unknown>} */ (action)[k];
    if (typeof v === 'string') return [v];
    if (Array.isArray(v)) return v.map(String);
  }
  return null;
}

/**
 * Whether `sent` is the scripted action `expected`: the same kind, and the same cards in any
 * order (a lead of several, a burial).
 * @param {unknown} sent @param {unknown} expected
 */
export function sameAction(sent, expected) {
  if (!sent || !expected || typeof sent !== 'object' || typeof expected !== 'object') return false;
  const ks = Object.keys(sent).sort();
  const ke = Object.keys(expected).sort();
  if (ks.join() !== ke.join()) return false;
  const a = actionCards(sent);
  const b = actionCards(expected);
  if (a || b) return !!a && !!b && a.length === b.length && [...a].sort().join() === [...b].sort().join();
  return JSON.stringify(sent) === JSON.stringify(expected);
}

/**
 * The names at the tutorial's table: you at the bottom, and the three bots.
 * @returns {string[]}
 */
export function tutorialNames() {
  return [t('tut.you'), t('seat.bot_named', { n: 2 }), t('seat.bot_named', { n: 3 }), t('seat.bot_named', { n: 4 })];
}

/**
 * The current trick's first play in a view (the card led, and who led it), if a trick is under way.
 * @param {MadiaoView | DabaifenView} view
 * @returns {{seat: number, cards: string[]} | null}
 */
export function currentLead(view) {
  const tricks = /** @type {Array<{plays: any[]}>} */ (view.tricks);
  if (!tricks.length) return null;
  const tr = tricks[tricks.length - 1];
  if (!tr.plays.length || tr.plays.length === 4) return null;
  const p = tr.plays[0];
  return { seat: p.seat, cards: 'cards' in p ? p.cards : [p.card] };
}

/**
 * The words filled into a lesson: the cards to play, the card led and who led it.
 * @param {'madiao' | 'dabaifen'} game @param {TutorialStep} step @param {MadiaoView | DabaifenView} before
 * @param {string[]} names @param {'en' | 'zh'} l
 */
export function lessonParams(game, step, before, names, l) {
  const sep = l === 'zh' ? '、' : ', ';
  const cards = (actionCards(step.action) ?? []).map((c) => cardLabel(game, c, l)).join(sep);
  const lead = currentLead(before);
  return {
    cards,
    led: lead ? lead.cards.map((c) => cardLabel(game, c, l)).join(sep) : '',
    leader: lead ? names[lead.seat] : '',
  };
}


/**
 * The tutorial of a game.
 * @param {{game: 'madiao' | 'dabaifen', navigate: (p: string) => void}} p
 */
export function TutorialPage(p) {
  const [tut, setTut] = useState(/** @type {Tutorial | null} */ (null));
  const [error, setError] = useState(/** @type {string | null} */ (null));
  // `pos`: how many steps are done; `started`: past the introduction.
  const [pos, setPos] = useState(0);
  const [started, setStarted] = useState(false);
  const [tries, setTries] = useState(0);
  const [wrong, setWrong] = useState(false);

  useEffect(() => {
    setTut(null);
    setError(null);
    setPos(0);
    setStarted(false);
    setWrong(false);
    api.call('GET', `/api/tutorial/${p.game}`).then(setTut, (e) => setError(e instanceof api.ApiError ? errorText(e.code, e.message) : String(e)));
  }, [p.game]);

  const steps = tut ? tut.steps : [];
  const step = pos < steps.length ? steps[pos] : null;
  const waiting = !!step && !!step.lesson;

  // The bots' moves (and the hidden polls) play on their own; the learner's wait for him.
  useEffect(() => {
    if (!tut || !started || !step || step.lesson) return;
    const h = setTimeout(() => setPos((x) => x + 1), step.action ? BOT_MS : QUIET_MS);
    return () => clearTimeout(h);
  }, [tut, started, pos]);

  const names = useMemo(() => tutorialNames(), [lang()]);
  // The learner's lessons: how many there are, and how many are done.
  const lessons = useMemo(() => {
    const at = steps.flatMap((s, i) => (s.lesson ? [i] : []));
    return { total: at.length, done: at.filter((i) => i < pos).length };
  }, [steps, pos]);
  const l = lang();
  if (error) return html`<div class="page tutorial-page"><p class="error-box" role="alert">${error}</p></div>`;
  if (!tut) return html`<div class="page tutorial-page"><p>${t('common.loading')}</p></div>`;

  const game = p.game;
  const before = /** @type {MadiaoView | DabaifenView} */ (pos === 0 ? tut.start : steps[pos - 1].view);
  const done = pos >= steps.length;
  const rulesLink = (/** @type {string} */ section) =>
    html`<a class="rules-link" href=${`/rules?game=${game}#rules-${section}`} target="_blank" rel="noopener" data-rules=${section}>${t('tut.rules_link')}</a>`;

  /** @param {any} action */
  const act = (action) => {
    if (!step || !step.lesson) return;
    if (sameAction(action, step.action)) {
      setWrong(false);
      setTries(0);
      setPos(pos + 1);
    } else {
      setWrong(true);
      setTries((x) => x + 1);
    }
  };

  // The last move shown, in words (a bot's, or yours).
  const last = pos > 0 ? steps[pos - 1] : null;
  const caption = last && last.action
    ? eventText(game, { kind: 'action', seat: last.seat, action: /** @type {any} */ (last.action), by_bot: last.seat !== 0 }, names, l)
    : '';

  const lessonBox = () => {
    if (!started) {
      return html`<div class="lesson" data-lesson=${`tut.${game}.intro`}>
        <h3>${t('tut.title', { game: t(`game.${game}`) })}</h3>
        <p>${t(`tut.${game}.intro`)}</p>
        <p class="buttons"><button class="primary" data-action="tutorial-start" onClick=${() => setStarted(true)}>${t('tut.start')}</button>
          ${rulesLink(game === 'madiao' ? 'play' : 'drawing')}</p>
      </div>`;
    }
    if (done) {
      return html`<div class="lesson end" data-lesson=${tut.end_lesson}>
        <p>${t(tut.end_lesson)}</p>
        <p class="buttons">${rulesLink(tut.end_rules)}</p>
        <p class="buttons"><button class="primary" data-action="practice" onClick=${() => document.querySelector('.practice')?.scrollIntoView({ block: 'start' })}>${t('practice.go')}</button></p>
        <p class="buttons">
          <a class="button primary" href="/" data-link="1" data-action="play-real">${t('tut.play_real')}</a>
          <button data-action="tutorial-again" onClick=${() => { setPos(0); setStarted(false); setWrong(false); }}>${t('tut.again')}</button>
          <a class="button" href=${`/tutorial/${game === 'madiao' ? 'dabaifen' : 'madiao'}`} data-link="1">${t('tut.other', { game: t(`game.${game === 'madiao' ? 'dabaifen' : 'madiao'}`) })}</a>
        </p>
      </div>`;
    }
    if (!step || !step.lesson) return html`<div class="lesson quiet"><p class="step-event" role="status">${caption || t('tut.watch')}</p></div>`;
    const params = lessonParams(game, step, before, names, l);
    return html`<div class="lesson" data-lesson=${step.lesson.id} data-kind=${step.lesson.kind}>
      ${caption ? html`<p class="step-event" role="status">${caption}</p>` : null}
      <p class="lesson-text">${t(step.lesson.id, params)}</p>
      ${wrong ? html`<p class="wrong" role="alert" data-wrong=${tries}>${t(`tut.wrong_${step.lesson.kind}`, params)}</p>` : null}
      <p class="buttons">${rulesLink(step.lesson.rules)}</p>
    </div>`;
  };

  const legal = waiting && started && step && step.lesson ? step.lesson.legal : null;
  const st = { legal, move: pos * 1000 + tries, hint: null, you: { seat: 0 }, timer: null, timerAt: 0 };
  const guide = waiting && step ? actionCards(step.action) ?? [] : [];
  const over = done && before.phase === 'over';
  return html`<div class=${`page tutorial-page game-${game}`} data-game=${game} data-step=${pos} data-steps=${steps.length} data-done=${done ? '1' : '0'}>
    <div class="tutorial-head">
      <h2>${t('tut.title', { game: t(`game.${game}`) })}</h2>
      <span class="sub" data-lessons=${lessons.total}>${t('tut.progress', { n: Math.min(lessons.done + 1, lessons.total), of: lessons.total })}</span>
    </div>
    ${lessonBox()}
    <div class="play-area">
      <${Board} game=${game} view=${before} names=${names} bottom=${0} own=${0} />
      ${over ? html`<div class="tutorial-scoring"><${Scoring} game=${game} view=${before} names=${names} stake=${'stake' in before ? before.stake : 2} /></div>` : null}
      ${!done ? html`<${MyHand} key=${game} st=${st} view=${before} game=${game} act=${act} send=${() => {}} names=${names} arrived=${new Map()} guide=${guide} />` : null}
    </div>
  </div>${done ? html`<div class="page practice-page"><${Practice} game=${game} /></div>` : null}`;
}
