// English and 简体中文 (web/js/i18n.js): both languages have every key the client uses, with the
// same placeholders; every server error code has a message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { STRINGS, translate, t, setLang, lang, botName, presetName, analysisReason } from '../../web/js/i18n.js';

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

// Issue 26 item 7: 简体中文 as mainland players write it.
const CJK = /[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef“”]/;
/** The Latin words a Chinese string may hold: the name yezi, card ranks, a key named as "F键". */
const LATIN_OK = new Set(['yezi', 'A', 'K', 'Q', 'J']);

test('no space beside a Chinese character in any Chinese string', () => {
  for (const [k, v] of Object.entries(STRINGS.zh)) {
    const s = v.replace(/\{\w+\}/g, 'X');
    for (let i = 0; i < s.length; i++) {
      if (s[i] !== ' ') continue;
      assert.ok(!CJK.test(s[i - 1] ?? '') && !CJK.test(s[i + 1] ?? ''), `${k}: a space at ${i} in “${v}”`);
    }
  }
});

test('Chinese quotes are “”, never 「」 or straight quotes', () => {
  for (const [k, v] of Object.entries(STRINGS.zh)) {
    assert.ok(!/[「」『』"]/.test(v), `${k}: ${v}`);
    // Quotes come in pairs.
    assert.equal((v.match(/“/g) ?? []).length, (v.match(/”/g) ?? []).length, `${k}: ${v}`);
  }
});

test('no English word in a Chinese string', () => {
  for (const [k, v] of Object.entries(STRINGS.zh)) {
    const s = v.replace(/\{\w+\}/g, ' ').replace(/[A-Z](?=键)/g, ' ');
    for (const m of s.matchAll(/[A-Za-z][A-Za-z'-]*/g)) assert.ok(LATIN_OK.has(m[0]), `${k}: “${m[0]}” in ${v}`);
  }
});

test('one word for each thing: the Da Bai Fen starter is 庄家, a Madiao slough is 灭, rated is 排位', () => {
  for (const [k, v] of Object.entries(STRINGS.zh)) {
    assert.ok(!v.includes('亲'), `${k}: the starter is 庄家, not 亲: ${v}`);
    assert.ok(!/[扣垫]/.test(v), `${k}: a slough is 灭 (a burial 埋): ${v}`);
    assert.ok(!v.includes('计分'), `${k}: rated is 排位: ${v}`);
  }
  assert.equal(STRINGS.zh['role.starter'], '庄家');
  assert.equal(STRINGS.zh['lobby.rated'], '排位');
  for (const k of ['madiao.slough', 'kind.slough', 'hint.slough', 'analysis.move_slough']) assert.ok(STRINGS.zh[k].startsWith('灭'), k);
});

test('every bot and preset has a name for players in both languages', () => {
  const rust = readFileSync(new URL('../../crates/ai/src/madiao/mod.rs', import.meta.url), 'utf8');
  const m = /fn bot_names\(\)[\s\S]*?\{\s*&\[([^\]]+)\]/.exec(rust);
  assert.ok(m, 'the Madiao bot names in crates/ai');
  const bots = [...m[1].matchAll(/"([\w-]+)"/g)].map((x) => x[1]);
  assert.ok(bots.length >= 6, `${bots}`);
  for (const l of /** @type {const} */ (['en', 'zh'])) {
    setLang(l);
    const names = bots.map(botName);
    for (const [i, b] of bots.entries()) assert.notEqual(names[i], b, `${l}: ${b} has a name`);
    assert.equal(new Set(names).size, names.length, `${l}: distinct names ${names}`);
    for (const p of ['standard', 'feng']) assert.notEqual(presetName(p), l === 'zh' ? p : '', `${l}: ${p}`);
  }
  setLang('zh');
  assert.deepEqual(['random', 'heuristic', 'pimc', 'expert'].map(botName), ['新手', '俱乐部水平', '强手', '高手']);
  setLang('en');
  assert.deepEqual(['random', 'heuristic', 'pimc', 'expert'].map(botName), ['Beginner', 'Club player', 'Strong', 'Expert']);
  assert.equal(botName('no-such-bot'), 'no-such-bot');
});

test('the analysis’ reasons are said in Chinese', () => {
  // Each game's analysis, where its reasons are written.
  const src = ['madiao', 'dabaifen']
    .map((g) => readFileSync(new URL(`../../crates/ai/src/${g}/analysis.rs`, import.meta.url), 'utf8'))
    .join('\n');
  // Every fixed reason of the analysis (a string literal after `reason:` or in a const).
  const fixed = [...src.matchAll(/reason: "([^"{]+)"\.into\(\)/g)].map((x) => x[1]);
  for (const c of ['BEFORE_PLAY_FACE_UP', 'REVOKE']) {
    const m = new RegExp(`const ${c}: &str =\\s*"([^"]+)"`).exec(src);
    assert.ok(m, c);
    fixed.push(m[1]);
  }
  assert.ok(fixed.length >= 10, `${fixed.length} reasons`);
  setLang('zh');
  for (const r of [...fixed, '5 tricks remain; the exact solver is used from 4', 'play M9 was not legal there', '9 cards per hand remain; the exact solver is tried from 7']) {
    const zh = analysisReason(r);
    assert.ok(!/[A-Za-z]/.test(zh), `${r} → ${zh}`);
  }
  setLang('en');
  assert.equal(analysisReason('nobody was to move'), 'nobody was to move');
});
