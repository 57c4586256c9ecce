// The notice that it is your turn: the tab's title says so while it is (always), and a short
// chime and a buzz on phones mark the moment the turn arrives (only then, and never when muted).
// The mute switch is kept in local storage.
import { html, useEffect, useRef, useState } from '../vendor/preact-htm.js';
import { t } from './i18n.js';

const KEY_MUTE = 'yezi.mute';

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

/**
 * Keeps the tab's title on the turn while it is yours, and chimes and buzzes when it arrives.
 * @param {boolean} myTurn @param {boolean} muted
 */
export function useTurnNotice(myTurn, muted) {
  const before = useRef(false);
  useEffect(() => {
    document.title = turnTitle(baseTitle(), myTurn, t('notice.your_turn'));
    if (turnArrived(before.current, myTurn) && !muted) {
      if (chime()) {
        chimes += 1;
        document.body.dataset.chimes = String(chimes);
      }
      buzz();
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
