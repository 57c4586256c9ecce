// Routes, invite links, the socket's version checks and backoff, the variants catalog against
// the generated wire types (web/js/routes.js, lobby.js, socket.js, variants.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { route } from '../../web/js/routes.js';
import { versionCheck, backoff } from '../../web/js/socket.js';
import { reduce } from '../../web/js/table.js';
import { VARIANTS, overrides, variantValueText } from '../../web/js/variants.js';

const wire = readFileSync(new URL('../../web/js/wire.d.ts', import.meta.url), 'utf8');

test('pages by address', () => {
  assert.deepEqual(route('/', ''), { page: 'lobby' });
  assert.deepEqual(route('/t/tabc123', ''), { page: 'table', id: 'tabc123', watch: false, seat: null });
  assert.deepEqual(route('/t/tabc123', '?watch'), { page: 'table', id: 'tabc123', watch: true, seat: null });
  assert.deepEqual(route('/t/tabc123', '?seat=2'), { page: 'table', id: 'tabc123', watch: false, seat: 2 });
  assert.deepEqual(route('/t/tabc123', '?seat=7'), { page: 'table', id: 'tabc123', watch: false, seat: null });
  assert.deepEqual(route('/replay/tx1', ''), { page: 'replay', id: 'tx1' });
  assert.deepEqual(route('/replay', ''), { page: 'replay', id: null });
  assert.deepEqual(route('/rules', '?game=dabaifen'), { page: 'rules', game: 'dabaifen' });
  assert.deepEqual(route('/t/../x', ''), { page: 'lobby' });
  assert.deepEqual(route('/account', ''), { page: 'account' });
  assert.deepEqual(route('/account/', ''), { page: 'account' });
  assert.deepEqual(route('/accounts', ''), { page: 'lobby' });
});

test('versions: events follow by one; a gap asks for a resync; replies do not count', () => {
  assert.equal(versionCheck('update', 6, 5), 'ok');
  assert.equal(versionCheck('seats', 8, 5), 'gap');
  assert.equal(versionCheck('chat', 5, 5), 'stale');
  // The host's messages (closed, removed, rematch) are events too.
  assert.equal(versionCheck('host', 6, 5), 'ok');
  assert.equal(versionCheck('host', 7, 5), 'gap');
  assert.equal(versionCheck('chat_removed', 6, 5), 'ok');
  assert.equal(versionCheck('chat_removed', 7, 5), 'gap');
  assert.equal(versionCheck('ack', 5, 5), 'ok');
  assert.equal(versionCheck('error', 9, 5), 'ok');
  assert.equal(versionCheck('update', 1, null), 'ok');
});

test('reconnection waits longer each time, up to 5 s (jittered: unit/socket.test.mjs)', () => {
  const top = () => 0.999999;
  assert.equal(backoff(0, top), 500);
  assert.equal(backoff(1, top), 1000);
  assert.ok(backoff(3, top) > backoff(2, top));
  assert.equal(backoff(50, top), 5000);
});

test('the variants catalog matches the engines (generated types)', () => {
  const madiao = /export type MadiaoVariants = \{ ([^}]+) \};/.exec(wire)[1].split(', ').map((f) => f.split(':')[0]);
  assert.deepEqual(VARIANTS.madiao.map((v) => v.name).sort(), [...madiao].sort());
  const dbf = /export type DabaifenVariants = \{ ([^}]+) \};/.exec(wire)[1];
  for (const v of VARIANTS.dabaifen) {
    const m = new RegExp(`${v.name}: ([^,]+)`).exec(dbf);
    assert.ok(m, v.name);
    const values = [...m[1].matchAll(/"(\w+)"/g)].map((x) => x[1]);
    assert.deepEqual(v.values.map((x) => x.value).sort(), values.sort(), v.name);
  }
  for (const g of ['madiao', 'dabaifen']) {
    for (const v of VARIANTS[g]) for (const x of v.values) assert.ok(x.text.en && x.text.zh && v.about.en && v.about.zh, v.name);
  }
});

test('a table form sends only the variants that differ from its preset', () => {
  assert.deepEqual(overrides({ a: '1', b: '2' }, { a: '1', b: '3' }), { b: '3' });
  assert.deepEqual(overrides({ a: '1' }, { a: '1' }), {});
  assert.equal(variantValueText('madiao', 'game_length', 'hands:6', 'en'), 'after 6 hands');
  assert.equal(variantValueText('dabaifen', 'revoke', 'refuse', 'zh').length > 0, true);
});

test('item 15: an error the page can translate is said once, a detailed one keeps the server\'s words', async () => {
  const { errorText, setLang } = await import('../../web/js/i18n.js');
  setLang('en');
  const notFinished = errorText('not_finished', 'the game at this table is not over: it can be replayed once it is');
  assert.equal(notFinished, 'The game is not over yet: its replay comes when it is.');
  assert.ok(!notFinished.includes('—'), notFinished);
  const illegal = errorText('illegal', 'seat 3 must follow spades (holds 5S)');
  assert.ok(illegal.endsWith('seat 3 must follow spades (holds 5S)'), illegal);
  assert.equal(errorText('something_new', 'a message'), 'a message');
  assert.equal(errorText('something_new', ''), 'something_new');
});

test('a chat line the operator removed goes from the table state at once', () => {
  const line = (seq, text) => ({ seq, at_ms: 0, name: 'Ann', seat: 0, guest: 'g1', text });
  const st = /** @type {any} */ ({ chat: [line(0, 'rude'), line(1, 'kind')], v: 5 });
  const after = reduce(st, /** @type {any} */ ({ type: 'chat_removed', v: 6, seq: 0 }));
  assert.deepEqual(after?.chat.map((m) => m.text), ['kind']);
  assert.equal(reduce(null, /** @type {any} */ ({ type: 'chat_removed', v: 6, seq: 0 })), null);
});
