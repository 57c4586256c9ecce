// The tutorial page's pure helpers (web/js/tutorial.js): the learner's move compared with the
// script's, the words filled into a lesson, and every lesson kind with its explanation of a wrong
// move in both languages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { actionCards, currentLead, lessonParams, sameAction } from '../../web/js/tutorial.js';
import { STRINGS } from '../../web/js/i18n.js';

test('the learner’s move is the script’s: same kind, same cards in any order', () => {
  assert.ok(sameAction({ play: 'W0' }, { play: 'W0' }));
  assert.ok(!sameAction({ play: 'W0' }, { slough: 'W0' }), 'face up is not face down');
  assert.ok(!sameAction({ play: 'W2' }, { play: 'W0' }));
  assert.ok(sameAction({ redeal: false }, { redeal: false }));
  assert.ok(!sameAction({ redeal: true }, { redeal: false }));
  assert.ok(sameAction({ play: ['SJ', '2S'] }, { play: ['2S', 'SJ'] }), 'a lead of several in any order');
  assert.ok(!sameAction({ play: ['SJ'] }, { play: ['2S', 'SJ'] }));
  assert.ok(sameAction({ bury: ['7H', '6D', '7D', '8D', '7C', '9C'] }, { bury: ['9C', '7C', '8D', '7D', '6D', '7H'] }));
  assert.ok(!sameAction({ bury: ['7H', '6D', '7D', '8D', '7C', 'AS'] }, { bury: ['9C', '7C', '8D', '7D', '6D', '7H'] }));
  assert.ok(!sameAction(null, { play: 'W0' }));
  assert.deepEqual(actionCards({ declare: '2S' }), ['2S']);
  assert.equal(actionCards({ pass: true }), null);
});

test('a lesson’s words: the cards to play, the card led and who led it', () => {
  const names = ['Your seat', 'Bot 2', 'Bot 3', 'Bot 4'];
  const before = /** @type {any} */ ({ banker: 2, tricks: [{ plays: [{ seat: 1, card: 'W1', face_up: true }] }] });
  const p = lessonParams('madiao', /** @type {any} */ ({ seat: 0, action: { play: 'W0' } }), before, names, 'en');
  assert.equal(p.leader, 'Bot 2');
  assert.match(p.led, /1/);
  assert.match(p.cards, /Zero|空/);
  // A trick done (four plays) or none begun: nothing led.
  assert.equal(currentLead(/** @type {any} */ ({ tricks: [] })), null);
  const full = { tricks: [{ plays: [0, 1, 2, 3].map((s) => ({ seat: s, card: 'W1' })) }] };
  assert.equal(currentLead(/** @type {any} */ (full)), null);
  const dbf = lessonParams('dabaifen', /** @type {any} */ ({ seat: 0, action: { play: ['2S', 'SJ'] } }), /** @type {any} */ ({ tricks: [] }), names, 'zh');
  assert.ok(dbf.cards.includes('、'), `two cards listed: ${dbf.cards}`);
});

test('every lesson kind the server may send has its explanation of a wrong move, in both languages', () => {
  const rust = readFileSync(new URL('../../crates/wire/src/tutorial.rs', import.meta.url), 'utf8');
  const body = /pub enum Decision \{([\s\S]*?)\n\}/.exec(rust);
  assert.ok(body, 'the Decision enum');
  const kinds = [...body[1].matchAll(/^\s+([A-Z]\w+),/gm)].map((m) => m[1].replace(/[A-Z]/g, (c, i) => (i ? '_' : '') + c.toLowerCase()));
  assert.ok(kinds.length >= 10, kinds.join());
  for (const k of kinds) {
    for (const l of /** @type {const} */ (['en', 'zh'])) assert.ok(`tut.wrong_${k}` in STRINGS[l], `tut.wrong_${k} (${l})`);
  }
});
