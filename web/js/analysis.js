// The analysis of a finished hand (docs/analysis.md): one seat's decisions, each with the move
// made, the strongest bot's choice, the expected cost of the move in the game's unit (stakes or
// levels), its mark (?! inaccuracy, ? mistake, ?? blunder), the moves the bot weighed and the
// "cards face up" verdict. The server runs the analysis as a background job: the page asks for it,
// shows its progress while it is queued or running, then steps through the decisions.

import { html, useEffect, useRef, useState } from '../vendor/preact-htm.js';
import * as api from './api.js';
import { aside, analysisReason, botTip, lang, playerNames, t } from './i18n.js';
import { Card, errorText, useKeydown } from './ui.js';
import { RecordTitle } from './replay.js';

/** @typedef {import('./wire').AnalysisReply} AnalysisReply */
/** @typedef {import('./wire').ReplayOutline} ReplayOutline */
/** @typedef {import('./state.js').Identity} Identity */

/**
 * The analysis as the server gives it (docs/analysis.md, "JSON").
 * @typedef {{action: string, value: number, points?: number, considered: boolean}} Candidate
 * @typedef {{status: 'solved', best: string, best_value: number, played_value: number, cost: number} | {status: 'unsolved', reason: string}} FaceUp
 * @typedef {{kind: 'searched', bot: string, samples: number, candidates: Candidate[], played_value: number, bot_value: number, cost: number,
 *   mark: 'inaccuracy' | 'mistake' | 'blunder' | null, face_up: FaceUp} | {kind: 'forced'} | {kind: 'not_analysed', reason: string}} Verdict
 * @typedef {{trick: number | null, played: string, verdict: Verdict}} Decision
 * @typedef {{decisions: number, searched: number, total_cost: number, inaccuracies: number, mistakes: number, blunders: number,
 *   face_up_solved: number, face_up_cost: number}} Summary
 * @typedef {{game: 'madiao' | 'dabaifen', hand: number, seat: number, seed: number, think_ms: number, unit: 'stakes' | 'levels',
 *   marks: number[], decisions: Decision[], summary: Summary}} Analysis
 */

/** The sign of a mark. */
export const MARK_SIGN = { inaccuracy: '?!', mistake: '?', blunder: '??' };

/**
 * A move as the analysis writes it (`play M9`, `force a redeal`, `play AS KS`…): its kind and cards.
 * @param {string} text @returns {{kind: string, cards: string[]}}
 */
export function moveParts(text) {
  if (text === 'force a redeal') return { kind: 'redeal', cards: [] };
  if (text === 'decline a redeal') return { kind: 'no_redeal', cards: [] };
  const [verb, ...rest] = text.split(' ');
  const cards = rest.join(' ').split(/[^0-9A-Za-z]+/).filter((c) => c.length >= 2 && c.length <= 3);
  if (['play', 'slough', 'pass', 'declare', 'annul', 'bury'].includes(verb)) return { kind: verb, cards };
  return { kind: 'other', cards: [] };
}

/** A number in the unit, with a sign where asked. @param {number} x @param {boolean} [sign] */
function num(x, sign = false) {
  const s = (Math.round(x * 100) / 100).toFixed(2);
  return sign && x > 0 ? `+${s}` : s;
}

/**
 * A move: its kind in words and its cards.
 * @param {{game: 'madiao' | 'dabaifen', text: string}} p
 */
function Move(p) {
  const m = moveParts(p.text);
  const word = {
    play: t('analysis.move_play'),
    slough: t('analysis.move_slough'),
    redeal: t('analysis.move_redeal'),
    no_redeal: t('analysis.move_no_redeal'),
    pass: t('analysis.move_pass'),
    declare: t('analysis.move_declare'),
    annul: t('analysis.move_annul'),
    bury: t('analysis.move_bury'),
  }[m.kind];
  return html`<span class="move" data-move=${p.text}>${word ?? p.text}
    ${m.cards.map((c) => html`<${Card} key=${c} game=${p.game} code=${c} size="tiny" />`)}</span>`;
}

/**
 * The analysis page of a finished game's hand: the seat and hand chosen, the job's progress, then
 * the decisions one at a time.
 * @param {{id: string, hand: number | null, seat: number | null, identity: Identity | null, navigate: (p: string) => void}} p
 */
