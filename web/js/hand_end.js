// The end of a hand: the result, the itemized settlement (Madiao) or the account of the deal
// (Da Bai Fen) in words, and the running match score.

import { html } from '../vendor/preact-htm.js';
import * as api from './api.js';
import { isMadiao } from './board.js';
import { rankText } from './cards.js';
import { lang, t } from './i18n.js';
import { readiness } from './pace.js';
import { accountText, dabaifenResultText, handResultLine, madiaoResultText, settlementLineText, signed, teamText } from './scoring.js';
import { Card, Countdown } from './ui.js';
import { RatingCell, useRatingChanges } from './final_score.js';
import { MatchAccuracyView } from './match_accuracy.js';

/** @typedef {import('./wire').MadiaoView} MadiaoView */
/** @typedef {import('./wire').DabaifenView} DabaifenView */
/** @typedef {import('./wire').MadiaoMatch} MadiaoMatch */
/** @typedef {import('./wire').DabaifenMatch} DabaifenMatch */
/** @typedef {import('./wire').Timer} Timer */
/** @typedef {import('./wire').SeatInfo} SeatInfo */
/** @typedef {import('./wire').RatingChange} RatingChange */

/**
 * The itemized scoring of a finished hand, in words (shared by the table and replays).
 * @param {{game: 'madiao' | 'dabaifen', view: MadiaoView | DabaifenView, names: string[], stake: number}} p
 */
export function Scoring(p) {
  const l = lang();
  const view = p.view;
  if (isMadiao(view)) {
    const r = view.result;
    // Each hand has its own stake (the banker names it, rules §2).
    const stake = view.stake ?? p.stake;
    return html`<div class="scoring madiao">
      ${r ? html`<p class="result-text">${madiaoResultText(r, p.names, l)}</p>` : null}
      ${view.declared.length
        ? html`<div class="declared">${view.declared.map(
            (d) => html`<div key=${`${d.seat}${d.what}`}><b>${p.names[d.seat]}</b>${l === 'zh' ? '' : ' '}${t(`declared.${d.what}`)}${l === 'zh' ? '：' : ':'}
              ${d.cards.map((c) => html`<${Card} key=${c} game="madiao" code=${c} size="tiny" />`)}</div>`,
          )}</div>`
        : null}
      ${view.settlement
        ? html`<ol class="lines">
            ${view.settlement.lines.map(
              (line, i) => html`<li key=${i} class=${line.counted ? '' : 'not-counted'} data-item=${line.item}>
                <span class="line-text">${settlementLineText(line, p.names, l)}</span>
                <span class="amounts">${line.transfers.map((x, s) => (x ? html`<span key=${s} class=${x > 0 ? 'plus' : 'minus'}>${p.names[s]} ${signed(x)}</span>` : null))}</span>
              </li>`,
            )}
          </ol>
          <table class="totals">
            <thead><tr><th></th>${p.names.map((n, s) => html`<th key=${s}>${n}</th>`)}</tr></thead>
            <tbody>
              <tr><th>${t('end.stakes')}</th>${view.settlement.totals.map((x, s) => html`<td key=${s} class=${x > 0 ? 'plus' : x < 0 ? 'minus' : ''}>${signed(x)}</td>`)}</tr>
              <tr><th>${t('end.chips')}</th>${view.settlement.totals.map((x, s) => html`<td key=${s}>${signed(x * stake)}</td>`)}</tr>
            </tbody>
            <caption class="hand-stake">${t('end.stake', { n: stake })}</caption>
          </table>`
        : r
          ? html`<p>${r.payoffs.map((x, s) => html`<span key=${s} class="pay">${p.names[s]} ${signed(x)}</span>`)}</p>`
          : null}
    </div>`;
  }
  const r = view.result;
  const record = r
    ? {
        ...r,
        trump: r.trump ? { suit: r.trump.suit, rank: r.trump.rank } : null,
      }
    : null;
  return html`<div class="scoring dabaifen">
    ${record ? html`<p class="result-text">${dabaifenResultText(/** @type {any} */ (record), p.names, l)}</p>` : null}
    ${view.buried ? html`<div class="buried">${t('dbf.buried')} ${view.buried.map((c) => html`<${Card} key=${c} game="dabaifen" code=${c} trump=${view.trump} size="tiny" />`)}</div>` : null}
    ${view.account ? html`<ol class="lines">${view.account.lines.map((e, i) => html`<li key=${i} data-event=${e.event}>${accountText(e, p.names, l)}</li>`)}</ol>` : null}
  </div>`;
}

/**
 * The end of a hand: its scoring, the match score, and between hands the Ready button (pressed
 * once you said you are ready) with who is ready so far.
 * @param {{game: 'madiao' | 'dabaifen', view: MadiaoView | DabaifenView, names: string[], match: MadiaoMatch | DabaifenMatch | null,
 *   stake: number, timer: Timer | null, timerAt: number, ready: boolean, seated: boolean, finished: boolean, tableId: string,
 *   seats: SeatInfo[], me: number | null, onNext: () => void, onHide: () => void, navigate: (p: string) => void, rated?: boolean, token?: string | null}} p
 */
