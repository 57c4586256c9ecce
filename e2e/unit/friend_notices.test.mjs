// The tray of friend notices shown on every page (web/js/friend_notices.js): what each notice
// puts in it, what stays until answered and what passes by itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { trayAfter, trayAt, PASSING_MS } from '../../web/js/friend_notices.js';

const friend = (/** @type {string} */ username, /** @type {boolean} */ online, table = null) =>
  /** @type {any} */ ({ type: 'friend', username, name: username, online, table, at_private_table: false });
const challenge = (/** @type {string} */ id, /** @type {string} */ status, incoming = true, table = null) =>
  /** @type {any} */ ({ type: 'challenge', id, from: 'ann', to: 'bo', game: 'madiao', status, table, created_ms: 1, incoming });

test('a friend online or at a table passes; going offline takes his notice away', () => {
  let l = trayAfter([], friend('bo', true), 1000);
  assert.deepEqual(l.map((x) => [x.key, x.until]), [['friend:bo', 1000 + PASSING_MS]]);
  l = trayAfter(l, friend('bo', true, /** @type {any} */ ({ id: 't1', name: 'T', game: 'madiao', status: 'waiting' })), 2000);
  assert.equal(l.length, 1, 'one notice per friend: the newer replaces it');
  assert.equal(l[0].kind === 'friend' && l[0].friend.table?.id, 't1');
  assert.equal(trayAt(l, 2000 + PASSING_MS - 1).length, 1);
  assert.equal(trayAt(l, 2000 + PASSING_MS).length, 0, 'gone by itself');
  assert.deepEqual(trayAfter(l, friend('bo', false), 3000), []);
  assert.deepEqual(trayAfter([], friend('cy', false), 3000), [], 'offline is not shown');
});

test('a challenge stays until answered, goes when withdrawn; the answer to mine is shown', () => {
  let l = trayAfter([], challenge('c1', 'pending'), 0);
  assert.equal(l[0].until, null);
  assert.equal(trayAt(l, 10 * PASSING_MS).length, 1, 'it waits for an answer');
  assert.deepEqual(trayAfter(l, challenge('c1', 'withdrawn'), 5), []);
  assert.deepEqual(trayAfter([], challenge('c2', 'pending', false), 0), [], 'my own challenge sent: nothing');
  const declined = trayAfter([], challenge('c2', 'declined', false), 0);
  assert.equal(declined[0].until, PASSING_MS);
  const accepted = trayAfter([], challenge('c3', 'accepted', false, /** @type {any} */ ('t9')), 0);
  assert.equal(accepted[0].until, null, 'the way to the table stays');
  assert.deepEqual(trayAfter([], challenge('c4', 'withdrawn', false), 0), []);
});

test('an invitation stays, newest first', () => {
  let l = trayAfter([], /** @type {any} */ ({ type: 'invited', event: 'e1', name: 'Friday', host: 'ann' }), 0);
  l = trayAfter(l, friend('bo', true), 1);
  assert.deepEqual(l.map((x) => x.key), ['friend:bo', 'invited:e1']);
  assert.deepEqual(trayAt(l, 1 + PASSING_MS).map((x) => x.key), ['invited:e1']);
});
