// Replays: a finished game (from its record on the server, or found in the public archive's list
// below the file chooser) or a local `yezi/1` file, replayed
// by the server's engines into steps; every hand shown, step by step, forward and back. The
// server answers with the replay's outline; each hand's steps are fetched when it is shown.

import { html, useEffect, useRef, useState } from '../vendor/preact-htm.js';
import * as api from './api.js';
import { ArchiveList } from './archive.js';
import { Board } from './board.js';
import { Scoring } from './hand_end.js';
import { botTip, dealDetail, lang, playerNames, t } from './i18n.js';
import { dabaifenResultText, eventText, madiaoResultText } from './scoring.js';
import { Card, errorText, useKeydown } from './ui.js';

/** @typedef {import('./wire').ReplayOutline} ReplayOutline */
/** @typedef {import('./wire').ReplayHand} ReplayHand */
/** @typedef {import('./storage.js').Identity} Identity */
/** @typedef {import('./wire').ReplayStep} ReplayStep */
/** @typedef {import('./wire').TableEvent} TableEvent */

/**
 * The words for a replay step's event.
 * @param {'madiao' | 'dabaifen'} game @param {ReplayStep} step @param {string[]} names @param {'en' | 'zh'} l
 */
export function stepText(game, step, names, l) {
  const e = step.event;
  if (e.kind === 'deal') return t('replay.deal');
  if (e.kind === 'draw_end') return t('replay.draw_end');
  if (e.kind === 'end') return t('replay.end');
  const { seat, ...action } = /** @type {Record<string, unknown> & {seat: number}} */ (e.action);
  delete action.drawn;
  /** @type {TableEvent} */
  const ev = { kind: 'action', seat, action: /** @type {any} */ (action), by_bot: false };
  return eventText(game, ev, names, l);
}

/**
 * What a replay or an analysis is of, as its title says it: the table's name, its players and its
 * date (a record file has no table: "A record file" and its players). The outline gives the
 * players; the table's summary, its name and date.
 * @param {{id: string | null, outline: ReplayOutline | null}} p
 */
export function RecordTitle(p) {
  const [table, setTable] = useState(/** @type {{name: string | null, created_ms: number} | null} */ (null));
  useEffect(() => {
    setTable(null);
    if (!p.id) return;
    let live = true;
    api.table(p.id).then(
      (tb) => { if (live) setTable({ name: 'name' in tb ? tb.name : null, created_ms: tb.created_ms }); },
      // A table no longer known (a record from elsewhere): titled as untitled, by its players.
      () => { if (live) setTable({ name: null, created_ms: Number.NaN }); },
    );
    return () => { live = false; };
  }, [p.id]);
  const players = p.outline && p.outline.players
    ? playerNames(p.outline.players).join(t('common.list_sep'))
    : '';
  // Until the table's summary is in, no title at all: a title without its name would be read as
  // the whole title.
  if (p.id && !table) return null;
  const name = table && table.name ? table.name : t('replay.untitled');
  const date = table && Number.isFinite(table.created_ms)
    ? new Date(table.created_ms).toLocaleDateString(lang() === 'zh' ? 'zh-CN' : 'en')
    : '';
  const parts = [name, players, date].filter((x) => x);
  return parts.length ? html`<span class="sub record-title" data-id=${p.id ?? ''}>${parts.join(' · ')}</span>` : null;
}

/** How many hands the page keeps loaded at most (the one shown and those nearest to it). */
const KEEP = 5;

/**
 * A replay: its outline (one line per hand) first, then each hand's steps fetched when it is shown
 * (and the next one ahead of time), so that a long match is never loaded whole.
 * @param {{id: string | null, identity: Identity | null, navigate: (p: string) => void}} p
 */
