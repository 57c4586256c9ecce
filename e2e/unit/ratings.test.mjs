// The ratings pages' pure helpers: their routes, the rating as shown, the history chart's points
// (web/js/routes.js, ratings.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { route } from '../../web/js/routes.js';
import { chartPoints, shownRating } from '../../web/js/ratings.js';

test('the leaderboard and profile pages by address', () => {
  assert.deepEqual(route('/ratings', ''), { page: 'ratings', game: 'madiao' });
  assert.deepEqual(route('/ratings/', '?game=dabaifen'), { page: 'ratings', game: 'dabaifen' });
  assert.deepEqual(route('/ratings', '?game=chess'), { page: 'ratings', game: 'madiao' });
  assert.deepEqual(route('/players/Ann_Li', ''), { page: 'player', username: 'Ann_Li' });
  assert.deepEqual(route('/players/Ann%5FLi/', ''), { page: 'player', username: 'Ann_Li' });
  assert.deepEqual(route('/players/%E0%A4', ''), { page: 'player', username: '%E0%A4' });
  assert.deepEqual(route('/players/', ''), { page: 'lobby' });
});

test('a rating is shown in whole points, provisional with a question mark', () => {
  assert.equal(shownRating(1499.6, false), '1500');
  assert.equal(shownRating(1432.2, true), '1432?');
});

test('the history chart runs oldest to newest, highest at the top, inside its box', () => {
  const { points, lo, hi } = chartPoints([1500, 1600, 1400], 100, 50, 5);
  assert.equal(points.length, 3);
  assert.deepEqual([lo, hi], [1400, 1600]);
  assert.deepEqual(points.map(([x]) => x), [5, 50, 95]);
  assert.deepEqual(points.map(([, y]) => y), [25, 5, 45]);
  // One point is in the middle; a flat history is drawn in a band of 20 points.
  const one = chartPoints([1500], 100, 50, 5);
  assert.deepEqual(one.points, [[50, 25]]);
  assert.deepEqual([one.lo, one.hi], [1490, 1510]);
  assert.deepEqual(chartPoints([], 100, 50, 5).points, []);
});
