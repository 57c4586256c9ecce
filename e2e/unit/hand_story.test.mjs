// Issue 11, items 12–16 (web/js/scoring.js, i18n.js, legal.js, rules.js): the events' trick and
// result lines, Da Bai Fen's trick counter and follow prompt, the Chinese settlement lines, the
// plurals and signs, the promoted reward card, mainland Simplified Chinese.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  settlementLineText, madiaoResultText, storyEvents, trickWonText, handResultLine, dabaifenTrickCounter,
} from '../../web/js/scoring.js';
import { STRINGS, translate } from '../../web/js/i18n.js';
import { cardsPrompt } from '../../web/js/legal.js';
import { RULES } from '../../web/js/rules.js';

const names = ['Ann', 'Bo', 'Cy', 'Di'];

/** A Madiao trick view. */
const mtrick = (number, winner, plays) => ({ number, leader: plays[0][0], winner, plays: plays.map(([seat, card, kind]) => ({ seat, card, kind, face_up: card !== null, can_win: true })) });

test('item 12: the story of a Madiao hand: each trick won once, then the end', () => {
  const t1 = mtrick(1, 2, [[1, 'S3', 'lead'], [2, 'S8', 'capture'], [3, null, 'slough'], [0, null, 'slough']]);
  const open2 = mtrick(2, null, [[2, 'M4', 'lead']]);
  const prev = { banker: 0, phase: 'play', tricks: [mtrick(1, null, [[1, 'S3', 'lead'], [2, 'S8', 'capture'], [3, null, 'slough']])], result: null };
  const view = { ...prev, tricks: [t1, open2] };
  const ev = storyEvents(prev, view);
  assert.deepEqual(ev, [{ kind: 'trick', number: 1, winner: 2, card: 'S8', points: null }]);
  assert.equal(trickWonText(ev[0], names, 'en'), 'Trick 1: Cy wins with 八索');
  assert.equal(trickWonText(ev[0], names, 'zh'), '第1墩：Cy以八索得墩');
  // The same view again adds nothing; the end adds a result line.
  assert.deepEqual(storyEvents(view, view), []);
  const result = { outcome: 'played', tricks: [2, 2, 3, 1], payoffs: [1, 0, 1, -2], next_banker: 1, game_over: false };
  const over = { ...view, phase: 'over', result };
  assert.deepEqual(storyEvents(view, over), [{ kind: 'result' }]);
  assert.deepEqual(storyEvents(over, over), []);
  assert.equal(handResultLine('madiao', 2, result, names, 'en'), 'Hand 3 is over: All eight tricks were played. Next banker: Bo.');
  assert.equal(handResultLine('madiao', 2, result, names, 'zh'), '第3手结束：八墩打完。下一庄：Bo。');
});

test('item 12: the story of a Da Bai Fen deal, tricks by points', () => {
  const prev = { phase: 'playing', tricks: [{ leader: 0, winner: null, points: null, plays: [{ seat: 0, cards: ['AS', 'KS'] }] }], result: null };
  const view = { phase: 'playing', tricks: [{ leader: 0, winner: 3, points: 15, plays: [] }, { leader: 3, winner: null, points: null, plays: [] }], result: null };
  const ev = storyEvents(prev, view);
  assert.deepEqual(ev, [{ kind: 'trick', number: 1, winner: 3, card: null, points: 15 }]);
  assert.equal(trickWonText(ev[0], names, 'en'), 'Trick 1: Di wins (15 points)');
  assert.equal(trickWonText(ev[0], names, 'zh'), '第1墩：Di得墩（15分）');
});

