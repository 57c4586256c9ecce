// The notice that it is your turn: the tab's title says so while it is (always), and a short
// chime and a buzz on phones mark the moment the turn arrives (only then, and never when muted).
// The mute switch is kept in local storage. With the player's permission (the bell switch), a
// desktop notification too when the turn arrives while the tab is hidden.
import { html, useEffect, useRef, useState } from '../vendor/preact-htm.js';
import { t } from './i18n.js';

const KEY_MUTE = 'yezi.mute';
const KEY_NOTIFY = 'yezi.notify';

/** The page's own title in the page's language (the title the tab goes back to). */
const baseTitle = () => t('page.title');

/**
 * Whether the turn has just arrived: it is yours now and was not at the update before.
 * @param {boolean} before @param {boolean} now
 */
export function turnArrived(before, now) {
  return now && !before;
}

/**
 * The tab's title: the page's own, with the turn notice in front while it is your turn.
 * @param {string} base @param {boolean} myTurn @param {string} notice
 */
export function turnTitle(base, myTurn, notice) {
  return myTurn ? `● ${notice} — ${base}` : base;
}

/** Whether the chime is muted (kept between visits). */
export function loadMuted() {
  try {
    return localStorage.getItem(KEY_MUTE) === '1';
  } catch {
    return false;
  }
}

/** @param {boolean} muted */
function saveMuted(muted) {
  try {
    if (muted) localStorage.setItem(KEY_MUTE, '1');
    else localStorage.removeItem(KEY_MUTE);
  } catch {
    // Private browsing or full storage: the switch holds for this visit.
  }
}

/** Whether the person has touched the page yet (browsers refuse sound and vibration before). */
function activated() {
  const ua = /** @type {{hasBeenActive?: boolean} | undefined} */ (/** @type {any} */ (navigator).userActivation);
  return !!ua && !!ua.hasBeenActive;
}

/** @type {AudioContext | null} */
let audio = null;
/** How many chimes this page has played (shown on the page's body as data-chimes). */
let chimes = 0;

/** A short two-note chime made by the Web Audio API. Returns whether it was played. */
function chime() {
  if (!activated() || typeof AudioContext === 'undefined') return false;
  try {
    if (!audio) audio = new AudioContext();
    const ctx = audio;
    if (ctx.state === 'suspended') void ctx.resume();
    const now = ctx.currentTime;
    [660, 880].forEach((freq, i) => {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = 'sine';
      osc.frequency.value = freq;
      const at = now + i * 0.12;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.15, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.18);
      osc.connect(gain).connect(ctx.destination);
      osc.start(at);
      osc.stop(at + 0.2);
    });
    return true;
  } catch {
    return false;
  }
}

/** A short buzz on devices that vibrate, once the person has touched the page. */
function buzz() {
  if (!activated() || typeof navigator.vibrate !== 'function') return;
  try {
    navigator.vibrate(120);
  } catch {
    // Not allowed here: the title and the chime remain.
  }
}

/** Whether this browser has desktop notifications. */
export function notificationsSupported() {
  return typeof window !== 'undefined' && typeof window.Notification === 'function';
}

/**
 * Whether a desktop notification is due: the turn has just arrived, the player switched them on
 * (and the browser allows them), and the tab is hidden (a visible tab has its title and chime).
 * @param {boolean} arrived @param {boolean} on @param {string} permission @param {boolean} hidden
 */
export function desktopNoticeDue(arrived, on, permission, hidden) {
  return arrived && on && permission === 'granted' && hidden;
}

/** A desktop notification that it is your turn at `where` (the table's name); a click brings the tab. @param {string} where */
function desktopNotice(where) {
  try {
    const n = new window.Notification(t('notice.your_turn'), { body: where, tag: 'yezi-turn', icon: '/icon-192.png' });
    n.onclick = () => {
      window.focus();
      n.close();
    };
  } catch {
    // A browser that only notifies from a service worker: the title and the chime remain.
  }
}

/**
 * Keeps the tab's title on the turn while it is yours, and chimes and buzzes when it arrives;
 * with `desktop` on, a desktop notification naming `where` when it arrives while the tab is hidden.
 * @param {boolean} myTurn @param {boolean} muted @param {boolean} [desktop] @param {string} [where]
 */
