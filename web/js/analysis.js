// The analysis of a finished hand (docs/analysis.md): one seat's decisions, each with the move
// made, the strongest bot's choice, the expected cost of the move in the game's unit (stakes or
// levels), its mark (?! inaccuracy, ? mistake, ?? blunder), the moves the bot weighed and the
// "cards face up" verdict. The server runs the analysis as a background job: the page asks for it,
// shows its progress while it is queued or running, then steps through the decisions.

import { html, useEffect, useRef, useState } from '../vendor/preact-htm.js';
import * as api from './api.js';
import { aside, analysisReason, botTip, lang, playerNames, t } from './i18n.js';
import { Card, errorText, useKeydown } from './ui.js';
import { MADIAO_SUITS, SUIT_NAMES } from './cards.js';
import { RecordTitle } from './replay.js';

/** @typedef {import('./wire').AnalysisReply} AnalysisReply */
/** @typedef {import('./wire').ReplayOutline} ReplayOutline */
/** @typedef {import('./storage.js').Identity} Identity */

/**
 * The analysis as the server gives it (docs/analysis.md, "JSON").
 * @typedef {{action: string, value: number, points?: number, considered: boolean}} Candidate
 * @typedef {{status: 'solved', best: string, best_value: number, played_value: number, cost: number} | {status: 'unsolved', reason: string}} FaceUp
 * @typedef {{kind: 'searched', bot: string, samples: number, candidates: Candidate[], played_value: number, bot_value: number, cost: number,
 *   mark: 'inaccuracy' | 'mistake' | 'blunder' | null, face_up: FaceUp} | {kind: 'forced'} | {kind: 'not_analysed', reason: string}} Verdict
 * @typedef {{en: string, zh: string, kind: string}} Reason
 * @typedef {{seat: number, cards: string[], face_down: boolean}} TrickPlay
 * @typedef {{hand: string[], trick: TrickPlay[], played: string[], voids: {seat: number, suit: string}[], upcard?: string, trump?: string}} Position
 * @typedef {{trick: number | null, played: string, verdict: Verdict, position?: Position, why?: {best: Reason, played?: Reason}}} Decision
 * @typedef {{decisions: number, searched: number, total_cost: number, inaccuracies: number, mistakes: number, blunders: number,
 *   face_up_solved: number, face_up_cost: number, accuracy?: number, dealt_value?: number, result?: number}} Summary
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
    if (!a.decisions.length) {
      // Why there is nothing: a hand settled or dealt again before the first trick says so.
      const res = outline && outline.hands[a.hand] ? /** @type {{outcome?: string} | null} */ (outline.hands[a.hand].result) : null;
      const outcome = res && typeof res.outcome === 'string' && ['meld', 'four_lowest', 'redeal'].includes(res.outcome) ? res.outcome : null;
      return html`<p class="hint analysis-empty" data-outcome=${outcome ?? ''}>${t(outcome ? `analysis.no_decisions_${outcome}` : 'analysis.no_decisions')}</p>`;
    }
    const d = a.decisions[Math.min(at, a.decisions.length - 1)];
    const v = d.verdict;
    return html`<div class="analysis-body">
      <p class="analysis-summary">${t('analysis.summary', { n: s.decisions, searched: s.searched, cost: num(s.total_cost), unit })}
        <span class="mark-count inaccuracy">?! ${s.inaccuracies}</span> <span class="mark-count mistake">? ${s.mistakes}</span>
        <span class="mark-count blunder">?? ${s.blunders}</span></p>
      ${s.accuracy != null
        ? html`<p class="analysis-accuracy" data-accuracy=${s.accuracy}>${t('analysis.accuracy', { acc: s.accuracy.toFixed(1) })}</p>`
        : html`<p class="analysis-accuracy none" data-accuracy="">${t('analysis.no_accuracy')}</p>`}
      ${s.dealt_value != null && s.result != null
        ? html`<p class="analysis-luck" data-dealt=${s.dealt_value} data-result=${s.result}>${t('analysis.luck', {
            dealt: num(s.dealt_value, true), result: num(s.result, true), cost: num(s.total_cost), unit,
            rest: num(s.result - s.dealt_value + s.total_cost, true) })}</p>`
        : null}
      <${ValueGraph} analysis=${a} at=${at} go=${go} unit=${unit} />
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
        ${d.position ? html`<${PositionView} game=${a.game} decision=${d} names=${names} />` : null}
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
    const d = a.decisions[Math.min(at, a.decisions.length - 1)];
    const why = d.why;
    const l = lang() === 'zh' ? 'zh' : 'en';
    // Best first; among equal values the best move first.
    const sorted = [...v.candidates].sort((x, y) => y.value - x.value || Number(y.action === v.bot) - Number(x.action === v.bot));
    const top = sorted.length ? sorted[0].value : 0;
    return html`<div class="search">
      <p class="bot">${t('analysis.bot')} <${Move} game=${a.game} text=${v.bot} /></p>
      <p class="cost" data-cost=${v.cost}>${t('analysis.cost', { cost: num(v.cost), unit })}</p>
      ${why ? html`<div class="why">
          <p class="why-best" data-kind=${why.best.kind}><b>${t('analysis.why_best')}</b> ${why.best[l]}</p>
          ${why.played ? html`<p class="why-not" data-kind=${why.played.kind}><b>${t('analysis.why_not')}</b> ${why.played[l]}</p>` : null}
        </div>` : null}
      <table class="candidates">
        <caption>${t('analysis.candidates', { n: v.samples })}</caption>
        <thead><tr><th>${t('analysis.move')}</th><th>${t('analysis.value', { unit })}</th><th>${t('analysis.diff')}</th>${a.game === 'dabaifen' ? html`<th>${t('analysis.points')}</th>` : null}</tr></thead>
        <tbody>${sorted.map(
          (c) => html`<tr key=${c.action} class=${`${c.action === v.bot ? 'best' : ''}${c.action === d.played ? ' made' : ''}${c.considered ? '' : ' unweighed'}`} data-action=${c.action}>
            <td><${Move} game=${a.game} text=${c.action} />${c.considered ? '' : aside(t('analysis.not_weighed'))}</td>
            <td>${num(c.value, true)}</td><td class="diff">${c.value === top ? '—' : num(c.value - top)}</td>${a.game === 'dabaifen' ? html`<td>${c.points != null ? num(c.points) : ''}</td>` : null}</tr>`,
        )}</tbody>
      </table>
      <p class="face-up" data-status=${fu.status}>${fu.status === 'solved'
        ? html`${t('analysis.face_up')} <${Move} game=${a.game} text=${fu.best} /> — ${t('analysis.face_up_cost', { cost: num(fu.cost), unit })}`
        : faceUpWords(fu.reason)}</p>
    </div>`;
  }
}

/** Why there is no face-up verdict, in a player's words. @param {string} reason */
function faceUpWords(reason) {
  let m = /^(\d+) tricks remain; the exact solver is used from (\d+)$/.exec(reason);
  if (m) return t('analysis.face_up_far_md', { n: m[1], from: m[2] });
  m = /^(\d+) cards per hand remain; the exact solver is tried from (\d+)$/.exec(reason);
  if (m) return t('analysis.face_up_far_db', { n: m[1], from: m[2] });
  return `${t('analysis.face_up_unsolved')}${lang() === 'zh' ? '' : ' '}${analysisReason(reason)}`;
}

/** The cards of a move of the analysis's words. @param {string} text */
function moveCards(text) {
  return moveParts(text).cards;
}

/**
 * The position the seat saw: the trick so far and its hand drawn with the table's cards, the best
 * move's and the move made's cards marked, and what it knew.
 * @param {{game: 'madiao' | 'dabaifen', decision: Decision, names: string[]}} p
 */
function PositionView(p) {
  const d = p.decision;
  const pos = /** @type {Position} */ (d.position);
  const v = d.verdict;
  const best = new Set(v.kind === 'searched' ? moveCards(v.bot) : []);
  const made = new Set(moveCards(d.played));
  const trump = pos.trump ? { suit: pos.trump.slice(1), rank: pos.trump[0] } : undefined;
  const zh = lang() === 'zh';
  /** @param {string} suit */
  const suitName = (suit) => {
    if (p.game === 'madiao') {
      const s = MADIAO_SUITS[/** @type {'T' | 'M' | 'S' | 'W'} */ (suit)];
      return s ? (zh ? s.zh : s.en) : suit;
    }
    if (suit === 'trump') return t('card.trump');
    const s = SUIT_NAMES[/** @type {'S' | 'H' | 'D' | 'C'} */ (suit)];
    return s ? s[zh ? 'zh' : 'en'] : suit;
  };
  return html`<div class="analysis-position" data-hand=${pos.hand.length}>
    ${d.trick === null
      ? null
      : html`<div class="pos-trick">
          <span class="label">${t('analysis.trick_so_far')}</span>
          ${pos.trick.length
            ? pos.trick.map((tp, i) => html`<figure key=${i} class="pos-play" data-seat=${tp.seat}>
                ${tp.face_down ? html`<${Card} game=${p.game} code=${null} faceDown=${true} size="small" />`
                  : tp.cards.map((c) => html`<${Card} key=${c} game=${p.game} code=${c} size="small" trump=${trump} />`)}
                <figcaption>${p.names[tp.seat]}</figcaption></figure>`)
            : html`<span class="hint">${t('analysis.you_lead')}</span>`}
        </div>`}
    <div class="pos-hand" aria-label=${t('analysis.your_hand')}>
      <span class="label">${t('analysis.your_hand')}</span>
      <span class="cards">${pos.hand.map((c) => html`<span key=${c} class=${`pos-card${best.has(c) ? ' best' : ''}${made.has(c) ? ' made' : ''}`} data-card=${c}>
        <${Card} game=${p.game} code=${c} size="small" trump=${trump} hinted=${best.has(c)} selected=${made.has(c)}
          mark=${best.has(c) ? '★' : made.has(c) ? '●' : undefined} /></span>`)}</span>
      <span class="legend"><span class="best">★ ${t('analysis.best_mark')}</span> <span class="made">● ${t('analysis.played_mark')}</span></span>
    </div>
    <p class="pos-known"><b>${t('analysis.known')}</b>${' '}
      ${pos.upcard ? html`<span class="upcard">${t('analysis.upcard')} <${Card} game=${p.game} code=${pos.upcard} size="tiny" /></span>` : null}
      ${trump ? html`<span class="trump-shown" data-trump=${pos.trump}>${t('analysis.trump', { suit: suitName(trump.suit), rank: trump.rank === 'T' ? '10' : trump.rank })}</span>` : null}
      <span class="played-count">${t('analysis.played_before', { n: pos.played.length })}</span>
      ${pos.voids.map((x, i) => html`<span key=${i} class="void" data-seat=${x.seat}>${t('analysis.void', { name: p.names[x.seat], suit: suitName(x.suit) })}</span>`)}
    </p>
  </div>`;
}

/**
 * The seat's expected result through the hand: at each searched decision the value of the best
 * move and of the move made, and the result at the end (an inline SVG; a point opens its decision).
 * @param {{analysis: Analysis, at: number, go: (i: number) => void, unit: string}} p
 */
function ValueGraph(p) {
  const a = p.analysis;
  /** @type {{i: number, best: number, made: number}[]} */
  const pts = [];
  a.decisions.forEach((d, i) => {
    if (d.verdict.kind === 'searched') pts.push({ i, best: d.verdict.bot_value, made: d.verdict.played_value });
  });
  if (pts.length < 2) return null;
  const result = a.summary.result;
  const values = pts.flatMap((q) => [q.best, q.made]).concat(result != null ? [result, 0] : [0]);
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const span = hi - lo || 1;
  const W = 320;
  const H = 110;
  const n = a.decisions.length + (result != null ? 1 : 0);
  /** @param {number} i */
  const x = (i) => 36 + (i * (W - 48)) / Math.max(n - 1, 1);
  /** @param {number} v */
  const y = (v) => 8 + ((hi - v) * (H - 16)) / span;
  const line = (/** @type {'best' | 'made'} */ k) => pts.map((q) => `${x(q.i).toFixed(1)},${y(q[k]).toFixed(1)}`).join(' ');
  return html`<figure class="value-graph">
    <svg viewBox=${`0 0 ${W} ${H}`} role="img" aria-label=${t('analysis.graph', { unit: p.unit })}>
      <line class="zero" x1="0" x2=${W} y1=${y(0)} y2=${y(0)} />
      <text class="axis" x="2" y="10">${num(hi, true)}</text>
      <text class="axis" x="2" y=${H - 2}>${num(lo, true)}</text>
      <polyline class="best" points=${line('best')} />
      <polyline class="made" points=${line('made')} />
      ${pts.map((q) => html`<circle key=${q.i} class=${`pt${q.i === p.at ? ' on' : ''}`} cx=${x(q.i)} cy=${y(q.made)} r=${q.i === p.at ? 5 : 3.5}
        data-index=${q.i} onClick=${() => p.go(q.i)}><title>${q.i + 1}: ${num(q.made, true)} / ${num(q.best, true)}</title></circle>`)}
      ${result != null ? html`<rect class="result" x=${x(n - 1) - 4} y=${y(result) - 4} width="8" height="8"><title>${t('analysis.graph_result')} ${num(result, true)}</title></rect>` : null}
    </svg>
    <figcaption>${t('analysis.graph', { unit: p.unit })} <span class="best">— ${t('analysis.graph_best')}</span> <span class="made">— ${t('analysis.graph_played')}</span>${result != null ? html` <span class="result">■ ${t('analysis.graph_result')}</span>` : null}</figcaption>
  </figure>`;
}

/** The last hand of an outline played to its end (0 when none is). @param {ReplayOutline} o */
function lastFinished(o) {
  for (let i = o.hands.length - 1; i >= 0; i--) if (o.hands[i].result) return i;
  return 0;
}
