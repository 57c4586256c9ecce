// "Play now" (docs/tournaments.md, "Quick pairing"): the lobby's box that puts the player in a
// game's queue, shows how many wait and the countdown to the bots, and takes him to his table
// once the server seats him. The pairing is the server's; the page only asks, once a second.

import { html, useEffect, useRef, useState } from '../vendor/preact-htm.js';
import * as api from './api.js';
import { t } from './i18n.js';
import { errorText, notify } from './ui.js';

/** @typedef {import('./wire').PlayNowStatus} PlayNowStatus */
/** @typedef {import('./storage.js').Identity} Identity */

/** The waits the player may choose before bots fill his table, in seconds. */
const WAITS = [10, 30, 60, 120];

/** How often the page asks while waiting, in milliseconds (the server drops a player not heard from in 20 s). */
const POLL_MS = 1000;

/** @param {{identity: Identity, navigate: (p: string) => void}} p */
export function PlayNow(p) {
  const [game, setGame] = useState(/** @type {'madiao' | 'dabaifen'} */ ('madiao'));
  const [wait, setWait] = useState(30);
  const [status, setStatus] = useState(/** @type {PlayNowStatus | null} */ (null));
  // The server's clock minus ours, for the countdown.
  const skew = useRef(0);
  const [, setTick] = useState(0);

  /** @param {PlayNowStatus} s */
  const adopt = (s) => {
    skew.current = s.now_ms - Date.now();
    setStatus(s);
    if (s.state === 'seated' && s.table) p.navigate(`/t/${s.table}`);
  };
  /** @param {unknown} e */
  const show = (e) => notify('error', e instanceof api.ApiError ? errorText(e.code, e.message) : String(e));

  const waiting = status?.state === 'waiting';
  useEffect(() => {
    if (!waiting) return undefined;
    let stop = false;
    const timer = setInterval(() => {
      setTick((n) => n + 1);
      api.playNowStatus(p.identity.token, game).then((s) => { if (!stop) adopt(s); }).catch((e) => { if (!stop) show(e); });
    }, POLL_MS);
    return () => { stop = true; clearInterval(timer); };
  }, [waiting, game]);

  const join = async () => {
    try {
      adopt(await api.playNowJoin(p.identity.token, game, wait));
    } catch (e) {
      show(e);
    }
  };
  const cancel = async () => {
    try {
      setStatus(await api.playNowLeave(p.identity.token, game));
    } catch (e) {
      show(e);
    }
  };

  const left = waiting && status?.bots_ms != null ? Math.max(0, Math.ceil((status.bots_ms - (Date.now() + skew.current)) / 1000)) : null;
  return html`<section class="card-box play-now" data-state=${status?.state ?? 'idle'}>
    <h2>${t('play.title')}</h2>
    ${waiting && status
      ? html`<div class="play-wait" role="status">
          <p>${t('play.waiting', { game: t(`game.${status.game}`) })}</p>
          <p class="play-count" data-waiting=${status.waiting}>${t('play.in_queue', { n: status.waiting })} · ${t('play.rating', { rating: Math.round(status.rating) })}</p>
          <p class="play-countdown" data-left=${left}>${left !== null && left > 0 ? t('play.bots_in', { n: left }) : t('play.bots_now')}</p>
          <button type="button" data-action="play-cancel" onClick=${cancel}>${t('play.cancel')}</button>
        </div>`
      : html`<div class="play-form">
          <p class="hint">${t('play.intro')}</p>
          <div class="play-games" role="radiogroup" aria-label=${t('play.game')}>
            ${/** @type {const} */ (['madiao', 'dabaifen']).map((g) => html`<button key=${g} type="button" role="radio" aria-checked=${game === g ? 'true' : 'false'}
                class=${game === g ? 'on' : ''} data-game=${g} onClick=${() => setGame(g)}>${t(`game.${g}`)}</button>`)}
          </div>
          <label>${t('play.wait')}
            <select name="play-wait" value=${String(wait)} onChange=${(/** @type {Event} */ e) => setWait(Number(/** @type {HTMLSelectElement} */ (e.target).value))}>
              ${WAITS.map((w) => html`<option key=${w} value=${String(w)}>${t('play.seconds', { n: w })}</option>`)}
            </select>
          </label>
          <button type="button" class="primary" data-action="play-now" onClick=${join}>${t('play.go')}</button>
        </div>`}
  </section>`;
}
