// The host's table management at the table page (docs/protocol.md, "Table management"): closing
// the table (with a confirmation), removing a person who is away, offering a rematch at the end;
// and what everyone at the table sees of it (the table closed, the offer of the new table).

import { html, useState } from '../vendor/preact-htm.js';
import * as api from './api.js';
import { t } from './i18n.js';
import { errorText, notify } from './ui.js';

/** @typedef {import('./wire').SeatInfo} SeatInfo */
/** @typedef {import('./wire').TableSummary} TableSummary */
/** @typedef {import('./wire').HostEvent} HostEvent */
/** @typedef {import('./wire').ClientMsg} ClientMsg */

/** True when the table's life is over (its match finished, or its host closed it). @param {TableSummary['status']} status */
export function tableOver(status) {
  return status === 'finished' || status === 'closed';
}

/**
 * A person's seat the host may free: the person is away (his clock ran out) or not connected.
 * @param {SeatInfo} seat @param {number | null} me
 */
export function removable(seat, me) {
  return seat.kind === 'person' && seat.seat !== me && (seat.away || !seat.present);
}

/** The words for a host event, for the notice everyone gets. @param {HostEvent} e */
export function hostEventText(e) {
  switch (e.kind) {
    case 'closed':
      return e.kept ? t('host.ended', { by: e.by, n: e.hands }) : t('host.closed', { by: e.by });
    case 'removed':
      return t('host.removed', { name: e.name });
    case 'rematch':
      return t('host.rematch_offer');
    default:
      return '';
  }
}

/**
 * The host's buttons: close (while the match is not over), rematch (once it is finished and none
 * was offered), remove on each away person's seat.
 * With finished hands (`hands`), the host may also end the match and keep them as a record.
 * A private table's finished game is shown to strangers only with its share link: the host gets
 * it here (copied, and shown to be copied by hand).
 * @param {{table: TableSummary, me: number | null, rematch: string | null, send: (m: ClientMsg) => void, hands?: number, token?: string | null}} p
 */
export function HostControls(p) {
  const status = p.table.status;
  const [link, setLink] = useState(/** @type {string | null} */ (null));
  const share = () => {
    if (!p.token) return;
    api.shareLink(p.table.id, p.token).then(
      (r) => {
        const url = `${location.origin}${r.replay}`;
        setLink(url);
        navigator.clipboard?.writeText(url).then(
          () => notify('info', t('host.share_copied')),
          () => {},
        );
      },
      (e) => notify('error', e instanceof api.ApiError ? errorText(e.code, e.message) : String(e)),
    );
  };
  const away = tableOver(status) ? [] : p.table.seats.filter((s) => removable(s, p.me));
  return html`<div class="host-controls" data-host="1">
    ${!tableOver(status)
      ? html`<button class="danger" data-action="close-table"
          onClick=${() => { if (confirm(t('host.close_confirm'))) p.send({ type: 'close' }); }}>${t('host.close')}</button>`
      : null}
    ${!tableOver(status) && (p.hands ?? 0) > 0
      ? html`<button data-action="end-keep" title=${t('host.end_keep_title', { n: p.hands ?? 0 })}
          onClick=${() => { if (confirm(t('host.end_keep_confirm', { n: p.hands ?? 0 }))) p.send({ type: 'close', keep: true }); }}>${t('host.end_keep')}</button>`
      : null}
    ${away.map(
      (s) => html`<button key=${s.seat} data-action="remove" data-seat=${s.seat} title=${t('host.remove_title', { name: s.name ?? '?' })}
        onClick=${() => { if (confirm(t('host.remove_confirm', { name: s.name ?? '?', n: s.seat + 1 }))) p.send({ type: 'remove', seat: s.seat }); }}>
        ${t('host.remove')} ${s.name ?? ''}</button>`,
    )}
    ${status === 'finished' && !p.rematch
      ? html`<button class="primary" data-action="rematch" onClick=${() => p.send({ type: 'rematch' })}>${t('host.rematch')}</button>`
      : null}
    ${status === 'finished' && p.table.private && p.token
      ? html`<button data-action="share-link" title=${t('host.share_title')} onClick=${share}>${t('host.share')}</button>`
      : null}
    ${link
      ? html`<input class="share-link" data-share-link="1" readonly value=${link} aria-label=${t('host.share')}
          onFocus=${(/** @type {Event} */ e) => /** @type {HTMLInputElement} */ (e.target).select()} />`
      : null}
  </div>`;
}

/**
 * What everyone at the table sees of the host's management: the table closed, or the offer of
 * the rematch's table with a button to go there.
 * @param {{table: TableSummary, rematch: string | null, closedBy: string | null, navigate: (p: string) => void}} p
 */
export function HostBanner(p) {
  if (p.rematch) {
    return html`<div class="banner rematch" data-rematch=${p.rematch}>${t('host.rematch_offer')}
      <button class="primary" data-action="go-rematch" onClick=${() => p.navigate(`/t/${p.rematch}`)}>${t('host.go_rematch')}</button></div>`;
  }
  if (p.table.status === 'finished' && p.closedBy) {
    return html`<div class="banner closed" data-ended="1">${t('host.ended', { by: p.closedBy, n: p.table.hands })}</div>`;
  }
  if (p.table.status === 'closed') {
    return html`<div class="banner closed" data-closed="1">
      ${p.closedBy ? t('host.closed', { by: p.closedBy }) : t('table.closed')} ${t('host.closed_hint')}
      <a href="/" data-link="1" onClick=${(/** @type {Event} */ e) => { e.preventDefault(); p.navigate('/'); }}>${t('nav.lobby')}</a></div>`;
  }
  return null;
}
