// English and 简体中文 (web/js/i18n.js): both languages have every key the client uses, with the
// same placeholders; every server error code has a message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { STRINGS, translate, t, setLang, lang } from '../../web/js/i18n.js';

const dir = new URL('../../web/js/', import.meta.url);
const sources = readdirSync(dir).filter((f) => f.endsWith('.js')).map((f) => readFileSync(new URL(f, dir), 'utf8'));
const wire = readFileSync(new URL('wire.d.ts', dir), 'utf8');

/** @param {string} s */
const placeholders = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test('both languages have the same keys and placeholders', () => {
  assert.deepEqual(Object.keys(STRINGS.zh).sort(), Object.keys(STRINGS.en).sort());
  for (const k of Object.keys(STRINGS.en)) {
    assert.deepEqual(placeholders(STRINGS.zh[k]), placeholders(STRINGS.en[k]), k);
    assert.ok(STRINGS.zh[k].trim() && STRINGS.en[k].trim(), k);
  }
});

test('the Chinese is simplified', () => {
  // A few traditional forms that must not appear in the interface text (card faces keep their
  // historical names, but they are not in this dictionary).
  for (const [k, v] of Object.entries(STRINGS.zh)) {
    for (const ch of '們個這麼說開機後與對當從點選擇視連線結')
      assert.ok(!v.includes(ch) || k.startsWith('game.'), `${k}: ${v} has ${ch}`);
  }
});

test('every key the client uses exists', () => {
  const used = new Set();
  const prefixes = new Set(Object.keys(STRINGS.en).map((k) => k.split('.')[0]));
  for (const src of sources) {
    for (const m of src.matchAll(/'([a-z_]+\.[a-z_0-9]+)'/g)) {
      if (prefixes.has(m[1].split('.')[0]) && !m[1].endsWith('.js')) used.add(m[1]);
    }
  }
  assert.ok(used.size > 150, `${used.size} keys found`);
  for (const k of used) assert.ok(k in STRINGS.en, `missing key ${k}`);
  // Keys built from values: every value they are built from.
  const expand = [
    ...['madiao', 'dabaifen'].flatMap((g) => [`game.${g}`, `lobby.about_${g}`]),
    ...['waiting', 'playing', 'finished'].map((s) => `status.${s}`),
    ...['lead', 'capture', 'slough', 'discard'].map((s) => `kind.${s}`),
    ...['chat', 'log', 'score'].map((s) => `side.${s}`),
    ...['meld', 'four_lowest', 'long_suit', 'hm_exemption'].map((s) => `declared.${s}`),
    ...['relaxed', 'normal', 'fast'].map((s) => `pace.${s}`),
  ];
  for (const k of expand) assert.ok(k in STRINGS.en, `missing key ${k}`);
});

test('every error code of the protocol and the HTTP API has a message', () => {
  const m = /export type ErrorCode = ([^;]+);/.exec(wire);
  assert.ok(m, 'ErrorCode in wire.d.ts');
  const codes = [...m[1].matchAll(/"(\w+)"/g)].map((x) => x[1]);
  assert.ok(codes.length >= 28);
  for (const c of [...codes, 'bad_request', 'not_finished', 'too_many_tables', 'internal', 'network']) {
    assert.ok(`err.${c}` in STRINGS.en && `err.${c}` in STRINGS.zh, `err.${c}`);
  }
});

test('translate fills placeholders and falls back', () => {
  assert.equal(translate('en', 'lobby.hello', { name: 'Ann' }), 'Welcome, Ann.');
  assert.equal(translate('zh', 'lobby.hello', { name: '安' }), '欢迎，安。');
  assert.equal(translate('zh', 'no.such.key'), 'no.such.key');
  assert.equal(translate('en', 'lobby.seat_n', {}), 'Seat {n}');
  setLang('zh');
  assert.equal(lang(), 'zh');
  assert.equal(t('nav.rules'), '规则');
  setLang('en');
  assert.equal(t('nav.rules'), 'Rules');
});
