// The puzzles (`/puzzles?game=…&id=…`): a position from a played hand where one move is clearly
// best, drawn with the table's own felt and hand; the player picks a card (or cards, for a Da Bai
// Fen lead of several, or the six cards of a burial) and the server says right or wrong, why, and the line that follows
// (docs/puzzles.md). With a name the attempt is rated (a puzzle rating per game, Glicko-2) and
// "Next" brings the puzzle nearest the player's rating; the puzzle of the day is the same for
// everyone. The tutorials' practice (`Practice`) shows the easiest puzzles the same way, unrated.

import { html, useEffect, useState } from '../vendor/preact-htm.js';
import * as api from './api.js';
import { Board } from './board.js';
import { cardLabel } from './cards.js';
import { lang, t } from './i18n.js';
import { MyHand } from './table.js';
import { errorText } from './ui.js';

/** @typedef {import('./wire').PuzzlePosition} PuzzlePosition */
/** @typedef {import('./wire').PuzzleAttemptReply} PuzzleAttemptReply */
/** @typedef {import('./wire').PuzzlePlayer} PuzzlePlayer */
/** @typedef {import('./wire').MadiaoView} MadiaoView */
/** @typedef {import('./wire').DabaifenView} DabaifenView */
/** @typedef {import('./storage.js').Identity} Identity */

/** How many of the easiest puzzles a tutorial's practice offers. */
export const PRACTICE = 5;

/**
 * The cards of an action (`{play: c}`, `{slough: c}`, `{play: [...]}`, `{bury: [...]}`), or [] for none.
 * @param {unknown} action
 * @returns {string[]}
 */
export function cardsOf(action) {
  if (!action || typeof action !== 'object') return [];
  for (const k of ['play', 'slough', 'bury']) {
    const v = /** @type {Record<string, unknown>} */ (action)[k];
    if (typeof v === 'string') return [v];
    if (Array.isArray(v)) return v.map(String);
  }
  return [];
}

/**
 * An action in words: "slough 9 myriads" / "灭九萬", "play A♠ K♠".
 * @param {'madiao' | 'dabaifen'} game @param {unknown} action @param {'en' | 'zh'} l
 */
export function actionWords(game, action, l) {
  const cards = cardsOf(action).map((c) => cardLabel(game, c, l)).join(l === 'zh' ? '、' : ' ');
  const has = (/** @type {string} */ k) => !!action && typeof action === 'object' && k in action;
  return t(has('slough') ? 'puzzle.slough' : has('bury') ? 'puzzle.bury' : 'puzzle.play', { cards });
}

/**
 * The names around a puzzle's table: "You" at the puzzle's seat, the others by number.
 * @param {number} seat
 */
export function puzzleNames(seat) {
  return [0, 1, 2, 3].map((s) => (s === seat ? t('tut.you') : t('puzzle.seat', { n: s })));
}

/**
 * A puzzle's position, the player's choice and the verdict.
 * @param {{game: 'madiao' | 'dabaifen', position: PuzzlePosition, token: string | null, rated: boolean,
 *   onAnswer?: (r: PuzzleAttemptReply) => void}} p
 */