test('item 13: Da Bai Fen counts tricks by plays, not cards', () => {
  // Five tricks done (some multi-card), the sixth led with two cards: each seat started it with 2.
  const done = (leader) => ({ leader, winner: leader, points: 0, plays: [] });
  const view = {
    phase: 'playing',
    hand_sizes: [0, 2, 2, 2],
    tricks: [done(0), done(0), done(0), done(0), done(0), { leader: 0, winner: null, points: null, plays: [{ seat: 0, cards: ['AS', 'KS'] }] }],
  };
  assert.deepEqual(dabaifenTrickCounter(view), { number: 6, left: 2 });
  // A trick opened and not yet led: every seat holds what it has left.
  const fresh = { ...view, hand_sizes: [3, 3, 3, 3], tricks: [done(0), { leader: 1, winner: null, points: null, plays: [] }] };
  assert.deepEqual(dabaifenTrickCounter(fresh), { number: 2, left: 3 });
  assert.equal(dabaifenTrickCounter({ ...view, phase: 'over' }), null);
  assert.equal(translate('en', 'dbf.trick_n', { n: 6 }), 'Trick 6');
  assert.equal(translate('en', 'dbf.cards_left', { n: 1 }), '1 card each to play');
  assert.ok(!/of 12|十二/.test(STRINGS.en['dbf.trick_n'] + STRINGS.zh['dbf.trick_n']));
});

test('item 13: the follow prompt of a seat void in the led suit', () => {
  const hand = ['AH', 'KH', '3C'];
  // Void: the server offers the whole hand and nothing is required.
  assert.equal(cardsPrompt({ kind: 'cards', action: 'play', count: 2, must: [], from: hand }, 3), 'dbf.follow_any');
  assert.equal(cardsPrompt({ kind: 'cards', action: 'play', count: 2, must: [], from: ['AH', 'KH'] }, 3), 'dbf.follow_prompt');
  assert.equal(cardsPrompt({ kind: 'cards', action: 'play', count: 2, must: ['AH'], from: ['KH', '3C'] }, 3), 'dbf.follow_must');
  assert.equal(cardsPrompt({ kind: 'cards', action: 'bury', count: 6, must: [], from: hand }, 18), 'dbf.bury_prompt');
  assert.ok(!/led suit/.test(translate('en', 'dbf.follow_any', { n: 2 })));
  assert.equal(translate('en', 'dbf.follow_prompt', { n: 1 }), 'Follow with a card of the led suit.');
});

const line = (seat, item, transfers, text, detail = {}, banker = 0) => ({ seat, banker, item, counted: true, transfers, text, detail });

test('item 14: the Chinese settlement says the cards, the trick counts and the banker', () => {
  const a = line(0, 'reward_trick', [3, -1, -1, -1], 'seat 0 (banker): won a trick with the reward card M9: +1 from each player (+3)', { card: 'M9', promoted: false });
  const b = line(0, 'reward_trick', [3, -1, -1, -1], 'seat 0 (banker): won a trick with the reward card S9: +1 from each player (+3)', { card: 'S9', promoted: false });
  const za = settlementLineText(a, names, 'zh');
  const zb = settlementLineText(b, names, 'zh');
  assert.notEqual(za, zb, 'two reward lines read differently');
  assert.equal(za, 'Ann（庄家）：以赏牌得墩：九万，+3');
  assert.match(zb, /九索/);
  const tricks = line(2, 'fewer_than_2_tricks', [1, 0, -1, 0], 'seat 2: fewer than 2 tricks (1): pays the banker 1', { tricks: 1 });
  assert.equal(settlementLineText(tricks, names, 'zh'), 'Cy：不足两墩（1墩），−1');
  const stock = line(3, 'stock_check', [1, 1, 1, -3], 'stock check: under the upcard lies S9, the top strings; seat 3 played S8, its second card: pays 1 to each of seats 0, 1, 2 (-3)', { exposed: 'S9', second: 'S8', face_up: true });
  assert.equal(settlementLineText(stock, names, 'zh'), 'Di：查底：翻牌下为九索（索门之尊），Di明出该门第二张八索，−3');
  const discard = line(1, 'faceup_discard', [2, -2, 0, 0], 'seat 1: face-up discard of W3 in trick 4: pays the banker 2', { card: 'W3', trick: 4 });
  assert.match(settlementLineText(discard, names, 'zh'), /第4墩明弃三文/);
});