export function ReplayPage(p) {
  const [outline, setOutline] = useState(/** @type {ReplayOutline | null} */ (null));
  const [loaded, setLoaded] = useState(/** @type {Map<number, ReplayHand>} */ (new Map()));
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const [fileText, setFileText] = useState(/** @type {string | null} */ (null));
  const [pos, setPos] = useState({ hand: 0, step: 0 });
  const [playing, setPlaying] = useState(false);
  /** The hands being fetched, of the outline shown. */
  const pending = useRef(/** @type {Set<number>} */ (new Set()));
  const shown = useRef({ outline: /** @type {ReplayOutline | null} */ (null), hand: 0 });
  shown.current = { outline, hand: pos.hand };

  /** @param {unknown} e */
  const fail = (e) => setError(e instanceof api.ApiError ? errorText(e.code, e.message) : String(e));

  /** @param {ReplayOutline | null} o */
  const show = (o) => {
    pending.current = new Set();
    setLoaded(new Map());
    setOutline(o);
    setPos({ hand: 0, step: 0 });
  };

  useEffect(() => {
    show(null);
    setError(null);
    if (!p.id) return;
    api.replayOf(p.id, p.identity?.token ?? null).then(show, fail);
  }, [p.id]);

  // The hand shown is fetched when it is needed, and the next one ahead of time.
  useEffect(() => {
    if (!outline) return;
    const asked = pending.current;
    for (const k of [pos.hand, pos.hand + 1]) {
      if (k >= outline.hands.length || loaded.has(k) || asked.has(k)) continue;
      asked.add(k);
      api.replayHand(outline.id, k, p.identity?.token ?? null).then(
        (h) => {
          asked.delete(k);
          if (shown.current.outline === outline) setLoaded((m) => keepNear(m, k, h, shown.current.hand));
        },
        (e) => {
          asked.delete(k);
          if (shown.current.outline === outline && shown.current.hand === k) fail(e);
        },
      );
    }
  }, [outline, pos.hand, loaded]);

  const hands = outline ? outline.hands : [];
  const hand = loaded.get(pos.hand) ?? null;
  const count = hands[pos.hand] ? hands[pos.hand].steps : 0;
  /** @param {number} h @param {number} s */
  const go = (h, s) => {
    if (!outline || outline.hands.length === 0) return;
    const hh = Math.max(0, Math.min(outline.hands.length - 1, h));
    const n = outline.hands[hh].steps;
    setPos({ hand: hh, step: Math.max(0, Math.min(n - 1, s)) });
  };
  const next = () => {
    if (pos.step + 1 < count) go(pos.hand, pos.step + 1);
    else if (pos.hand + 1 < hands.length) go(pos.hand + 1, 0);
    else setPlaying(false);
  };
  const prev = () => {
    if (pos.step > 0) go(pos.hand, pos.step - 1);
    else if (pos.hand > 0) go(pos.hand - 1, hands[pos.hand - 1].steps - 1);
  };

  useEffect(() => {
    // Playing waits for a hand still on its way.
    if (!playing || !hand) return;
    const h = setTimeout(next, 900);
    return () => clearTimeout(h);
  });

  useKeydown((e) => {
    const el = /** @type {HTMLElement | null} */ (e.target);
    if (el && (el.tagName === 'INPUT' || el.tagName === 'SELECT' || el.tagName === 'TEXTAREA')) return;
    if (e.key === 'ArrowRight') next();
    else if (e.key === 'ArrowLeft') prev();
    else if (e.key === 'ArrowDown' || e.key === 'PageDown') go(pos.hand + 1, 0);
    else if (e.key === 'ArrowUp' || e.key === 'PageUp') go(pos.hand - 1, 0);
    else if (e.key === 'Home') go(pos.hand, 0);
    else if (e.key === 'End') go(pos.hand, count - 1);
    else if (e.key === ' ') setPlaying((x) => !x);
    else return;
    e.preventDefault();
  });

  /** @param {Event} e */
  const openFile = async (e) => {
    const input = /** @type {HTMLInputElement} */ (e.target);
    const file = input.files && input.files[0];
    if (!file) return;
    setError(null);
    if (!p.identity) {
      setError(t('replay.name_for_file'));
      return;
    }
    try {
      const text = await file.text();
      const r = await api.replayRecord(text, p.identity.token);
      setFileText(text);
      show(r);
    } catch (err) {
      fail(err);
    }
  };

  const l = lang();
  const download = p.id ? api.recordUrl(p.id) : fileText ? `data:application/json;charset=utf-8,${encodeURIComponent(fileText)}` : null;
  return html`<div class="page replay-page" data-hand=${pos.hand} data-step=${pos.step} data-loaded=${[...loaded.keys()].join(' ')}>
    <div class="replay-head">
      <h2>${t('replay.title')}${outline ? html` <${RecordTitle} id=${p.id ?? null} outline=${outline} />` : null}</h2>
      ${!p.id
        ? // The browser's own file button speaks the browser's language, not the page's: it is
          // hidden, and the label, in the page's words, opens the chooser.
          html`<label class="file button" style="position:relative">${t('replay.file')}
            <input type="file" accept=".json,application/json" onChange=${openFile}
              style="position:absolute;width:1px;height:1px;opacity:0;overflow:hidden" /></label>`
        : null}
      ${p.id && outline && hand && hand.result
        ? html`<a class="button" data-link="1" data-action="analyse" href=${api.keepShare(`/analysis/${p.id}?hand=${pos.hand}&seat=0`)}>${t('analysis.open')}</a>`
        : null}
      ${download && outline ? html`<a class="button" href=${download} download=${`yezi-${p.id ?? 'record'}.json`}>${t('replay.download')}</a>` : null}
    </div>
    ${outline && outline.deals ? html`<${DealsChecked} deals=${outline.deals} />` : null}
    ${error ? html`<p class="error-box" role="alert">${error}</p>` : null}
    ${(!outline || !hand) && !error && (p.id || outline) ? html`<p>${t('common.loading')}</p>` : null}
    ${!outline && !p.id && !error ? html`<p class="hint">${t('replay.file_hint')}</p>` : null}
    ${!outline && !p.id ? html`<${ArchiveList} navigate=${p.navigate} />` : null}
    ${outline && hand ? renderReplay() : null}
  </div>`;

  function renderReplay() {
    if (!outline || !hand) return null;
    const game = outline.game;
    const steps = hand.steps;
    const names = outline.players
      ? playerNames(outline.players)
      : [0, 1, 2, 3].map((s) => t('seat.n', { n: s + 1 }));
    const step = steps[Math.min(pos.step, steps.length - 1)];
    const view = /** @type {any} */ (step.view);
    const result = /** @type {any} */ (hand.result);
    return html`<div class="replay-body">
      <div class="replay-controls">
        <label>${t('replay.hand')}
          <select value=${String(pos.hand)} onChange=${(/** @type {Event} */ e) => go(Number(/** @type {HTMLSelectElement} */ (e.target).value), 0)}>
            ${hands.map((h, i) => html`<option key=${i} value=${String(i)}>${t('table.hand_n', { n: i + 1 })}${h.result ? ` — ${shortResult(game, h.result, names)}` : ''}</option>`)}
          </select></label>
        <div class="step-buttons">
          <button onClick=${() => go(pos.hand, 0)} aria-label=${t('replay.first')}>«</button>
          <button onClick=${prev} data-action="prev" aria-label=${t('replay.prev')}>‹</button>
          <button onClick=${() => setPlaying(!playing)} aria-label=${t('replay.play')}>${playing ? t('replay.pause') : t('replay.play')}</button>
          <button onClick=${next} data-action="next-step" aria-label=${t('replay.next')}>›</button>
          <button onClick=${() => go(pos.hand, steps.length - 1)} data-action="last-step" aria-label=${t('replay.last')}>»</button>
        </div>
        <input type="range" min="0" max=${String(steps.length - 1)} value=${String(pos.step)} aria-label=${t('replay.step')}
          onInput=${(/** @type {Event} */ e) => go(pos.hand, Number(/** @type {HTMLInputElement} */ (e.target).value))} />
        <span class="step-n">${t('replay.step_n', { n: pos.step + 1, of: steps.length })}</span>
      </div>
      <p class="step-event" role="status">${stepText(game, step, names, l)}</p>
      <${Board} game=${game} view=${view} names=${names} tips=${(outline.players ?? []).map(botTip)} bottom=${0} hands=${step.hands} />
      <div class="undealt">${game === 'madiao' ? t('replay.stock') : t('replay.kitty')}
        ${hand.undealt.map((c) => html`<${Card} key=${c} game=${game} code=${c} trump=${view.trump ?? null} size="tiny" />`)}</div>
      ${view.phase === 'over' ? html`<div class="replay-scoring"><${Scoring} game=${game} view=${view} names=${names} stake=${view.stake ?? 2} /></div>` : null}
      ${view.phase === 'over' && result ? null : null}
    </div>`;
  }
}