export function AnalysisPage(p) {
  const [outline, setOutline] = useState(/** @type {ReplayOutline | null} */ (null));
  const [reply, setReply] = useState(/** @type {AnalysisReply | null} */ (null));
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const [at, setAt] = useState(0);
  const seat = p.seat ?? 0;
  /** The hand shown: the one asked for, else the last one played to its end. */
  const hand = p.hand ?? (outline ? lastFinished(outline) : null);
  const asked = useRef('');

  /** @param {unknown} e */
  const fail = (e) => setError(e instanceof api.ApiError ? errorText(e.code, e.message) : String(e));

  useEffect(() => {
    api.replayOf(p.id).then(setOutline, fail);
  }, [p.id]);

  // Follows the analysis of (hand, seat): asks for it when there is none, then polls while it is
  // queued or running.
  useEffect(() => {
    if (hand === null) return;
    const key = `${p.id}/${hand}/${seat}`;
    asked.current = key;
    setReply(null);
    setError(null);
    setAt(0);
    let timer = 0;
    const token = p.identity ? p.identity.token : null;
    /** @param {AnalysisReply} r */
    const got = (r) => {
      if (asked.current !== key) return;
      setReply(r);
      if (r.status === 'queued' || r.status === 'running') timer = window.setTimeout(poll, 400);
    };
    /** @param {unknown} e */
    const lost = (e) => {
      if (asked.current === key) fail(e);
    };
    const poll = () => api.analysis(p.id, hand, seat, token).then(got, lost);
    // Asking gives a stored analysis at once, or joins (or begins) the job; without a name the
    // page can only read what is there.
    if (token) api.askAnalysis(p.id, hand, seat, token).then(got, lost);
    else
      api.analysis(p.id, hand, seat, null).then(got, (e) => {
        if (e instanceof api.ApiError && e.code === 'no_analysis') {
          if (asked.current === key) setError(t('analysis.name_needed'));
        } else lost(e);
      });
    return () => {
      asked.current = '';
      clearTimeout(timer);
    };
  }, [p.id, hand, seat]);

  const analysis = reply && reply.status === 'done' ? /** @type {Analysis} */ (reply.analysis) : null;
  const count = analysis ? analysis.decisions.length : 0;
  /** @param {number} i */
  const go = (i) => setAt(Math.max(0, Math.min(count - 1, i)));

  useKeydown((e) => {
    const el = /** @type {HTMLElement | null} */ (e.target);
    if (!analysis || (el && (el.tagName === 'INPUT' || el.tagName === 'SELECT' || el.tagName === 'TEXTAREA'))) return;
    if (e.key === 'ArrowRight') go(at + 1);
    else if (e.key === 'ArrowLeft') go(at - 1);
    else if (e.key === 'Home') go(0);
    else if (e.key === 'End') go(count - 1);
    else return;
    e.preventDefault();
  });

  /** @param {number | null} h @param {number} s */
  const choose = (h, s) => p.navigate(api.keepShare(`/analysis/${p.id}?hand=${h ?? 0}&seat=${s}`));
  const names = outline && outline.players
    ? playerNames(outline.players)
    : [0, 1, 2, 3].map((s) => t('seat.n', { n: s + 1 }));

  return html`<div class="page analysis-page" data-status=${reply ? reply.status : ''} data-at=${at} data-hand=${hand ?? ''} data-seat=${seat}>
    <div class="replay-head">
      <h2>${t('analysis.title')} <${RecordTitle} id=${p.id} outline=${outline} /></h2>
      <a class="button" href=${`/replay/${p.id}`} data-link="1">${t('replay.open')}</a>
    </div>
    ${outline
      ? html`<div class="analysis-choice">
          <label>${t('replay.hand')}
            <select value=${String(hand ?? 0)} onChange=${(/** @type {Event} */ e) => choose(Number(/** @type {HTMLSelectElement} */ (e.target).value), seat)}>
              ${outline.hands.map((h, i) => html`<option key=${i} value=${String(i)} disabled=${!h.result}>${t('table.hand_n', { n: i + 1 })}</option>`)}
            </select></label>
          <span class="seat-choice" role="group" aria-label=${t('analysis.seat')}>
            ${names.map((n, s) => html`<button key=${s} class=${s === seat ? 'on' : ''} aria-pressed=${s === seat ? 'true' : 'false'} data-seat=${s}
              title=${outline.players ? botTip(outline.players[s]) : undefined} data-bot=${(outline.players && botTip(outline.players[s])) ?? null} onClick=${() => choose(hand, s)}>${n}</button>`)}
          </span>
        </div>`
      : null}
    ${error ? html`<p class="error-box" role="alert">${error}</p>` : null}
    ${!error && (!reply || reply.status === 'queued' || reply.status === 'running') ? renderProgress() : null}
    ${reply && reply.status === 'failed' ? html`<p class="error-box" role="alert">${t('analysis.failed')} ${reply.error ?? ''}</p>` : null}
    ${analysis ? renderAnalysis(analysis) : null}
  </div>`;

  function renderProgress() {
    const r = reply;
    const total = r ? r.total : 0;
    const done = r ? r.done : 0;
    return html`<div class="analysis-progress" role="status">
      <p>${!r ? t('common.loading') : r.status === 'queued' ? t('analysis.queued', { n: r.ahead ?? 0 }) : t('analysis.running', { done, total })}</p>
      <progress max=${String(Math.max(total, 1))} value=${String(done)}></progress>
    </div>`;
  }

  /** @param {Analysis} a */
  function renderAnalysis(a) {
    const unit = a.unit === 'stakes' ? t('analysis.unit_stakes') : t('analysis.unit_levels');
    const s = a.summary;
    if (!a.decisions.length) return html`<p class="hint">${t('analysis.no_decisions')}</p>`;
    const d = a.decisions[Math.min(at, a.decisions.length - 1)];
    const v = d.verdict;
    return html`<div class="analysis-body">
      <p class="analysis-summary">${t('analysis.summary', { n: s.decisions, searched: s.searched, cost: num(s.total_cost), unit })}
        <span class="mark-count inaccuracy">?! ${s.inaccuracies}</span> <span class="mark-count mistake">? ${s.mistakes}</span>
        <span class="mark-count blunder">?? ${s.blunders}</span></p>
      <ol class="decision-strip" aria-label=${t('analysis.decisions')}>
        ${a.decisions.map((x, i) => {
          const mark = x.verdict.kind === 'searched' ? x.verdict.mark : null;
          return html`<li key=${i}><button class=${`chip ${mark ?? x.verdict.kind}${i === at ? ' on' : ''}`} data-index=${i} onClick=${() => go(i)}
            aria-label=${t('analysis.decision_n', { n: i + 1, of: a.decisions.length })}>${i + 1}${mark ? MARK_SIGN[mark] : ''}</button></li>`;
        })}
      </ol>
      <div class="replay-controls">
        <div class="step-buttons">
          <button onClick=${() => go(0)} aria-label=${t('replay.first')}>«</button>
          <button onClick=${() => go(at - 1)} data-action="prev-decision" aria-label=${t('analysis.prev')}>‹</button>
          <button onClick=${() => go(at + 1)} data-action="next-decision" aria-label=${t('analysis.next')}>›</button>
          <button onClick=${() => go(count - 1)} aria-label=${t('replay.last')}>»</button>
        </div>
        <span class="step-n">${t('analysis.decision_n', { n: at + 1, of: count })}</span>
      </div>
      <div class="decision" data-kind=${v.kind} data-mark=${v.kind === 'searched' ? v.mark ?? '' : ''}>
        <p>${d.trick !== null ? t('analysis.trick', { n: d.trick }) : t('analysis.before_play')}</p>
        <p class="played">${t('analysis.played')} <${Move} game=${a.game} text=${d.played} />
          ${v.kind === 'searched' && v.mark ? html`<span class=${`mark-sign ${v.mark}`} title=${t(`analysis.mark_${v.mark}`)}>${MARK_SIGN[v.mark]} ${t(`analysis.mark_${v.mark}`)}</span>` : null}</p>
        ${v.kind === 'forced' ? html`<p class="hint">${t('analysis.forced')}</p>` : null}
        ${v.kind === 'not_analysed' ? html`<p class="hint">${t('analysis.not_analysed')}${lang() === 'zh' ? '' : ' '}${analysisReason(v.reason)}</p>` : null}
        ${v.kind === 'searched' ? renderSearch(a, v, unit) : null}
      </div>
    </div>`;
  }

  /**
   * @param {Analysis} a @param {Extract<Verdict, {kind: 'searched'}>} v @param {string} unit
   */
  function renderSearch(a, v, unit) {
    const fu = v.face_up;
    return html`<div class="search">
      <p class="bot">${t('analysis.bot')} <${Move} game=${a.game} text=${v.bot} /></p>
      <p class="cost" data-cost=${v.cost}>${t('analysis.cost', { cost: num(v.cost), unit })}</p>
      <table class="candidates">
        <caption>${t('analysis.candidates', { n: v.samples })}</caption>
        <thead><tr><th>${t('analysis.move')}</th><th>${t('analysis.value', { unit })}</th>${a.game === 'dabaifen' ? html`<th>${t('analysis.points')}</th>` : null}</tr></thead>
        <tbody>${v.candidates.map(
          (c) => html`<tr key=${c.action} class=${`${c.action === v.bot ? 'best' : ''}${c.considered ? '' : ' unweighed'}`} data-action=${c.action}>
            <td><${Move} game=${a.game} text=${c.action} />${c.considered ? '' : aside(t('analysis.not_weighed'))}</td>
            <td>${num(c.value, true)}</td>${a.game === 'dabaifen' ? html`<td>${c.points != null ? num(c.points) : ''}</td>` : null}</tr>`,
        )}</tbody>
      </table>
      <p class="face-up" data-status=${fu.status}>${fu.status === 'solved'
        ? html`${t('analysis.face_up')} <${Move} game=${a.game} text=${fu.best} /> — ${t('analysis.face_up_cost', { cost: num(fu.cost), unit })}`
        : `${t('analysis.face_up_unsolved')}${lang() === 'zh' ? '' : ' '}${analysisReason(fu.reason)}`}</p>
    </div>`;
  }
}

/** The last hand of an outline played to its end (0 when none is). @param {ReplayOutline} o */
function lastFinished(o) {
  for (let i = o.hands.length - 1; i >= 0; i--) if (o.hands[i].result) return i;
  return 0;
}
