// Clocks a person can live with, and play alone with bots (docs/web.md, "Clocks, take-backs and
// pauses"): the time bank shown beside the turn clock, the player's take-back and pause buttons at
// a table where he is the only person, the banner of a paused match, and the prompt while a bot
// plays for him.

import { html, useEffect, useState } from '../vendor/preact-htm.js';
import { t } from './i18n.js';

/** @typedef {import('./wire').Timer} Timer */
/** @typedef {import('./wire').TableSummary} TableSummary */
/** @typedef {import('./wire').ClientMsg} ClientMsg */

/**
 * What is left of the time bank `at + elapsed`: the bank runs only once the turn clock is spent.
 * @param {number} turnMs the turn clock left when the timer came @param {number} bankMs the bank
 * then @param {number} elapsed milliseconds since
 */
export function bankLeft(turnMs, bankMs, elapsed) {
  return Math.max(0, bankMs - Math.max(0, elapsed - turnMs));
}

/** `m:ss`. @param {number} ms */
export function clockText(ms) {
  const secs = Math.ceil(ms / 1000);
  return `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, '0')}`;
}

/**
 * The seat's time bank beside its turn clock (a timer without a bank shows nothing).
 * @param {{timer: Timer | null, at: number}} p
 */
export function BankClock(p) {
  const [, tick] = useState(0);
  useEffect(() => {
    const h = setInterval(() => tick((x) => x + 1), 250);
    return () => clearInterval(h);
  }, []);
  const timer = p.timer;
  if (!timer || timer.what !== 'turn' || typeof timer.bank_ms !== 'number') return null;
  const turn = timer.remaining_ms ?? 0;
  const elapsed = Date.now() - p.at;
  const left = bankLeft(turn, timer.bank_ms, elapsed);
  const running = elapsed >= turn;
  return html`<span class=${`bank${running ? ' running' : ''}`} data-bank-ms=${String(timer.bank_ms)} title=${t('clock.bank_title')}>
    ${t('clock.bank', { left: clockText(left) })}</span>`;
}

/**
 * True when the seat `me` is the only person at an unrated table whose match is being played:
 * he may take back his last play and pause the match.
 * @param {TableSummary} table @param {number | null} me
 */
export function playsAlone(table, me) {
  if (me === null || table.rated || table.no_aids || (table.status !== 'playing' && table.status !== 'parked')) return false;
  const persons = table.seats.filter((s) => s.kind === 'person');
  return persons.length === 1 && persons[0].seat === me;
}

/** True when the timer says the match is paused. @param {Timer | null} timer */
export function isPaused(timer) {
  return !!timer && timer.what === 'paused';
}

/**
 * The take-back and pause buttons of a player alone with bots.
 * @param {{table: TableSummary, me: number | null, timer: Timer | null, send: (m: ClientMsg) => void}} p
 */
export function SoloControls(p) {
  if (!playsAlone(p.table, p.me)) return null;
  const paused = isPaused(p.timer);
  return html`<span class="solo-controls">
    <button data-action="take-back" disabled=${paused} title=${t('solo.take_back_title')}
      onClick=${() => p.send({ type: 'take_back' })}>${t('solo.take_back')}</button>
    ${paused
      ? html`<button class="primary" data-action="resume" onClick=${() => p.send({ type: 'resume' })}>${t('solo.resume')}</button>`
      : html`<button data-action="pause" onClick=${() => p.send({ type: 'pause' })}>${t('solo.pause')}</button>`}
  </span>`;
}

/**
 * The banner of a paused match, for everyone at the table; its player may resume from it.
 * @param {{table: TableSummary, me: number | null, timer: Timer | null, send: (m: ClientMsg) => void}} p
 */
export function PausedBanner(p) {
  if (!isPaused(p.timer)) return null;
  const mine = playsAlone(p.table, p.me);
  return html`<div class="banner paused" data-paused="1">${t(mine ? 'solo.paused' : 'solo.paused_watch')}
    ${mine ? html`<button class="primary" data-action="resume-banner" onClick=${() => p.send({ type: 'resume' })}>${t('solo.resume')}</button>` : null}</div>`;
}

/** The prompt while a bot plays for the seat (instead of "your turn"). */
export function BotPlaysPrompt() {
  return html`<span class="wait bot-plays" data-bot-plays="1">${t('prompt.bot_plays')}</span>`;
}
