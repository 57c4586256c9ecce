// Where the page's messages sit (web/js/ui.js, noticeLift): above what they keep clear of at the
// foot of the screen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { noticeLift } from '../../web/js/ui.js';

test('nothing at the foot of the screen: the messages sit at its foot', () => {
  assert.equal(noticeLift(844, []), 0);
  // A box in the upper half (the felt's top) or below the screen does not lift them.
  assert.equal(noticeLift(844, [{ top: 100, bottom: 400 }]), 0);
  assert.equal(noticeLift(844, [{ top: 900, bottom: 1100 }]), 0);
});

test('a phone\'s prompt and hand at the foot: the messages sit above their top', () => {
  assert.equal(noticeLift(844, [{ top: 655, bottom: 840 }]), 189);
  // The highest of several boxes counts; one cut by the screen's foot still counts.
  assert.equal(noticeLift(740, [{ top: 600, bottom: 700 }, { top: 551, bottom: 800 }]), 189);
  // A box reaching into the screen's upper third (a page scrolled to it) leaves no room above
  // it: the messages stay at the foot, on the screen.
  assert.equal(noticeLift(740, [{ top: -50, bottom: 700 }]), 0);
  assert.equal(noticeLift(740, [{ top: 200, bottom: 700 }]), 0);
  assert.equal(noticeLift(740, [{ top: 260, bottom: 700 }]), 480);
  // An empty box (hidden) does not count.
  assert.equal(noticeLift(740, [{ top: 600, bottom: 600 }]), 0);
});
