// Play ahead (web/js/premove.js): what a queued card does when the turn comes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { madiaoDefault, mayQueue, premoveOutcome } from '../../web/js/premove.js';

test('Madiao: a queued card leads or captures face up, else goes face down', () => {
  const follow = { kind: 'actions', actions: [{ play: 'S7' }, { play: 'S2' }, { slough: 'S2' }, { slough: 'W8' }], captures: ['S7'] };
  assert.deepEqual(premoveOutcome(follow, false, 'S7'), { send: { play: 'S7' } }, 'a capture');
  // A card that cannot capture is sloughed, never discarded face up (which costs 2 stakes).
  assert.deepEqual(premoveOutcome(follow, false, 'S2'), { send: { slough: 'S2' } });
  assert.deepEqual(premoveOutcome(follow, false, 'W8'), { send: { slough: 'W8' } });
  // The trick made it illegal (or it is not in the hand's choices): dropped.
  assert.deepEqual(premoveOutcome(follow, false, 'M1'), { drop: true });
  const lead = { kind: 'actions', actions: [{ play: 'S2' }, { play: 'W8' }], captures: [] };
  assert.deepEqual(premoveOutcome(lead, true, 'W8'), { send: { play: 'W8' } }, 'a lead');
  // Where only the face-up discard is offered, it is what the card can do.
  assert.deepEqual(madiaoDefault({ kind: 'actions', actions: [{ play: 'S2' }], captures: [] }, false, 'S2'), { play: 'S2' });
  assert.equal(madiaoDefault(null, false, 'S2'), null);
});

test('Da Bai Fen: a single lead or a one-card follow is played; several cards start the selection', () => {
  const lead = { kind: 'lead', singles: ['AS', '3H'], groups: [], revoke: 'penalize' };
  assert.deepEqual(premoveOutcome(lead, false, 'AS'), { send: { play: ['AS'] } });
  assert.deepEqual(premoveOutcome(lead, false, 'KD'), { drop: true });
  // A follow of one card: a heart must be followed with a heart.
  const one = { kind: 'cards', action: 'play', count: 1, must: [], from: ['2H', '9H'] };
  assert.deepEqual(premoveOutcome(one, false, '9H'), { send: { play: ['9H'] } });
  assert.deepEqual(premoveOutcome(one, false, 'AS'), { drop: true }, 'the trick asks for a heart: the spade is dropped');
  // A follow of two, with one card that must be played.
  const two = { kind: 'cards', action: 'play', count: 2, must: ['KH'], from: ['2S', '3C'] };
  assert.deepEqual(premoveOutcome(two, false, '2S'), { select: ['KH', '2S'] });
  assert.deepEqual(premoveOutcome(two, false, 'KH'), { select: ['KH'] });
  assert.deepEqual(premoveOutcome(two, false, 'AD'), { drop: true });
  // Every card forced: another card cannot join.
  const forced = { kind: 'cards', action: 'play', count: 2, must: ['KH', 'QH'], from: [] };
  assert.deepEqual(premoveOutcome(forced, false, '2S'), { drop: true });
  // Not a turn to play: the card stays queued.
  assert.equal(premoveOutcome({ kind: 'cards', action: 'bury', count: 6, must: [], from: ['2S'] }, false, '2S'), null);
  assert.equal(premoveOutcome(null, false, '2S'), null);
  assert.equal(premoveOutcome({ kind: 'annul', requested: false }, false, '2S'), null);
});

test('a card may be queued only while the hand is played and the seat has nothing to answer', () => {
  assert.equal(mayQueue({ phase: 'play' }, null), true);
  assert.equal(mayQueue({ phase: 'playing' }, null), true);
  assert.equal(mayQueue({ phase: 'burying' }, null), true);
  assert.equal(mayQueue({ phase: 'redeal' }, null), false);
  assert.equal(mayQueue({ phase: 'drawing' }, null), false);
  assert.equal(mayQueue({ phase: 'over' }, null), false);
  assert.equal(mayQueue({ phase: 'play' }, { kind: 'actions', actions: [], captures: [] }), false);
});