export function PuzzleBoard(p) {
  const { game, position } = p;
  const [reply, setReply] = useState(/** @type {PuzzleAttemptReply | null} */ (null));
  const [chosen, setChosen] = useState(/** @type {unknown} */ (null));
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setReply(null);
    setChosen(null);
    setError(null);
  }, [position.id]);
  const l = lang();
  const view = /** @type {MadiaoView | DabaifenView} */ (position.view);
  const names = puzzleNames(position.seat);

  /** @param {unknown} action */
  const act = (action) => {
    if (reply || busy) return;
    setBusy(true);
    setChosen(action);
    api
      .call('POST', `/api/puzzles/${game}/id/${encodeURIComponent(position.id)}/attempt`, { body: { action, rated: p.rated }, token: p.token })
      .then(
        (r) => {
          setReply(r);
          if (p.onAnswer) p.onAnswer(r);
        },
        (e) => setError(e instanceof api.ApiError ? errorText(e.code, e.message) : String(e)),
      )
      .finally(() => setBusy(false));
  };

  const st = { legal: reply ? null : position.legal, move: 0, hint: null, you: { seat: position.seat }, timer: null, timerAt: 0 };
  const v = reply ? reply.verdict : null;
  const pick = (/** @type {{en: string, zh: string}} */ x) => (l === 'zh' ? x.zh : x.en);
  const unit = t(position.unit === 'stakes' ? 'puzzle.unit_stakes' : 'puzzle.unit_levels');
  const answerCards = v ? cardsOf(v.answer) : [];
  const burial = position.themes.includes('burial');
  return html`<div class="puzzle" data-puzzle=${position.id} data-answered=${v ? (v.right ? 'right' : 'wrong') : ''}>
    <div class="puzzle-task">
      <p class="puzzle-ask">${t(game === 'madiao' ? 'puzzle.ask_madiao' : position.themes.includes('burial') ? 'puzzle.ask_burial' : 'puzzle.ask_dabaifen')}</p>
      <p class="puzzle-meta">
        <span data-difficulty=${position.difficulty}>${t('puzzle.difficulty', { n: position.difficulty })}</span>${' · '}<span class="puzzle-themes">${position.themes.map((th) => t(`puzzle.theme.${th}`)).join(l === 'zh' ? '、' : ', ')}</span>${p.rated ? html`${' · '}<span>${t('puzzle.its_rating', { r: Math.round(position.rating) })}</span>` : null}
      </p>
    </div>
    <div class="play-area">
      <${Board} game=${game} view=${view} names=${names} bottom=${position.seat} own=${position.seat} />
      <${MyHand} key=${position.id} st=${st} view=${view} game=${game} act=${act} send=${() => {}} names=${names}
        arrived=${new Map()} guide=${v ? answerCards : []} />
    </div>
    ${error ? html`<p class="error-box" role="alert">${error}</p>` : null}
    ${v
      ? html`<div class=${`verdict ${v.right ? 'right' : 'wrong'}`} role="status" data-verdict=${v.right ? 'right' : 'wrong'}>
          <h3>${v.right ? t('puzzle.right') : t('puzzle.wrong', { answer: actionWords(game, v.answer, l) })}</h3>
          ${!v.right && chosen ? html`<p class="puzzle-chosen">${t('puzzle.you_chose', { move: actionWords(game, chosen, l) })}</p>` : null}
          ${v.mistake ? html`<p class="puzzle-mistake">${pick(v.mistake)}</p>` : null}
          <p class="puzzle-reason">${pick(v.reason)}</p>
          <details class="puzzle-line" open>
            <summary>${t(burial ? 'puzzle.line_burial' : 'puzzle.line')}</summary>
            <ol>${v.line.map((s) => html`<li data-seat=${s.seat}>${names[s.seat]}: ${actionWords(game, s.action, l)}</li>`)}</ol>
          </details>
          <details class="puzzle-moves">
            <summary>${t('puzzle.moves', { unit })}</summary>
            <table><thead><tr><th>${t('puzzle.move')}</th><th>${t(burial ? 'puzzle.actual_deal' : 'puzzle.face_up')}</th><th>${t('puzzle.expected')}</th></tr></thead>
              <tbody>${v.moves.map((m) => html`<tr><td>${actionWords(game, m.action, l)}</td><td>${m.face_up.toFixed(2)}</td><td>${m.expected.toFixed(2)}</td></tr>`)}</tbody></table>
          </details>
          ${reply && reply.rating
            ? html`<p class="puzzle-rating" data-rating=${Math.round(reply.rating.after)}>${t('puzzle.rating_change', { before: Math.round(reply.rating.before), after: Math.round(reply.rating.after) })}</p>`
            : null}
        </div>`
      : null}
  </div>`;
}

/**
 * The puzzles page.
 * @param {{game: 'madiao' | 'dabaifen', id: string | null, identity: Identity | null, navigate: (p: string) => void}} p
 */
