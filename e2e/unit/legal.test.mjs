// Choices from the server's `legal` (web/js/legal.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { madiaoChoices, madiaoPlayKind, clickable, initialSelection, toggle, check, cardsAction, revokeRisk } from '../../web/js/legal.js';

test('Madiao: each card with its face-up and face-down choices', () => {
  const m = madiaoChoices([{ slough: 'W8' }, { slough: 'S3' }, { play: 'S3' }, { play: 'TQ' }]);
  assert.deepEqual(m.get('S3'), { play: true, slough: true });
  assert.deepEqual(m.get('W8'), { play: false, slough: true });
  assert.deepEqual(m.get('TQ'), { play: true, slough: false });
  assert.equal(m.get('M1'), undefined);
  assert.deepEqual([...clickable({ kind: 'actions', actions: [{ slough: 'W8' }, { play: 'TQ' }] })].sort(), ['TQ', 'W8']);
});

test('Madiao: what a face-up card is, as the server says', () => {
  const legal = { kind: 'actions', actions: [{ play: 'S7' }, { play: 'S2' }, { slough: 'S2' }], captures: ['S7'] };
  assert.equal(madiaoPlayKind(legal, true, 'S2'), 'lead');
  assert.equal(madiaoPlayKind(legal, false, 'S7'), 'capture');
  assert.equal(madiaoPlayKind(legal, false, 'S2'), 'discard');
  assert.equal(madiaoPlayKind(null, false, 'S7'), 'discard');
});

test('Da Bai Fen follow: the must cards begin selected and stay, exactly count cards', () => {
  const legal = { kind: 'cards', action: 'play', count: 3, must: ['AS'], from: ['2H', '3H', '4D'] };
  let sel = initialSelection(legal);
  assert.deepEqual(sel, ['AS']);
  assert.deepEqual(check(legal, sel), { ok: false, why: 'why.choose_n', n: 3 });
  sel = toggle(legal, sel, 'AS');
  assert.deepEqual(sel, ['AS'], 'a must card stays');
  sel = toggle(legal, sel, '2H');
  sel = toggle(legal, sel, '3H');
  assert.deepEqual(check(legal, sel), { ok: true });
  assert.deepEqual(cardsAction(legal, sel), { play: ['AS', '2H', '3H'] });
  // A fourth card replaces the last free one, never a must card.
  sel = toggle(legal, sel, '4D');
  assert.equal(sel.length, 3);
  assert.ok(sel.includes('AS') && sel.includes('4D'));
  assert.equal(toggle(legal, sel, 'KC').join(), sel.join(), 'a card not offered cannot be chosen');
  assert.deepEqual(check(legal, ['2H', '3H', '4D']), { ok: false, why: 'why.must' });
  assert.deepEqual(check(legal, ['AS', 'AS', '2H']).ok, false);
});

test('Da Bai Fen burial: six cards', () => {
  const from = ['BJ', 'AS', 'KS', '2H', '3H', '4H', '5D', '6D'];
  const legal = { kind: 'cards', action: 'bury', count: 6, must: [], from };
  let sel = [];
  for (const c of from.slice(0, 6)) sel = toggle(legal, sel, c);
  assert.deepEqual(cardsAction(legal, sel), { bury: from.slice(0, 6) });
  assert.equal(cardsAction(legal, sel.slice(0, 5)), null);
});

test('Da Bai Fen lead: one card, or several of one group; under refuse only top cards', () => {
  const legal = {
    kind: 'lead', revoke: 'penalize',
    singles: ['SJ', '6S', 'AS', 'QS', '9S', '3H'],
    groups: [{ suit: 'trumps', cards: ['SJ', '6S'] }, { suit: 'S', cards: ['AS', 'QS', '9S'] }],
  };
  let sel = toggle(legal, [], 'AS');
  assert.deepEqual(check(legal, sel), { ok: true });
  sel = toggle(legal, sel, 'QS');
  assert.deepEqual(sel, ['AS', 'QS']);
  assert.deepEqual(check(legal, sel), { ok: true });
  assert.ok(revokeRisk(legal, sel), 'penalize: a multi-card lead may be a revoke');
  assert.ok(!revokeRisk(legal, ['AS']));
  // A card of another group starts again.
  assert.deepEqual(toggle(legal, sel, 'SJ'), ['SJ']);
  assert.deepEqual(check(legal, ['AS', '3H']), { ok: false, why: 'why.one_suit' });
  assert.deepEqual(cardsAction(legal, ['AS', 'QS']), { play: ['AS', 'QS'] });
  const refuse = { ...legal, revoke: 'refuse', groups: [{ suit: 'S', cards: ['AS', 'QS', '9S'], tops: ['AS'] }] };
  assert.deepEqual(check(refuse, ['AS', 'QS']), { ok: false, why: 'why.tops_only' });
  assert.ok(!revokeRisk(refuse, ['AS', 'QS']));
});

test('no legal: nothing can be chosen', () => {
  assert.deepEqual([...clickable(null)], []);
  assert.deepEqual(check(null, ['AS']).ok, false);
  assert.deepEqual(toggle(null, [], 'AS'), []);
});
