// Browser scenarios (headless Chromium against the real yezi binary, a server of this file's own):
// a 390×844 phone: a played card leaves the seats’ trick counts in view.

import { after, before, test } from 'node:test';
import { assert, clickAction, closeSuite, enterName, openSuite, sleep, snap, tableState, watchedPage } from '../lib/harness.mjs';

/** The suite's server, browser and pages (see openSuite). */
let suite;
let browser, base;
before(async () => {
  suite = await openSuite({ named: true });
  ({ browser, base } = suite);
});
after(() => closeSuite(suite));

test('a 390×844 phone: a played card leaves the seats’ trick counts in view', async () => {
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, baseURL: base, locale: 'en-US' });
  const p = await watchedPage(phone, 'phone390');
  await p.goto('/');
  await enterName(p, 'Pat');
  await p.locator('.new-table').waitFor();
  await p.locator('button[data-action="create"]').click();
  await p.locator('.felt').waitFor({ timeout: 20000 });
  let checked = 0;
  const deadline = Date.now() + 90000;
  while (checked < 3 && Date.now() < deadline) {
    const overlaps = await p.evaluate(() => {
      const box = (e) => { const r = e.getBoundingClientRect(); return { l: Math.round(r.left), r: Math.round(r.right), t: Math.round(r.top), b: Math.round(r.bottom), what: e.textContent }; };
      const stats = [...document.querySelectorAll('.felt > .seat .seat-stat')].map(box);
      const cards = [...document.querySelectorAll('.trick .play .card, .trick .play .play-who')].map(box);
      const hit = (a, b) => a.l < b.r && b.l < a.r && a.t < b.b && b.t < a.b;
      const pairs = stats.flatMap((s) => cards.filter((c) => hit(s, c)).map((c) => `${JSON.stringify(s)} under ${JSON.stringify(c)}`));
      // Nor does a play spill out of the middle of the felt into a seat's column.
      const middle = document.querySelector('.felt > .center');
      if (!middle) return { plays: 0, n: 0, pairs: [] };
      const center = box(middle);
      for (const c of cards) if (c.l < center.l - 1 || c.r > center.r + 1) pairs.push(`${JSON.stringify(c)} outside the middle ${JSON.stringify(center)}`);
      return { plays: document.querySelectorAll('.trick .play').length, n: pairs.length, pairs };
    });
    if (overlaps.plays >= 2) {
      checked += 1;
      if (checked === 1) await snap(p, 'phone-390-trick');
      if (overlaps.n) await snap(p, 'phone-390-overlap');
      assert(overlaps.n === 0, `a played card covers a seat's trick count or leaves the middle: ${overlaps.pairs}`);
    }
    const s = await tableState(p);
    if (s.handEnd && checked) break;
    if (s.handEnd) {
      // The hand ended before two cards lay together (a long suit's redeal
      // ends it at once): a fresh table deals a fresh hand.
      await p.goto('/');
      await p.locator('.new-table').waitFor();
      await p.locator('button[data-action="create"]').click();
      await p.locator('.felt').waitFor({ timeout: 20000 });
      continue;
    }
    if (s.legal === 'redeal') await clickAction(p, 'keep');
    else if (s.legal === 'actions' && s.legalCards.length) {
      await p.locator(`.hand .card[data-card="${s.legalCards[0]}"]`).click();
      const buttons = (await tableState(p)).buttons;
      await clickAction(p, ['lead', 'capture', 'slough'].find((b) => buttons.includes(b)) ?? buttons[0]);
    }
    await sleep(250);
  }
  assert(checked >= 1, 'a trick was seen on the phone');
  await phone.close();
});