export function useTurnNotice(myTurn, muted, desktop = false, where = '') {
  const before = useRef(false);
  useEffect(() => {
    document.title = turnTitle(baseTitle(), myTurn, t('notice.your_turn'));
    const arrived = turnArrived(before.current, myTurn);
    if (arrived && !muted) {
      if (chime()) {
        chimes += 1;
        document.body.dataset.chimes = String(chimes);
      }
      buzz();
    }
    if (notificationsSupported() && desktopNoticeDue(arrived, desktop, window.Notification.permission, document.hidden)) {
      desktopNotice(where);
    }
    before.current = myTurn;
  }, [myTurn]);
  // Leaving the table gives the tab its own title back.
  useEffect(() => () => { document.title = baseTitle(); }, []);
}

/** The mute switch and its state. @returns {[boolean, () => void]} */
export function useMuted() {
  const [muted, setMuted] = useState(loadMuted);
  const toggle = () => {
    saveMuted(!muted);
    setMuted(!muted);
  };
  return [muted, toggle];
}

/** The button that mutes and unmutes the turn's chime. @param {{muted: boolean, onToggle: () => void}} p */
export function MuteToggle(p) {
  return html`<button class="mute" data-action="mute" aria-pressed=${p.muted ? 'true' : 'false'}
    title=${t(p.muted ? 'notice.unmute' : 'notice.mute')} aria-label=${t(p.muted ? 'notice.unmute' : 'notice.mute')}
    onClick=${p.onToggle}><span class=${p.muted ? 'muted' : ''}>♪</span></button>`;
}

/** Whether the player switched desktop notifications on (kept between visits). */
export function loadNotify() {
  try {
    return localStorage.getItem(KEY_NOTIFY) === '1';
  } catch {
    return false;
  }
}

/** @param {boolean} on */
function saveNotify(on) {
  try {
    if (on) localStorage.setItem(KEY_NOTIFY, '1');
    else localStorage.removeItem(KEY_NOTIFY);
  } catch {
    // Private browsing or full storage: the switch holds for this visit.
  }
}

/**
 * The desktop notifications' switch: on only with the browser's permission, asked for when the
 * player switches them on (a click: browsers ask only after one).
 * @param {(text: string) => void} tell says why they stay off
 * @returns {[boolean, () => void]}
 */
export function useDesktopNotify(tell) {
  const [on, setOn] = useState(() => loadNotify() && notificationsSupported() && window.Notification.permission === 'granted');
  const set = (/** @type {boolean} */ x) => {
    saveNotify(x);
    setOn(x);
  };
  const toggle = () => {
    if (on) return set(false);
    if (!notificationsSupported()) return tell(t('notify.unsupported'));
    if (window.Notification.permission === 'granted') return set(true);
    if (window.Notification.permission === 'denied') return tell(t('notify.denied'));
    void window.Notification.requestPermission().then((p) => {
      if (p === 'granted') set(true);
      else tell(t('notify.denied'));
    });
  };
  return [on, toggle];
}

/** The switch of desktop notifications. @param {{on: boolean, onToggle: () => void}} p */
export function NotifyToggle(p) {
  return html`<button class="notify-toggle" data-action="notify" aria-pressed=${p.on ? 'true' : 'false'}
    title=${t(p.on ? 'notify.off' : 'notify.on')} aria-label=${t(p.on ? 'notify.off' : 'notify.on')}
    onClick=${p.onToggle}><span class=${p.on ? '' : 'muted'}><${BellIcon} /></span></button>`;
}

/** A bell, drawn (an emoji needs a font the machine may lack), in the text's colour. */
function BellIcon() {
  return html`<svg class="bell-icon" viewBox="0 0 16 16" width="1em" height="1em" aria-hidden="true">
    <path d="M8 1.5a1 1 0 0 1 1 1v.6a4.2 4.2 0 0 1 3.2 4.1v3l1.3 1.8v.7H2.5v-.7l1.3-1.8v-3A4.2 4.2 0 0 1 7 3.1v-.6a1 1 0 0 1 1-1z" fill="currentColor" />
    <path d="M6.3 13.4h3.4a1.7 1.7 0 0 1-3.4 0z" fill="currentColor" />
  </svg>`;
}
