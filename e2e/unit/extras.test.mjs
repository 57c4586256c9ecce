// The desktop notice's condition (web/js/notice.js), the lobby's bots without the research ones
// (web/js/lobby.js), the final score and rating change in words (web/js/final_score.js), and the
// players' names for players (web/js/i18n.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { desktopNoticeDue } from '../../web/js/notice.js';
import { lobbyBots } from '../../web/js/lobby.js';
import { finalScoreText, ratingDelta } from '../../web/js/final_score.js';
import { botTip, playerNames, setLang } from '../../web/js/i18n.js';

test('a desktop notice only when the turn arrives, switched on, allowed, and the tab hidden', () => {
  assert.equal(desktopNoticeDue(true, true, 'granted', true), true);
  assert.equal(desktopNoticeDue(true, true, 'granted', false), false, 'a visible tab has its title and chime');
  assert.equal(desktopNoticeDue(false, true, 'granted', true), false, 'not at every update of the turn');
  assert.equal(desktopNoticeDue(true, false, 'granted', true), false, 'switched off');
  assert.equal(desktopNoticeDue(true, true, 'default', true), false, 'not allowed yet');
  assert.equal(desktopNoticeDue(true, true, 'denied', true), false);
});

test('the lobby offers every bot but the research ones', () => {
  const info = { game: 'madiao', presets: {}, bots: ['random', 'heuristic', 'pimc', 'expert', 'pimc-coalition', 'pimc-mixed'], default_bot: 'heuristic', research_bots: ['pimc-coalition', 'pimc-mixed'] };
  assert.deepEqual(lobbyBots(info), ['random', 'heuristic', 'pimc', 'expert']);
  // A server that marks none: all of them.
  assert.deepEqual(lobbyBots({ ...info, research_bots: [] }), info.bots);
});

test('a final score in a line, and a rating change', () => {
  setLang('en');
  const madiao = { hands: 4, totals: [10, -5, 0, -5], stakes: [2, 2, 2, 2], chips: [40, -20, 0, -20], banked: [true, true, true, true], next_banker: null, over: true };
  assert.equal(finalScoreText(madiao, ['Ann', 'Bo', 'Cy', 'Di']), 'Ann +40 · Bo −20 · Cy 0 · Di −20');
  const dbf = { hands: 9, ranks: ['T', 'A'], next_starter: 1, deals_won: [4, 5], over: true, winner: 1 };
  assert.equal(finalScoreText(dbf, ['Ann', 'Bo', 'Cy', 'Di']), 'Ann & Cy: rank 10 · Bo & Di: rank A (won)');
  setLang('zh');
  assert.equal(finalScoreText(dbf, ['Ann', 'Bo', 'Cy', 'Di']), 'Ann & Cy：10级 · Bo & Di：A级（胜）');
  setLang('en');
  const change = { seat: 0, name: 'Ann', rating_before: 1500, rating_after: 1523.4, outcome: 'win', forfeited: false };
  assert.equal(ratingDelta(change), '+23');
  assert.equal(ratingDelta({ ...change, rating_after: 1492.6 }), '−7');
});

test('players by their names for players: bots by strength, two alike also by seat', () => {
  setLang('en');
  assert.deepEqual(playerNames(['Ann', 'bot:random', 'bot:pimc', 'bot:expert']), ['Ann', 'Beginner', 'Strong', 'Expert']);
  assert.deepEqual(playerNames(['Ann', 'bot:heuristic', 'bot:heuristic', 'Bo']), ['Ann', 'Club player 2', 'Club player 3', 'Bo']);
  // A person who calls himself as a bot is shown: the bot is told apart by its seat.
  assert.deepEqual(playerNames(['Beginner', 'bot:random', 'Cy', 'Di']), ['Beginner', 'Beginner 2', 'Cy', 'Di']);
  // A bot the page does not know: its id.
  assert.deepEqual(playerNames(['Ann', 'bot:newbot', 'Cy', 'Di']), ['Ann', 'newbot', 'Cy', 'Di']);
  assert.equal(botTip('bot:heuristic'), 'heuristic');
  assert.equal(botTip('Ann'), undefined);
  setLang('zh');
  assert.deepEqual(playerNames(['小明', 'bot:heuristic', 'bot:heuristic', 'bot:expert']), ['小明', '俱乐部水平2号', '俱乐部水平3号', '高手']);
  setLang('en');
});
