// The clock helpers of the table page (web/js/clock.js): the time bank runs only once the turn
// clock is spent; take-backs and pauses are offered to the only person at an unrated table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bankLeft, clockText, isPaused, playsAlone } from '../../web/js/clock.js';

test('the bank runs once the turn clock is spent', () => {
  assert.equal(bankLeft(10_000, 30_000, 0), 30_000);
  assert.equal(bankLeft(10_000, 30_000, 9_999), 30_000);
  assert.equal(bankLeft(10_000, 30_000, 15_000), 25_000);
  assert.equal(bankLeft(0, 30_000, 40_000), 0, 'never below zero');
  assert.equal(clockText(61_000), '1:01');
  assert.equal(clockText(29_001), '0:30');
  assert.equal(clockText(0), '0:00');
});

/** A table summary with `kinds` in its seats. */
function table(kinds, extra = {}) {
  return {
    status: 'playing',
    rated: false,
    seats: kinds.map((kind, seat) => ({ seat, kind })),
    ...extra,
  };
}

test('take-backs and pauses: only the one person at an unrated table', () => {
  const alone = table(['person', 'bot', 'bot', 'open']);
  assert.equal(playsAlone(/** @type {any} */ (alone), 0), true);
  assert.equal(playsAlone(/** @type {any} */ (alone), null), false, 'a spectator');
  assert.equal(playsAlone(/** @type {any} */ (table(['person', 'person', 'bot', 'bot'])), 0), false);
  assert.equal(playsAlone(/** @type {any} */ (table(['person', 'bot', 'bot', 'bot'], { rated: true })), 0), false);
  assert.equal(playsAlone(/** @type {any} */ (table(['person', 'bot', 'bot', 'bot'], { status: 'finished' })), 0), false);
  assert.equal(isPaused({ what: 'paused' }), true);
  assert.equal(isPaused({ what: 'bot', seat: 1 }), false);
  assert.equal(isPaused(null), false);
});