export function HandEnd(p) {
  const over = !!p.match && p.match.over;
  const timer = p.timer && p.timer.what === 'next_hand' ? p.timer : null;
  // `?? []`: a server without the ready list (before pacing) still shows the button.
  const readySeats = (timer ? timer.ready : null) ?? [];
  const pressed = p.ready || (p.me !== null && readySeats.includes(p.me));
  // At the end of a rated match: each person's rating change, in the row of his final score.
  const changes = useRatingChanges(p.tableId, over && !!p.rated && p.finished);
  const tips = p.seats.map((s) => s.bot || undefined);
  return html`<div class="hand-end" role="dialog" aria-label=${t('end.title')}>
    <div class="hand-end-card">
      <div class="hand-end-top">
        <h3>${over ? t('end.match_over') : t('end.title')}</h3>
        <div class="buttons">
          ${!over && p.seated
            ? html`<button class=${pressed ? 'primary on' : 'primary'} data-action="next" aria-pressed=${pressed ? 'true' : 'false'} disabled=${pressed} onClick=${p.onNext}>
                ${pressed ? t('end.ready_pressed') : t('end.ready')} ${timer && typeof timer.remaining_ms === 'number' ? html`<${Countdown} remaining=${timer.remaining_ms} at=${p.timerAt} />` : null}</button>`
            : null}
          ${over && p.finished
            ? html`<button class="primary" onClick=${() => p.navigate(`/replay/${p.tableId}`)}>${t('replay.open')}</button>
                <button data-action="analyse" onClick=${() => p.navigate(`/analysis/${p.tableId}?seat=${p.me ?? 0}`)}>${t('analysis.open')}</button>
                <a class="button" href=${api.recordUrl(p.tableId)} download=${`yezi-${p.tableId}.json`}>${t('replay.download')}</a>`
            : null}
          ${over && !p.finished ? html`<span class="hint">${t('end.saving')}</span>` : null}
          <button onClick=${p.onHide}>${t('end.hide')}</button>
        </div>
      </div>
      ${!over && timer ? html`<${ReadyList} seats=${p.seats} names=${p.names} ready=${readySeats} pressed=${pressed} seated=${p.seated} />` : null}
      ${over
        ? html`<div class="final-score-box">
            <h4>${t('end.final_score')}</h4>
            <${MatchScore} game=${p.game} match=${p.match} names=${p.names} stake=${p.stake} tips=${tips} ratings=${p.rated ? changes : null} />
            ${p.rated && !p.finished ? html`<p class="rating-pending hint">${t('end.ratings_pending')}</p>` : null}
            ${p.rated && changes ? html`<p class="hint won-explained">${t('ratings.won_explained')}</p>` : null}
            ${p.finished && p.me !== null ? html`<${MatchAccuracyView} id=${p.tableId} seat=${p.me} token=${p.token ?? null} />` : null}
          </div>`
        : null}
      <${Scoring} game=${p.game} view=${p.view} names=${p.names} stake=${p.stake} />
      ${over
        ? null
        : html`<h4>${t('side.score')}</h4>
            <${MatchScore} game=${p.game} match=${p.match} names=${p.names} stake=${p.stake} tips=${tips} />`}
    </div>
  </div>`;
}

/**
 * Who is ready for the next hand: every seated person (connected or not) and whoever the server
 * counts as ready.
 * @param {{seats: SeatInfo[], names: string[], ready: number[], pressed: boolean, seated: boolean}} p
 */
export function ReadyList(p) {
  const { people, waiting } = readiness(p.seats, p.ready);
  return html`<div class="ready-list" title=${t('end.ready_hint')}>
    <span class="ready-who">${t('end.ready_who')}</span>
    ${people.map(
      (x) => html`<span key=${x.seat} class=${`chip ${x.ready ? 'ready' : x.present ? 'not-ready' : 'gone'}`} data-seat=${x.seat} data-ready=${x.ready ? '1' : '0'}>
        ${p.names[x.seat]} ${x.ready ? `✓ ${t('seat.ready')}` : x.present ? '…' : `· ${t('seat.disconnected')}`}</span>`,
    )}
    ${p.pressed && p.seated && waiting ? html`<span class="hint">${t('end.waiting_others')}</span>` : null}
  </div>`;
}

/**
 * The running match score (at the end of the match, the final score). `tips`: each seat's
 * tooltip (a bot's internal name); `ratings`: at the end of a rated match, each person's rating
 * change, shown in the row of his score (a column of its own).
 * @param {{game: 'madiao' | 'dabaifen', match: MadiaoMatch | DabaifenMatch | null, names: string[], stake: number,
 *   tips?: (string | undefined)[], ratings?: RatingChange[] | null}} p
 */