test('item 15: no "(-3)" beside "−3"; the last hand names no next banker; plurals', () => {
  const l = line(2, 'fewer_than_2_tricks', [1, 1, -3, 1], 'seat 2 (banker): fewer than 2 tricks (1): pays 1 to each of seats 0, 1, 3 (-3)', { tricks: 1 }, 2);
  assert.equal(settlementLineText(l, names, 'en'), 'Cy (banker): fewer than 2 tricks (1): pays 1 to each of Ann, Bo, Di');
  const r = { outcome: 'played', tricks: [2, 3, 2, 1], payoffs: [-1, 2, 0, -1], next_banker: 2, game_over: true };
  assert.equal(madiaoResultText(r, names, 'en'), 'All eight tricks were played. The match is over.');
  assert.equal(madiaoResultText(r, names, 'zh'), '八墩打完。本场结束。');
  assert.equal(translate('en', 'seat.tricks', { n: 1 }), '1 trick');
  assert.equal(translate('en', 'seat.tricks', { n: 0 }), '0 tricks');
  assert.equal(translate('en', 'score.hands', { n: 1 }), '1 hand played');
  assert.equal(translate('zh', 'seat.tricks', { n: 1 }), '1墩');
  for (const [k, v] of Object.entries(STRINGS.en)) assert.ok(!/\(s\)/.test(v), `${k}: ${v}`);
});

test('item 16: the promoted reward card is explained in the line that pays it and on the rules page', () => {
  const text = 'seat 1: won a trick with the reward card M8 (promoted: the upcard is M9, the top myriads card, so the second card M8 takes its place): +1 from the banker';
  const l = line(1, 'reward_trick', [-1, 1, 0, 0], text, { card: 'M8', promoted: true });
  assert.match(settlementLineText(l, names, 'en'), /reward card 八萬 \(promoted: the upcard is 九萬/);
  assert.equal(settlementLineText(l, names, 'zh'), 'Bo：以赏牌得墩：八万（递补赏牌：翻牌九万是万门之尊，由该门第二张八万递补为赏牌），+1');
  const en = JSON.stringify(RULES.madiao.en);
  const zh = JSON.stringify(RULES.madiao.zh);
  assert.match(en, /promoted to reward card/);
  assert.match(zh, /递补为赏牌/);
});

test('item 14: mainland Simplified Chinese, and the Madiao upcard is not 底牌', () => {
  const dir = new URL('../../web/js/', import.meta.url);
  const zh = Object.values(STRINGS.zh).join('\n');
  const taiwan = /连结|讯息|送出|预设|档案|伺服器|连线|载入|贴上|扣著|空白键|級/;
  assert.ok(!taiwan.test(zh), `i18n: ${zh.match(taiwan)}`);
  for (const f of ['rules.js', 'scoring.js', 'variants.js', 'hand_end.js', 'table.js', 'board.js']) {
    const src = readFileSync(new URL(f, dir), 'utf8');
    assert.ok(!taiwan.test(src), `${f}: ${src.match(taiwan)}`);
  }
  assert.equal(STRINGS.zh['madiao.upcard'], '翻牌');
  assert.ok(!STRINGS.zh['madiao.exposed'].includes('底牌'));
  // Madiao's Chinese rules call the upcard 翻牌 (Da Bai Fen's kitty stays 底牌).
  const mz = JSON.stringify(RULES.madiao.zh);
  assert.ok(!mz.includes('底牌'), mz.match(/.{0,20}底牌.{0,20}/)?.[0]);
  assert.ok(mz.includes('翻牌'));
  assert.ok(JSON.stringify(RULES.dabaifen.zh).includes('底牌'));
});

test('item 15: no emoji in the interface (a machine without an emoji font shows an empty box): the bot mark is drawn', () => {
  const dir = new URL('../../web/js/', import.meta.url);
  for (const f of ['lobby.js', 'table.js', 'board.js', 'hand_end.js', 'ui.js', 'main.js', 'i18n.js', 'i18n/en.js', 'i18n/zh.js']) {
    const src = readFileSync(new URL(f, dir), 'utf8');
    const emoji = src.match(/[\u{1F000}-\u{1FAFF}]/u);
    assert.ok(!emoji, `${f} has ${emoji}`);
  }
  assert.match(readFileSync(new URL('ui.js', dir), 'utf8'), /export function BotIcon\(\)[\s\S]*<svg/);
});
