// The host's table management at the table page (web/js/host.js): which seats the host may free,
// when a table's life is over, the words of the host's events in both languages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hostEventText, removable, tableOver } from '../../web/js/host.js';
import { setLang } from '../../web/js/i18n.js';

/** @param {object} o */
const seat = (o) => ({ seat: 1, kind: 'person', name: 'Bo', bot: null, guest: 'g1', present: true, away: false, bot_plays: false, grace_ms: null, ...o });

test('only a person who is away or gone may be removed, never the host himself', () => {
  assert.equal(removable(seat({}), 0), false, 'at the table');
  assert.equal(removable(seat({ away: true }), 0), true, 'his clock ran out');
  assert.equal(removable(seat({ present: false, grace_ms: 9000 }), 0), true, 'his connection dropped');
  assert.equal(removable(seat({ away: true }), 1), false, 'his own seat');
  assert.equal(removable(seat({ kind: 'bot', present: true }), 0), false);
  assert.equal(removable(seat({ kind: 'open', present: false }), 0), false);
});

test('finished and closed tables are over', () => {
  assert.deepEqual(['waiting', 'playing', 'parked', 'finished', 'closed'].map(tableOver), [false, false, false, true, true]);
});

test('the host events in words, English and Chinese', () => {
  setLang('en');
  assert.equal(hostEventText({ kind: 'closed', by: 'Ann', hands: 2 }), 'Ann (the host) closed this table.');
  assert.match(hostEventText({ kind: 'removed', seat: 1, name: 'Bo' }), /removed Bo/);
  assert.match(hostEventText({ kind: 'rematch', table: 't2' }), /rematch/);
  setLang('zh');
  assert.match(hostEventText({ kind: 'closed', by: 'Ann', hands: 2 }), /Ann（桌主）关闭了这张牌桌/);
  setLang('en');
});