export function MatchScore(p) {
  const m = p.match;
  if (!m) return html`<p class="hint">${t('score.none')}</p>`;
  const ratings = p.ratings ?? null;
  /** @param {number} s */
  const ratingOf = (s) => (ratings ? ratings.find((c) => c.seat === s) ?? null : null);
  if ('totals' in m) {
    return html`<table class="match-score" data-ratings=${ratings ? ratings.length : null}>
      <thead><tr><th>${t('score.player')}</th><th>${t('end.stakes')}</th><th>${t('end.chips')}</th><th>${t('score.banked')}</th>${ratings ? html`<th>${t('end.rating_col')}</th>` : null}</tr></thead>
      <tbody>${p.names.map((n, s) => {
        const c = ratingOf(s);
        return html`<tr key=${s} data-seat=${s} class=${m.next_banker === s && !m.over ? 'next' : ''}>
          <td class="who" title=${p.tips ? p.tips[s] : undefined} data-bot=${(p.tips && p.tips[s]) ?? null}>${n}${m.next_banker === s && !m.over ? html` <span class="badge role">${t('score.next_banker')}</span>` : null}</td>
          <td class=${m.totals[s] > 0 ? 'plus' : m.totals[s] < 0 ? 'minus' : ''}>${signed(m.totals[s])}</td>
          <td class="chips">${signed(m.chips ? m.chips[s] : m.totals[s] * p.stake)}</td>
          <td>${m.banked[s] ? '✓' : ''}</td>
          ${ratings ? html`<td class="rating">${c ? html`<${RatingCell} change=${c} />` : null}</td>` : null}
        </tr>`;
      })}</tbody>
      <caption>${t('score.hands', { n: m.hands })}${m.over ? ` · ${t('score.over')}` : ''}${m.stakes && m.stakes.length
        ? html`<br /><span class="stakes">${t('score.stakes', { list: m.stakes.join(', ') })}</span>` : null}</caption>
    </table>`;
  }
  const l = lang();
  return html`<table class="match-score" data-ratings=${ratings ? ratings.length : null}>
    <thead><tr><th>${t('score.team')}</th><th>${t('score.rank')}</th><th>${t('score.deals_won')}</th>${ratings ? html`<th>${t('end.rating_col')}</th>` : null}</tr></thead>
    <tbody>${[0, 1].map((team) => {
      const cs = [team, team + 2].map(ratingOf).filter((c) => c !== null);
      return html`<tr key=${team} data-team=${team} class=${m.winner === team ? 'winner' : ''}>
        <td class="who">${teamText(team, p.names, l)}</td><td class="rank">${rankText(m.ranks[team])}</td><td>${m.deals_won[team]}</td>
        ${ratings ? html`<td class="rating">${cs.map((c) => html`<${RatingCell} key=${c.seat} change=${c} who=${p.names[c.seat]} />`)}</td>` : null}
      </tr>`;
    })}</tbody>
    <caption>${t('score.hands', { n: m.hands })} · ${m.over && m.winner !== null ? t('score.winner', { team: teamText(m.winner, p.names, l) }) : t('score.next_starter', { name: p.names[m.next_starter] })}</caption>
  </table>`;
}

/** @typedef {import('./wire').MadiaoResult} MadiaoResult */
/** @typedef {import('./wire').DabaifenResult} DabaifenResult */
/** @typedef {import('./wire').DealResult} DealResult */

/**
 * The scoring of a hand already over, opened again from the events or the match score: its
 * final view when the page saw the hand end, else its result alone.
 * @param {{game: 'madiao' | 'dabaifen', hand: number, view: MadiaoView | DabaifenView | null, result: MadiaoResult | DabaifenResult | DealResult | null,
 *   names: string[], stake: number, onClose: () => void}} p
 */
export function PastHand(p) {
  return html`<div class="dialog-back" onClick=${(/** @type {Event} */ e) => { if (e.target === e.currentTarget) p.onClose(); }}>
    <div class="dialog past-hand" role="dialog" aria-label=${t('end.hand_title', { n: p.hand + 1 })} data-hand=${p.hand}>
      <button class="close" onClick=${p.onClose} aria-label=${t('common.close')}>×</button>
      <h3>${t('end.hand_title', { n: p.hand + 1 })}</h3>
      ${p.view
        ? html`<${Scoring} game=${p.game} view=${p.view} names=${p.names} stake=${p.stake} />`
        : html`${p.result ? html`<p class="result-text">${handResultLine(p.game, p.hand, p.result, p.names, lang())}</p>` : null}
            <p class="hint">${t('end.not_kept')}</p>`}
    </div>
  </div>`;
}

/**
 * Every hand of the match so far, each with its scoring to open again.
 * @param {{game: 'madiao' | 'dabaifen', results: Array<MadiaoResult | DabaifenResult | DealResult>, names: string[], onShow: (hand: number) => void}} p
 */
export function HandList(p) {
  if (!p.results.length) return null;
  const l = lang();
  return html`<div class="hand-list">
    <h4>${t('score.hands_list')}</h4>
    <ol>${p.results.map((r, i) =>
      r
        ? html`<li key=${i} data-hand=${i}>${handResultLine(p.game, i, r, p.names, l)}
            <button class="link" data-action="show-hand" onClick=${() => p.onShow(i)}>${t('end.show')}</button></li>`
        : null,
    )}</ol>
  </div>`;
}
