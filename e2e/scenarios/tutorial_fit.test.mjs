// Browser scenarios (headless Chromium against the real yezi binary, a server of this file's own):
// each game's tutorial (its guided hand) played to its end at each viewport of the table's layout
// (docs/web.md, "A table that fits": laptops and desktops, phones upright and sideways): at every
// step, and at the end where the scoring joins the felt, no card of the trick (nor the name under
// it) lies over a seat's label ("Your seat", a bot's name and its badges), and none lies outside
// the felt. Before the fix the last trick's bottom card covered "Your seat" at every viewport.
// The top bar's links above it do not run into each other (on phones they did). Da Bai Fen's
// information takes more lines above its trick: on phones shorter than 820 px the lesson gives it
// room (before, its last plays ran over "Your seat" at 375×812 and 360×740).

import { after, before, test } from 'node:test';
import { assert, closeSuite, log, openSuite, snap, watchedPage } from '../lib/harness.mjs';
import { playTutorial } from '../lib/tables.mjs';

/** The viewports of the table's layout (viewports.test.mjs), a desktop one, and a 375 px phone. */
const VIEWPORTS = [
  { name: 'laptop-1366x657', width: 1366, height: 657 },
  { name: '1280x720', width: 1280, height: 720 },
  { name: '1280x900', width: 1280, height: 900 },
  { name: 'desktop-1920x969', width: 1920, height: 969 },
  { name: 'phone-390x844', width: 390, height: 844, phone: true },
  { name: 'phone-375x812', width: 375, height: 812, phone: true },
  { name: 'phone-360x740', width: 360, height: 740, phone: true },
  { name: 'phone-sideways-844x390', width: 844, height: 390, phone: true },
];

/** @type {any} */
let suite;
before(async () => {
  suite = await openSuite({ named: false });
});
after(() => closeSuite(suite));

/**
 * The trick's cards (and the names under them) that cover a seat's label, or stick out of the
 * felt, as the page lies now.
 * @param {import('playwright-core').Page} p
 */
function clashes(p) {
  return p.evaluate(() => {
    const hit = (/** @type {DOMRect} */ a, /** @type {DOMRect} */ b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
    const felt = document.querySelector('.tutorial-page .felt')?.getBoundingClientRect();
    // Each card of the trick, and the name under it (the play's label).
    const cards = [...document.querySelectorAll('.tutorial-page .felt .trick .play')].flatMap((p) => [
      ...[...p.querySelectorAll('.card')].map((c) => ({ card: c.getAttribute('data-card') ?? '?', r: c.getBoundingClientRect() })),
      ...[...p.querySelectorAll('.play-who')].map((w) => ({ card: `the name "${w.textContent?.trim()}"`, r: w.getBoundingClientRect() })),
    ]);
    const labels = [...document.querySelectorAll('.tutorial-page .felt .seat .seat-head')].map((h) => ({ seat: h.closest('.seat')?.getAttribute('data-seat') ?? '?', text: h.textContent?.trim() ?? '', r: h.getBoundingClientRect() }));
    /** @type {string[]} */
    const out = [];
    const at = (/** @type {DOMRect} */ r) => `${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}×${Math.round(r.height)}`;
    for (const c of cards) {
      for (const l of labels) if (hit(c.r, l.r)) out.push(`${c.card} (${at(c.r)}) covers seat ${l.seat}'s label "${l.text}" (${at(l.r)})`);
      if (felt && (c.r.top < felt.top - 0.5 || c.r.bottom > felt.bottom + 0.5 || c.r.left < felt.left - 0.5 || c.r.right > felt.right + 0.5)) {
        out.push(`${c.card} (${at(c.r)}) is outside the felt (${at(felt)})`);
      }
    }
    return { out, cards: cards.length, labels: labels.length };
  });
}

test('tutorial fit: neither tutorial\'s trick covers a seat\'s label, to the end of the hand, at any viewport', { timeout: 600000 }, async () => {
  const { browser, base } = suite;
  /** What went wrong, at every viewport (all are played before the test fails). @type {string[]} */
  const failures = [];
  for (const game of /** @type {const} */ (['madiao', 'dabaifen'])) for (const vp of VIEWPORTS) {
    const ctx = await browser.newContext({ viewport: { width: vp.width, height: vp.height }, baseURL: base, locale: 'en-US', ...(vp.phone ? { deviceScaleFactor: 2, isMobile: true, hasTouch: true } : {}) });
    const p = await watchedPage(ctx, `tutorial-fit-${game}-${vp.name}`);
    /** @type {string[]} */
    const bad = [];
    let checked = 0;
    await playTutorial(p, game, `tutorial-fit-${game}-${vp.name}`, Infinity, true, async (step) => {
      const c = await clashes(p);
      if (c.cards) checked += 1;
      for (const x of c.out) if (bad.length < 12) bad.push(`step ${step}: ${x}`);
    });
    // The end of the hand: the last trick stays on the felt beside the scoring.
    const end = await clashes(p);
    await snap(p, `tutorial-fit-${game}-${vp.name}-last-trick`);
    log(`${game} ${vp.name}: ${checked} steps with cards in the trick; at the end ${end.cards} cards and names, ${end.labels} seat labels`);
    assert(end.cards >= 8 && end.labels === 4, `${game} ${vp.name}: the last trick and the four seats are on the felt at the end (${end.cards} cards and names, ${end.labels} seat labels)`);
    assert(checked >= 8, `${game} ${vp.name}: the trick was measured at every trick (${checked} steps)`);
    if (end.out.length) failures.push(`${game} ${vp.name}, the end of the hand: ${end.out.join('; ')}`);
    // The top bar above the tutorial (one line, scrolling sideways on a phone): no link's words
    // run into the next one's.
    const links = await p.evaluate(() => [...document.querySelectorAll('header.top nav a')].map((a) => {
      const r = document.createRange();
      r.selectNodeContents(a);
      const t = r.getBoundingClientRect();
      return { text: a.textContent?.trim() ?? '', left: t.left, right: t.right };
    }));
    for (let i = 1; i < links.length; i += 1) {
      if (links[i].left < links[i - 1].right - 0.5) failures.push(`${game} ${vp.name}: the top bar's "${links[i - 1].text}" runs into "${links[i].text}"`);
    }
    if (bad.length) failures.push(`${game} ${vp.name}, during the hand: ${bad.join('; ')}`);
    await ctx.close();
  }
  assert(failures.length === 0, failures.join('\n'));
});
