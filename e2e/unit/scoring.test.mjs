// The end of a hand in words (web/js/scoring.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  settlementLineText, withNames, withMadiaoNames, madiaoResultText, accountText, dabaifenResultText, eventText, signed, trumpText,
} from '../../web/js/scoring.js';

const names = ['Ann', 'Bo', 'Cy', 'Di'];

test('amounts and names', () => {
  assert.equal(signed(2), '+2');
  assert.equal(signed(-1.5), '−1.5');
  assert.equal(signed(0), '0');
  assert.equal(withNames('seat 2 (banker): 3 or more tricks (3): +1 from each player', names), 'Cy (banker): 3 or more tricks (3): +1 from each player');
  assert.equal(withMadiaoNames('won a trick with the reward card S9 (TB)'), 'won a trick with the reward card 九索 (百萬)');
});

test('a settlement line in both languages', () => {
  const line = { seat: 1, banker: 0, item: '3_or_more_tricks', counted: true, transfers: [-1, 3, -1, -1], text: 'seat 1: 3 or more tricks (4): +1 from each of seats 0, 2, 3', detail: { tricks: 4 } };
  assert.equal(settlementLineText(line, names, 'en'), 'Bo: 3 or more tricks (4): +1 from each of Ann, Cy, Di');
  assert.equal(settlementLineText(line, names, 'zh'), 'Bo：三墩以上（4墩），+3');
  assert.match(settlementLineText({ ...line, counted: false }, names, 'zh'), /不计/);
});

test('results in words', () => {
  const r = { outcome: 'played', tricks: [2, 3, 2, 1], payoffs: [-1, 2, 0, -1], next_banker: 1, game_over: false };
  assert.equal(madiaoResultText(r, names, 'en'), 'All eight tricks were played. Next banker: Bo.');
  assert.match(madiaoResultText({ ...r, next_banker: null, game_over: false }, names, 'zh'), /下一庄：重新抽庄/);
  assert.equal(madiaoResultText({ ...r, next_banker: null, game_over: true }, names, 'zh'), '八墩打完。本场结束。');
  const d = { outcome: 'played', trump: { suit: 'H', rank: '2' }, starter: 2, defender_points: 45, kitty_points: 10, last_trick: 1, winner: 1, levels: 0, ranks: ['2', '2'], next_starter: 3, game_over: false };
  assert.equal(dabaifenResultText(d, names, 'en'), 'The defenders took 45 points: team B (Bo & Di) wins. Ranks: 2 and 2.');
  assert.match(dabaifenResultText({ ...d, outcome: 'annulled' }, names, 'zh'), /作废/);
  assert.equal(trumpText({ suit: 'H', rank: 'T' }, 'en'), 'hearts, rank 10');
});

test('every account event reads in both languages', () => {
  const trump = { suit: 'S', rank: '5' };
  const events = [
    { event: 'declared', seat: 0, card: '5S', drawn: 17, trump, became_starter: true },
    { event: 'kitty_turned', starter: 1, turned: ['3H', '5C'], card: '5C', by_rank: true, trump },
    { event: 'no_showing' },
    { event: 'kept_deal', seat: 2 },
    { event: 'annulled', seat: 3, hand: ['AH', 'KH'] },
    { event: 'buried', seat: 0, cards: ['KH', 'TH', '5D', '2C', '3C', '4C'], points: 25 },
    { event: 'trick', number: 3, plays: [[0, ['AS']], [1, ['3S']], [2, ['KS']], [3, ['BJ']]], winner: 3, points: 10, to_defenders: true },
    { event: 'revoke', seat: 1, cards: ['KD', 'QD'], not_top: [['KD', 2, 'AD']] },
    { event: 'kitty', team: 1, to_defenders: true, kitty_points: 25, multiplier: 2, bonus: 50 },
    { event: 'total', in_tricks: 30, bonus: 50, total: 80, revoke: false, declarers_win: false, levels: 1 },
    { event: 'rank_up', team: 1, from: '9', to: 'T' },
    { event: 'next_starter', seat: 1, why: 'the defenders won: the starter\'s right' },
    { event: 'game_over', team: 0 },
  ];
  for (const e of events) {
    for (const l of ['en', 'zh']) {
      const s = accountText(e, names, l);
      assert.ok(s.length > 5 && !s.includes('undefined') && !s.includes('NaN'), `${e.event} ${l}: ${s}`);
    }
  }
  assert.equal(accountText(events[6], names, 'en'), 'Trick 3: Ann A♠, Bo 3♠, Cy K♠, Di Big joker → Di wins 10 points for the defenders');
  assert.match(accountText(events[10], names, 'en'), /from 9 to 10/);
});

test('table events in words, face-down cards unnamed', () => {
  assert.equal(eventText('madiao', { kind: 'action', seat: 1, action: { slough: null }, by_bot: true }, names, 'en'), 'Bo (bot) sloughs face down');
  assert.equal(eventText('madiao', { kind: 'action', seat: 0, action: { play: 'S9' }, by_bot: false }, names, 'en'), 'Ann plays 九索');
  assert.equal(eventText('dabaifen', { kind: 'action', seat: 2, action: { play: ['AS', 'KS'] }, by_bot: false }, names, 'en'), 'Cy plays A♠ K♠');
  assert.equal(eventText('dabaifen', { kind: 'action', seat: 2, action: { bury: null }, by_bot: false }, names, 'zh'), 'Cy埋底');
  assert.equal(eventText('madiao', { kind: 'window_closed', outcome: { redeal_forced_by: 3 } }, names, 'en'), 'Di forced a redeal with a long suit');
  assert.equal(eventText('dabaifen', { kind: 'window_closed', outcome: { annulled_by: null } }, names, 'en'), 'The window closed: play goes on');
});

test('issue 26: the Chinese account is written as mainland players write it', () => {
  const zhNames = ['机器人1', '机器人2', '机器人3', '小明'];
  const trump = { suit: 'D', rank: '2' };
  /** @type {any[]} */
  const events = [
    { event: 'declared', seat: 2, card: '2D', drawn: 11, trump, became_starter: true },
    { event: 'trick', number: 1, plays: [[2, ['6C']], [3, ['7C']], [0, ['9C']], [1, ['TC']]], winner: 1, points: 10, to_defenders: true },
    { event: 'total', in_tricks: 20, bonus: 0, total: 20, revoke: false, declarers_win: true, levels: 1 },
    { event: 'next_starter', seat: 0, why: "the declarers won: the starter's partner" },
    { event: 'next_starter', seat: 1, why: 'the defenders won: the seat after the starter' },
    { event: 'next_starter', seat: 1, why: "the starter's partner deals the open deal after an annulment" },
  ];
  const CJK = '[\\u3000-\\u303f\\u4e00-\\u9fff\\uff00-\\uffef]';
  for (const e of events) {
    const s = accountText(e, zhNames, 'zh');
    assert.ok(!new RegExp(`${CJK} | ${CJK}`).test(s), `no space beside a Chinese character: ${s}`);
    assert.ok(!/[A-Za-z]{2,}/.test(s), `no English: ${s}`);
    assert.ok(!s.includes('亲'), `the starter is 庄家: ${s}`);
  }
  // A player's name and his cards do not run together ("机器人36♣" read as 36♣).
  assert.match(accountText(events[1], zhNames, 'zh'), /机器人3出6♣/);
  assert.match(accountText(events[0], zhNames, 'zh'), /机器人3坐庄/);
  assert.match(accountText(events[3], zhNames, 'zh'), /庄方胜/);
});
