// A player's accuracy over a finished match (docs/analysis.md, "Accuracy"): the server pools the
// searched moves of the hands analysed so far for the seat (`GET /api/games/{id}/accuracy`).
// Shown in My games and at the end of a match; *Analyse my play* asks for the analyses of the
// hands not analysed yet, one at a time (each as the analysis page asks for one), then shows the
// accuracy over them all.

import { html, useEffect, useState } from '../vendor/preact-htm.js';
import * as api from './api.js';
import { errorText, t } from './i18n.js';

/** @typedef {import('./wire').MatchAccuracy} MatchAccuracy */

/** A request's failure in words. @param {unknown} e */
const failure = (e) => (e instanceof api.ApiError ? errorText(e.code, e.message) : String(e));

/** @param {number} ms */
const pause = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Asks for hand `hand`'s analysis for `seat` and follows it until it is done (waiting when the
 * server says to try later). Resolves when done; rejects when it failed or the server refused.
 * @param {string} id @param {number} hand @param {number} seat @param {string} token @param {() => boolean} live
 */
async function analyseHand(id, hand, seat, token, live) {
  for (let tries = 0; live(); tries++) {
    try {
      let r = await api.askAnalysis(id, hand, seat, token);
      while (live() && (r.status === 'queued' || r.status === 'running')) {
        await pause(500);
        r = await api.analysis(id, hand, seat, token);
      }
      if (r.status === 'failed') throw new Error(r.error ?? 'failed');
      return;
    } catch (e) {
      // The allowance of analyses a minute, or the queue full: wait and ask again (a few times).
      if (e instanceof api.ApiError && (e.status === 429 || e.code === 'busy') && tries < 8) await pause(10000);
      else throw e;
    }
  }
}

/**
 * The accuracy of a seat over a finished match, and (with a token) *Analyse my play* while some
 * of its hands are not analysed.
 * @param {{id: string, seat: number, token: string | null, initial?: MatchAccuracy | null}} p
 */
export function MatchAccuracyView(p) {
  const [acc, setAcc] = useState(/** @type {MatchAccuracy | null} */ (p.initial ?? null));
  const [busy, setBusy] = useState(/** @type {{k: number, n: number} | null} */ (null));
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const [live] = useState(() => ({ on: true }));
  useEffect(() => {
    live.on = true;
    if (!p.initial) api.matchAccuracy(p.id, p.seat, p.token).then((a) => live.on && setAcc(a), (e) => live.on && setError(failure(e)));
    return () => {
      live.on = false;
    };
  }, [p.id, p.seat]);
  if (!acc) return error ? html`<p class="match-accuracy error-box" role="alert">${error}</p>` : null;
  const total = acc.hands.length;
  const missing = acc.hands.filter((h) => !h.analysed).map((h) => h.hand);
  const analyse = async () => {
    const token = p.token;
    if (!token) return;
    setError(null);
    try {
      for (let k = 0; k < missing.length && live.on; k++) {
        setBusy({ k: k + 1, n: missing.length });
        await analyseHand(p.id, missing[k], p.seat, token, () => live.on);
      }
    } catch (e) {
      if (live.on) setError(failure(e));
    }
    if (!live.on) return;
    setBusy(null);
    api.matchAccuracy(p.id, p.seat, p.token).then((a) => live.on && setAcc(a), (e) => live.on && setError(failure(e)));
  };
  const line =
    acc.accuracy != null
      ? html`<b>${t('accuracy.match', { acc: acc.accuracy.toFixed(1) })}</b>
          <span class="hint"> ${missing.length ? t('accuracy.some', { k: acc.analysed, n: total }) : t('accuracy.all', { n: total, moves: acc.moves })}</span>`
      : acc.analysed && !missing.length
        ? t('accuracy.none')
        : t('accuracy.not_yet');
  return html`<div class="match-accuracy" data-accuracy=${acc.accuracy ?? ''} data-analysed=${acc.analysed} data-hands=${total}>
    <span class="match-accuracy-line">${line}</span>
    ${missing.length && p.token
      ? busy
        ? html`<span class="hint analysing" role="status">${t('accuracy.analysing', { k: busy.k, n: busy.n })}</span>`
        : html`<button data-action="analyse-match" onClick=${analyse}>${t('accuracy.analyse')}</button>`
      : null}
    ${error ? html`<span class="error-box" role="alert">${error}</span>` : null}
  </div>`;
}
