// The turn notice (web/js/notice.js): the chime sounds only when the turn arrives, and the tab's
// title carries the notice exactly while it is one's turn.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { turnArrived, turnTitle } from '../../web/js/notice.js';
import { STRINGS } from '../../web/js/i18n.js';

test('the turn arrives only on the update that makes it yours', () => {
  const turns = [false, true, true, false, false, true];
  const arrivals = turns.map((now, i) => turnArrived(i ? turns[i - 1] : false, now));
  assert.deepEqual(arrivals, [false, true, false, false, false, true]);
  assert.equal(turnArrived(true, false), false);
});

test('the title has the notice while it is your turn, and is the page’s own otherwise', () => {
  const base = 'yezi 葉子 — Madiao and Da Bai Fen';
  assert.equal(turnTitle(base, true, STRINGS.en['notice.your_turn']), `● Your turn — ${base}`);
  assert.equal(turnTitle(base, true, STRINGS.zh['notice.your_turn']), `● 轮到你了 — ${base}`);
  assert.equal(turnTitle(base, false, STRINGS.en['notice.your_turn']), base);
});