export function PuzzlesPage(p) {
  const { game } = p;
  const token = p.identity ? p.identity.token : null;
  const [position, setPosition] = useState(/** @type {PuzzlePosition | null} */ (null));
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const [me, setMe] = useState(/** @type {PuzzlePlayer | null} */ (null));
  const [answered, setAnswered] = useState(false);

  /** @param {string} path */
  const load = (path) => {
    setError(null);
    setAnswered(false);
    api.call('GET', path, { token }).then(
      (pos) => {
        setPosition(pos);
        const want = `/puzzles?game=${game}&id=${encodeURIComponent(pos.id)}`;
        if (location.pathname + location.search !== want) history.replaceState(null, '', want);
      },
      (e) => setError(e instanceof api.ApiError ? errorText(e.code, e.message) : String(e)),
    );
  };
  const daily = () => load(`/api/puzzles/${game}/daily`);
  const next = () => {
    if (token) load(`/api/puzzles/${game}/next`);
    else load(`/api/puzzles/${game}?index=${position ? (position.index + 1) % position.count : 0}`);
  };
  const refreshMe = () => {
    if (token) api.call('GET', `/api/puzzles/${game}/me`, { token }).then(setMe, () => setMe(null));
  };
  useEffect(() => {
    setPosition(null);
    if (p.id) load(`/api/puzzles/${game}/id/${encodeURIComponent(p.id)}`);
    else daily();
    refreshMe();
  }, [game, p.id]);

  const other = game === 'madiao' ? 'dabaifen' : 'madiao';
  return html`<div class=${`page puzzles-page game-${game}`} data-game=${game}>
    <div class="puzzles-head">
      <h2>${t('puzzle.title')}</h2>
      <div class="tabs">
        <a href="/puzzles?game=madiao" data-link="1" class=${game === 'madiao' ? 'on' : ''} data-game-tab="madiao">${t('game.madiao')}</a>
        <a href="/puzzles?game=dabaifen" data-link="1" class=${game === 'dabaifen' ? 'on' : ''} data-game-tab="dabaifen">${t('game.dabaifen')}</a>
      </div>
      ${me ? html`<span class="sub puzzle-me" data-my-rating=${Math.round(me.rating)}>${t('puzzle.my_rating', { r: Math.round(me.rating), n: me.attempts, solved: me.solved })}</span>` : null}
    </div>
    <p class="buttons">
      <button data-action="puzzle-daily" onClick=${daily}>${t('puzzle.daily')}</button>
      <button class=${answered ? 'primary' : ''} data-action="puzzle-next" onClick=${next}>${t('puzzle.next')}</button>
      <a class="button" href=${`/puzzles?game=${other}`} data-link="1">${t('puzzle.other', { game: t(`game.${other}`) })}</a>
    </p>
    ${error ? html`<p class="error-box" role="alert">${error}</p>` : null}
    ${!position && !error ? html`<p>${t('common.loading')}</p>` : null}
    ${position
      ? html`<${PuzzleBoard} game=${game} position=${position} token=${token} rated=${!!token}
          onAnswer=${() => { setAnswered(true); refreshMe(); }} />`
      : null}
    ${!token ? html`<p class="hint">${t('puzzle.name_to_rate')}</p>` : null}
  </div>`;
}

/**
 * A tutorial's practice: the easiest puzzles of the game, one after another; the learner chooses
 * alone and is told whether the choice was good and why (nothing is rated).
 * @param {{game: 'madiao' | 'dabaifen'}} p
 */
export function Practice(p) {
  const [k, setK] = useState(0);
  const [position, setPosition] = useState(/** @type {PuzzlePosition | null} */ (null));
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const [answered, setAnswered] = useState(false);
  const [score, setScore] = useState(0);
  useEffect(() => {
    setPosition(null);
    setAnswered(false);
    api.call('GET', `/api/puzzles/${p.game}?index=${k}`).then(setPosition, (e) => setError(e instanceof api.ApiError ? errorText(e.code, e.message) : String(e)));
  }, [p.game, k]);
  const last = k + 1 >= PRACTICE;
  return html`<section class="practice" data-practice=${k} data-score=${score}>
    <h3>${t('practice.title', { n: k + 1, of: PRACTICE })}</h3>
    <p>${t('practice.text')}</p>
    ${error ? html`<p class="error-box" role="alert">${error}</p>` : null}
    ${position
      ? html`<${PuzzleBoard} game=${p.game} position=${position} token=${null} rated=${false}
          onAnswer=${(/** @type {PuzzleAttemptReply} */ r) => { setAnswered(true); if (r.verdict.right) setScore((s) => s + 1); }} />`
      : null}
    ${answered
      ? last
        ? html`<p class="practice-done" data-practice-done="1">${t('practice.done', { n: score, of: PRACTICE })}
            <a class="button" href=${`/puzzles?game=${p.game}`} data-link="1">${t('practice.more')}</a></p>`
        : html`<p class="buttons"><button class="primary" data-action="practice-next" onClick=${() => setK(k + 1)}>${t('practice.next')}</button></p>`
      : null}
  </section>`;
}
