// Cards of both games: names, order, colours, sorting (web/js/cards.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  MADIAO_ORDER, MADIAO_RED, madiaoName, madiaoNameZh, madiaoEnglish, MADIAO_SUITS, madiaoIndex, madiaoStrength, sortMadiao,
  isMadiaoCard, isDabaifenCard, sortDabaifen, isTrump, cardPoints, dabaifenLabel, dabaifenStrength, effectiveSuit, cardLabel,
} from '../../web/js/cards.js';

test('every Madiao card has a distinct Chinese name, the printed ones', () => {
  assert.equal(MADIAO_ORDER.length, 40);
  assert.equal(new Set(MADIAO_ORDER).size, 40);
  const names = MADIAO_ORDER.map(madiaoName);
  assert.equal(new Set(names).size, 40);
  assert.equal(madiaoName('TW'), '萬萬');
  assert.equal(madiaoName('TQ'), '千萬');
  assert.equal(madiaoName('TB'), '百萬');
  assert.equal(madiaoName('T9'), '九十萬');
  assert.equal(madiaoName('T2'), '二十萬');
  assert.equal(madiaoName('M9'), '九萬');
  assert.equal(madiaoName('S9'), '九索');
  assert.equal(madiaoName('S1'), '一索');
  assert.equal(madiaoName('W0'), '空沒文');
  assert.equal(madiaoName('WH'), '半文');
  assert.equal(madiaoName('W9'), '九文');
  assert.equal(madiaoEnglish('T5'), '5 tens');
  assert.equal(madiaoEnglish('M5'), '5 myriads');
  assert.equal(madiaoEnglish('M1'), '1 myriad');
  assert.equal(madiaoNameZh('T9'), '九十万');
  assert.equal(madiaoNameZh('W0'), '空没文');
  assert.equal(madiaoEnglish('W0'), 'Zero cash');
  assert.equal(madiaoIndex('WH'), '½');
  assert.equal(madiaoIndex('T4'), '40');
  assert.ok(isMadiaoCard('W0') && !isMadiaoCard('W10') && !isMadiaoCard('AS'));
});

test('the ten red cards of the rules', () => {
  assert.deepEqual([...MADIAO_RED].sort(), ['M1', 'M9', 'S1', 'S9', 'T2', 'TB', 'TQ', 'TW', 'W0', 'W9']);
});

test('Madiao order: highest first in each suit, cash reversed', () => {
  const above = (a, b) => madiaoStrength(a) > madiaoStrength(b);
  assert.ok(above('TW', 'TQ'));
  assert.ok(above('TB', 'T9'));
  assert.ok(above('W0', 'WH'));
  assert.ok(above('WH', 'W1'));
  assert.ok(above('W1', 'W9'), '1 cash above 9 cash');
  assert.ok(!above('W9', 'W1'));
  assert.ok(madiaoStrength('TW') > madiaoStrength('T2'));
  assert.deepEqual(sortMadiao(['W9', 'S1', 'TW', 'W0', 'M5']), ['TW', 'M5', 'S1', 'W0', 'W9']);
});

test('Da Bai Fen labels, points and trumps', () => {
  assert.equal(dabaifenLabel('TH', 'en'), '10♥');
  assert.equal(dabaifenLabel('AS', 'zh'), 'A♠');
  assert.equal(dabaifenLabel('BJ', 'zh'), '大王');
  assert.equal(dabaifenLabel('SJ', 'en'), 'Small joker');
  assert.ok(isDabaifenCard('BJ') && isDabaifenCard('2C') && !isDabaifenCard('1C') && !isDabaifenCard('AX'));
  const deck = ['BJ', 'SJ'];
  for (const s of 'SHDC') for (const r of 'AKQJT98765432') deck.push(r + s);
  assert.equal(deck.reduce((n, c) => n + cardPoints(c), 0), 100);
  const trump = { suit: 'H', rank: '8' };
  assert.equal(deck.filter((c) => isTrump(c, trump)).length, 18);
  assert.ok(isTrump('8S', trump) && isTrump('2H', trump) && isTrump('SJ', null) && !isTrump('AS', trump));
  assert.equal(effectiveSuit('8C', trump), 'trumps');
  assert.equal(effectiveSuit('8C', null), 'C');
  assert.equal(cardLabel('madiao', 'S9', 'zh'), '九索');
});

