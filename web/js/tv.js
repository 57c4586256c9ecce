// The TV (`/tv`, `/tv/{id}`; docs/web.md, "Live tables"): the highest-rated live table, or the
// live table named, watched through its delayed stream (docs/protocol.md, "Live tables (TV)"),
// with the other live tables to switch to.

import { html, useEffect, useState } from '../vendor/preact-htm.js';
import { call } from './api.js';
import { t } from './i18n.js';
import { TablePage } from './table.js';
import { errorText } from './ui.js';

/** @typedef {import('./wire').TvReply} TvReply */
/** @typedef {import('./wire').TvTable} TvTable */
/** @typedef {import('./storage.js').Identity} Identity */

/** How often the list of live tables is asked again (ms). */
const REFRESH_MS = 20000;

/** @returns {Promise<TvReply>} */
function liveTables() {
  return call('GET', '/api/tv');
}

/** A table's rating as shown. @param {TvTable} e */
function ratingText(e) {
  return e.rating === null ? t('tv.unrated') : String(Math.round(e.rating));
}

/**
 * @param {{id: string | null, identity: Identity, navigate: (path: string) => void, onBadToken: (code: string) => void}} props
 */
export function TvPage(props) {
  const [reply, setReply] = useState(/** @type {TvReply | null} */ (null));
  const [error, setError] = useState(/** @type {string | null} */ (null));
  // Without an id, the TV follows the highest-rated live table: the one it shows until it ends.
  const [auto, setAuto] = useState(/** @type {string | null} */ (null));

  useEffect(() => {
    let gone = false;
    const load = () =>
      liveTables().then(
        (r) => {
          if (gone) return;
          setReply(r);
          setError(null);
          setAuto((cur) => (cur && r.tables.some((e) => e.table.id === cur) ? cur : (r.tables[0]?.table.id ?? null)));
        },
        (e) => { if (!gone) setError(errorText(e.code, e.message)); },
      );
    load();
    const timer = setInterval(load, REFRESH_MS);
    return () => { gone = true; clearInterval(timer); };
  }, []);

  const shown = props.id ?? auto;
  const delay = reply?.delay_tricks ?? 1;
  const list = reply?.tables ?? [];
  return html`<div class="page tv" data-tv=${shown ?? ''}>
    <div class="tv-head">
      <h2>${t('tv.title')}</h2>
      <p class="sub hint" data-delay=${delay}>${delay > 0 ? t('tv.delayed', { n: delay }) : t('tv.live')}</p>
      ${error ? html`<p class="error">${error}</p>` : null}
      ${list.length
        ? html`<ul class="tv-list">
            ${list.map((e) => html`<li key=${e.table.id} class=${e.table.id === shown ? 'on' : ''}>
              <a href=${`/tv/${e.table.id}`} data-link="1" data-tv-table=${e.table.id}
                onClick=${(/** @type {Event} */ ev) => { ev.preventDefault(); props.navigate(`/tv/${e.table.id}`); }}>
                <b>${e.table.name}</b> · ${t(`game.${e.table.game}`)} · <span class="tv-rating">${ratingText(e)}</span>
                ${e.table.rated ? html` · ${t('tv.rated')}` : null}</a></li>`)}
          </ul>`
        : reply
          ? html`<p class="tv-none">${t('tv.none')}</p>`
          : null}
    </div>
    ${shown
      ? html`<${TablePage} key=${`tv-${shown}`} id=${shown} identity=${props.identity} watch=${true} tv=${delay} seat=${null}
          navigate=${props.navigate} onBadToken=${props.onBadToken} />`
      : null}
  </div>`;
}
