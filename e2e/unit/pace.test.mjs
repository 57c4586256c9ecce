// Humane pacing in the client (web/js/pace.js, and the table's reducer in web/js/table.js): the
// grace period typed in the form, who is ready between hands, and the clocks as the server sends
// them (a resync keeps the remaining time it is given: nothing restarts a clock in the page).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { GRACE, PACES, graceSeconds, readiness } from '../../web/js/pace.js';
import { reduce } from '../../web/js/table.js';

const wire = readFileSync(new URL('../../web/js/wire.d.ts', import.meta.url), 'utf8');

test('the paces are the protocol’s', () => {
  const m = /pace\??: ("[a-z]+"(?: \| "[a-z]+")*)/.exec(wire) ?? /export type Pace = ([^;]+);/.exec(wire);
  assert.ok(m, 'the pace type in wire.d.ts');
  assert.deepEqual([...m[1].matchAll(/"(\w+)"/g)].map((x) => x[1]).sort(), [...PACES].sort());
});

test('the grace period: whole seconds from 0 to 120, else refused', () => {
  assert.equal(graceSeconds('15'), 15);
  assert.equal(graceSeconds(' 30 '), 30);
  assert.equal(graceSeconds('0'), 0);
  assert.equal(graceSeconds('7.6'), 8);
  assert.equal(graceSeconds('500'), GRACE.max);
  assert.equal(graceSeconds(''), null);
  assert.equal(graceSeconds('-3'), null);
  assert.equal(graceSeconds('ten'), null);
  assert.equal(graceSeconds('1e3'), null);
});

/** @param {number} seat @param {string} kind @param {boolean} present */
const seat = (seat, kind, present) => ({ seat, kind, name: kind === 'person' ? `P${seat}` : null, bot: kind === 'bot' ? 'heuristic' : null, guest: null, present, away: false, bot_plays: kind !== 'person', grace_ms: null });

test('who is ready: the seated people; waiting while a connected one is not', () => {
  const seats = [seat(0, 'person', true), seat(1, 'bot', false), seat(2, 'person', true), seat(3, 'person', false)];
  let r = readiness(seats, []);
  assert.deepEqual(r.people.map((x) => x.seat), [0, 2, 3]);
  assert.ok(r.waiting);
  r = readiness(seats, [0]);
  assert.deepEqual(r.people.map((x) => x.ready), [true, false, false]);
  assert.ok(r.waiting, 'seat 2 is connected and not ready');
  r = readiness(seats, [2, 0]);
  assert.ok(!r.waiting, 'the disconnected seat 3 is not waited for');
  assert.deepEqual(r.people.map((x) => x.present), [true, true, false]);
});

const table = { id: 't1', name: 'T', game: 'madiao', rules: 'standard', variants: {}, turn_seconds: 30, pace: 'relaxed', grace_seconds: 20, private: false, status: 'playing', host: null, seats: [], open_seats: 0, spectators: 0, hands: 0, created_ms: 0 };
const sync = (timer, seats = []) => ({ type: 'sync', v: 1, table: { ...table, seats }, you: { seat: 0, guest: 'g', name: 'Ann', host: true }, hand: 0, move: 3, view: null, legal: null, timer, match: null, results: [], chat: [] });

test('a sync shows the remaining time it is given, and the seats’ grace counts from its arrival', () => {
  const before = Date.now();
  const st = reduce(null, sync({ what: 'turn', seat: 0, remaining_ms: 12345 }, [seat(0, 'person', true), { ...seat(1, 'person', false), grace_ms: 9000 }]));
  assert.deepEqual(st.timer, { what: 'turn', seat: 0, remaining_ms: 12345 });
  assert.ok(st.timerAt >= before && st.seatsAt >= before);
  assert.equal(st.table.pace, 'relaxed');
  assert.equal(st.table.seats[1].grace_ms, 9000);
  // A `seats` message (someone's connection dropped) brings his grace and the timer as it stands.
  const later = reduce(st, { type: 'seats', v: 2, seats: [seat(0, 'person', true), { ...seat(1, 'person', false), grace_ms: 4000 }], spectators: 0, status: 'playing', timer: { what: 'grace', seat: 1, remaining_ms: 4000 } });
  assert.equal(later.table.seats[1].grace_ms, 4000);
  assert.deepEqual(later.timer, { what: 'grace', seat: 1, remaining_ms: 4000 });
  assert.equal(later.table.pace, 'relaxed', 'the settings stay');
});

test('ready: pressed by the ack, kept through seats messages, cleared by the next hand', () => {
  let st = reduce(null, sync({ what: 'next_hand', remaining_ms: 60000, ready: [] }));
  assert.equal(st.ready, false);
  st = reduce(st, { type: 'ack', v: 1, what: 'next' });
  assert.equal(st.ready, true);
  st = reduce(st, { type: 'seats', v: 2, seats: [], spectators: 0, status: 'playing', timer: { what: 'next_hand', remaining_ms: 50000, ready: [0] } });
  assert.equal(st.ready, true);
  assert.deepEqual(st.timer.ready, [0]);
  st = reduce(st, { type: 'update', v: 3, event: { kind: 'hand_start', hand: 1 }, hand: 1, move: 0, view: null, legal: null, timer: null, match: null });
  assert.equal(st.ready, false);
});