/**
 * The verification of the record's deals (docs/record.md, "Deal verification"): every deck
 * rebuilt from its revealed seed and checked against the commitment sent before the deal, as the
 * server did it; "every deal verified", or each hand that fails and why (hands numbered from 1,
 * as the hand list numbers them).
 * @param {{deals: import('./wire').DealsChecked}} p
 */
export function DealsChecked(p) {
  const { deals } = p;
  if (deals.problems.length === 0) {
    return html`<p class="deals-check ok" data-deals="verified">✓ ${t('replay.deals_verified', { n: deals.hands })}</p>`;
  }
  const failing = [...new Set(deals.problems.map((q) => q.hand + 1))];
  return html`<div class="deals-check bad" data-deals="failed" data-hands=${failing.join(' ')} role="alert">
    <p>✗ ${t('replay.deals_failed', { hands: failing.join(t('common.list_sep')) })}</p>
    <ul>${deals.problems.map((q, i) => html`<li key=${i} data-hand=${q.hand} data-fault=${q.fault}>${t(`replay.deal_fault_${q.fault}`, { n: q.hand + 1 })}
      <small class="detail">${dealDetail(q)}</small></li>`)}</ul>
  </div>`;
}

/**
 * `loaded` with hand `k` added, keeping the `KEEP` hands nearest to the one shown.
 * @param {Map<number, ReplayHand>} loaded @param {number} k @param {ReplayHand} h @param {number} at
 */
function keepNear(loaded, k, h, at) {
  const m = new Map(loaded);
  m.set(k, h);
  while (m.size > KEEP) {
    let far = k;
    for (const x of m.keys()) if (Math.abs(x - at) > Math.abs(far - at)) far = x;
    m.delete(far);
  }
  return m;
}

/** @param {'madiao' | 'dabaifen'} game @param {any} r @param {string[]} names */
function shortResult(game, r, names) {
  const text = game === 'madiao' ? madiaoResultText(r, names, lang()) : dabaifenResultText(r, names, lang());
  return text.split(/[.。]/)[0];
}
