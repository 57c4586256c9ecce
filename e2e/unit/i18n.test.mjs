// English and 简体中文 (web/js/i18n.js): both languages have every key the client uses, with the
// same placeholders; every server error code has a message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { STRINGS, translate, t, setLang, lang, botName, presetName, analysisReason, errorText, dealDetail } from '../../web/js/i18n.js';

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

test('every code of the HTTP API has a message', () => {
  const m = /export type ApiCode = ([^;]+);/.exec(wire);
  assert.ok(m, 'ApiCode in wire.d.ts');
  const codes = [...m[1].matchAll(/"(\w+)"/g)].map((x) => x[1]);
  assert.ok(codes.includes('event_closed'), `${codes}`);
  for (const c of codes) assert.ok(`err.${c}` in STRINGS.en && `err.${c}` in STRINGS.zh, `err.${c}`);
});

/** @param {string} s */
const chinese = (s) => CJK.test(s) && !/[A-Za-z]{2,}/.test(s);

test('every reason of the HTTP API has a sentence in both languages, each its own', () => {
  const m = /export type ApiReason = ([^;]+);/.exec(wire);
  assert.ok(m, 'ApiReason in wire.d.ts');
  const reasons = [...m[1].matchAll(/"(\w+)"/g)].map((x) => x[1]);
  assert.ok(reasons.length >= 5, `${reasons}`);
  // The server gives each of the event's refusals its reason (crates/server/src/api/events.rs).
  const rust = readFileSync(new URL('../../crates/server/src/api/events.rs', import.meta.url), 'utf8');
  const given = new Set([...rust.matchAll(/ApiReason::(\w+)/g)].map((x) => x[1].replace(/[A-Z]/g, (c, i) => (i ? '_' : '') + c.toLowerCase())));
  for (const r of ['event_begun', 'event_entered', 'event_full', 'event_host_only', 'event_started']) assert.ok(given.has(r), `events.rs gives ${r}`);
  const said = { en: new Set(), zh: new Set() };
  for (const l of /** @type {const} */ (['en', 'zh'])) {
    setLang(l);
    for (const r of reasons) {
      assert.ok(`err.${r}` in STRINGS[l], `err.${r} in ${l}`);
      // The sentence comes from the reason, whatever the server's English says.
      const s = errorText('event_closed', 'reworded on the server', r);
      assert.equal(s, STRINGS[l][`err.${r}`], r);
      if (l === 'zh') assert.ok(chinese(s), `${r} → ${s}`);
      said[l].add(s);
    }
    assert.equal(said[l].size, reasons.length, `${l}: ${[...said[l]]}`);
    // Without a reason: the code's own sentence.
    assert.equal(errorText('event_closed', 'the event is full'), STRINGS[l]['err.event_closed']);
  }
  setLang('en');
});

test('the replay’s deal verification lines are said from their codes, in both languages', () => {
  /** @type {import('../../web/js/wire').DealProblem[]} */
  const problems = [
    { hand: 0, fault: 'missing', detail: 'x', why: { code: 'no_seed' } },
    { hand: 1, fault: 'missing', detail: 'x', why: { code: 'no_commitment' } },
    { hand: 2, fault: 'missing', detail: 'x', why: { code: 'no_table' } },
    { hand: 3, fault: 'deck', detail: 'x', why: { code: 'deck_size', cards: 39, dealt: 40 } },
    {
      hand: 4,
      fault: 'deck',
      detail: 'x',
      why: { code: 'deck_cards', places: 2, first: [{ index: 0, card: 'S9', seed_card: 'CA' }, { index: 7, card: 'CA', seed_card: 'S9' }] },
    },
    {
      hand: 5,
      fault: 'deck',
      detail: 'x',
      why: {
        code: 'deck_cards',
        places: 12,
        first: [
          { index: 0, card: 'S9', seed_card: 'CA' },
          { index: 1, card: 'H3', seed_card: 'D4' },
          { index: 2, card: 'D4', seed_card: 'H3' },
          { index: 3, card: 'CA', seed_card: 'S9' },
        ],
      },
    },
    { hand: 3, fault: 'commitment', detail: 'x', why: { code: 'commitment', commitment: '00ff', seed: '4460881154273567451', table: 't1a2', expected: '9ab3' } },
  ];
  // Every code of DealMismatch (wire.d.ts) is among them.
  const m = /export type DealMismatch = ([^\n]+)/.exec(wire);
  assert.ok(m, 'DealMismatch in wire.d.ts');
  const codes = [...wire.slice(m.index).split('export type CardMismatch')[0].matchAll(/"code": "(\w+)"/g)].map((x) => x[1]);
  assert.deepEqual([...new Set(problems.map((p) => p.why.code))].sort(), codes.sort());
  setLang('zh');
  const zh = problems.map(dealDetail);
  setLang('en');
  const en = problems.map(dealDetail);
  for (const [i, p] of problems.entries()) {
    // Card codes, ids and hashes stay as they are; every word is Chinese.
    const words = zh[i].replace(/\b[SHDCB][0-9AKQJT]{1,2}\b|t1a2|00ff|9ab3|\d+/g, '');
    assert.ok(chinese(words), `${p.why.code} → ${zh[i]}`);
    assert.notEqual(en[i], p.detail, `${p.why.code}: the English from the code`);
  }
  assert.equal(new Set(zh).size, problems.length);
  assert.match(zh[4], /第1张是S9，种子给出的是CA、第8张是CA/);
  assert.doesNotMatch(zh[4], /处/);
  assert.match(zh[5], /有12处/);
  assert.match(zh[6], /承诺00ff.*种子4460881154273567451.*第3号手.*牌桌t1a2.*应为9ab3/, 'the seed to its last digit');
  assert.match(en[3], /39 cards; its seed deals 40/);
  assert.match(en[5], /at 12 places: card 1 is S9 where the seed gives CA/);
  // A code the page does not know: the server's English.
  const unknown = /** @type {any} */ ({ hand: 0, fault: 'deck', detail: 'a form the page does not know', why: { code: 'new_check' } });
  assert.equal(dealDetail(unknown), 'a form the page does not know');
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