test('Da Bai Fen trump order of the rules: BJ > SJ > 8H > 8S = 8C = 8D > AH > … > 9H > 7H', () => {
  const trump = { suit: 'H', rank: '8' };
  const s = (c) => dabaifenStrength(c, trump);
  assert.ok(s('BJ') > s('SJ') && s('SJ') > s('8H') && s('8H') > s('8S'));
  assert.equal(s('8S'), s('8C'));
  assert.ok(s('8D') > s('AH') && s('AH') > s('KH') && s('9H') > s('7H'));
});

test('hands sort as the server shows them: trumps together, strongest first, then S H D C', () => {
  const trump = { suit: 'H', rank: '8' };
  assert.deepEqual(
    sortDabaifen(['3C', '8D', 'AH', 'KS', 'BJ', '8H', '9H', '8S', 'AS', '2D', 'SJ'], trump),
    ['BJ', 'SJ', '8H', '8S', '8D', 'AH', '9H', 'AS', 'KS', '2D', '3C'],
  );
  // Before trumps are fixed: jokers first, then by printed suit, high first.
  assert.deepEqual(sortDabaifen(['3C', '8D', 'AH', 'SJ', '2S', 'BJ'], null), ['BJ', 'SJ', '2S', 'AH', '8D', '3C']);
});

test('the figures on the Madiao cards follow the table’s deck (generated from the Rust table)', async () => {
  const { madiaoFigure, ZERO_CASH } = await import('../../web/js/cards.js');
  assert.deepEqual(ZERO_CASH, ['unnamed', 'blank', 'wang_ying']);
  assert.equal(madiaoFigure('TW').name, '宋江');
  assert.equal(madiaoFigure('TW').reading, 'Song Jiang');
  assert.equal(madiaoFigure('M1', 'blank').name, '燕青');
  assert.equal(madiaoFigure('T2', 'wang_ying').name, '扈三娘');
  // The Tens and the Myriads have heroes under every deck; the strings and other cash none.
  for (const z of ZERO_CASH) {
    for (const c of MADIAO_ORDER) {
      const f = madiaoFigure(c, z);
      if (c[0] === 'T' || c[0] === 'M') assert.ok(f && f.name, `${c} under ${z}`);
      else if (c !== 'W0') assert.equal(f, null, `${c} under ${z}`);
    }
  }
  assert.deepEqual(madiaoFigure('W0'), { name: null, reading: null, source: 'li_dongqi' });
  assert.equal(madiaoFigure('W0', 'blank'), null);
  assert.equal(madiaoFigure('W0', 'wang_ying').name, '王英');
  // An absent or unknown deck (an older server) draws the default.
  assert.deepEqual(madiaoFigure('W0', null), madiaoFigure('W0', 'unnamed'));
  assert.deepEqual(madiaoFigure('W0', /** @type {any} */ ('nonsense')), madiaoFigure('W0', 'unnamed'));
});

test('a Madiao card is named by its own suit: no card of the Tens reads as one of the Myriads', () => {
  // Issue 26: the Tens were called "80 myriad" beside the suit "Myriads".
  for (const c of MADIAO_ORDER) {
    const name = madiaoEnglish(c).toLowerCase();
    const suit = MADIAO_SUITS[/** @type {'T' | 'M' | 'S' | 'W'} */ (c[0])].en.toLowerCase();
    if (['TW', 'TQ', 'TB'].includes(c)) continue; // Myriad Myriad, Thousand and Hundred Myriad: their names
    assert.ok(name.includes(suit.replace(/s$/, '')), `${c}: "${name}" names its suit ${suit}`);
    for (const other of Object.values(MADIAO_SUITS)) {
      const o = other.en.toLowerCase().replace(/s$/, '');
      if (o !== suit.replace(/s$/, '')) assert.ok(!name.includes(o), `${c}: "${name}" names another suit (${other.en})`);
    }
  }
});
