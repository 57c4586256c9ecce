// Browser scenarios (headless Chromium against the real yezi binary, a server of this file's own):
// tutorials: each game’s scripted hand played to its end by clicking (Madiao in English on a
// desktop, Da Bai Fen in Chinese on a phone), and the first lessons of each the other way round.

import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { assert, closeSuite, openSuite, watchedPage } from '../lib/harness.mjs';
import { playTutorial } from '../lib/tables.mjs';

/** The suite's server, browser and pages (see openSuite). */
let suite;
let browser, desktop, base, page;
before(async () => {
  suite = await openSuite({ named: true });
  ({ browser, desktop, base, page } = suite);
});
after(() => closeSuite(suite));

test('tutorials: each game’s scripted hand played to its end by clicking (Madiao in English on a desktop, Da Bai Fen in Chinese on a phone), and the first lessons of each the other way round', async () => {
  const want = {
    madiao: ['tut.madiao.redeal', 'tut.madiao.slough', 'tut.madiao.slough_keep', 'tut.madiao.capture', 'tut.madiao.lead', 'tut.madiao.lead_again', 'tut.madiao.slough_again'],
    dabaifen: ['tut.dabaifen.declare', 'tut.dabaifen.bury', 'tut.dabaifen.lead_one', 'tut.dabaifen.follow', 'tut.dabaifen.follow_again', 'tut.dabaifen.lead_several'],
  };
  const runs = /** @type {const} */ ([
    ['madiao', { width: 1280, height: 900 }, 'en-US', 'tutorial-madiao-desktop-en'],
    ['dabaifen', { width: 390, height: 844 }, 'zh-CN', 'tutorial-dabaifen-phone-zh'],
    ['madiao', { width: 390, height: 844 }, 'zh-CN', 'tutorial-madiao-phone-zh'],
    ['dabaifen', { width: 1280, height: 900 }, 'en-US', 'tutorial-dabaifen-desktop-en'],
  ]);
  for (const [game, viewport, locale, label] of runs) {
    const phone = viewport.width < 500;
    const ctx = await browser.newContext({ viewport, baseURL: base, locale, ...(phone ? { deviceScaleFactor: 2, isMobile: true, hasTouch: true } : {}) });
    const p = await watchedPage(ctx, label);
    // Reached from the first page, before any name is picked.
    await p.goto('/');
    await p.locator(`.tutorial-links a[data-tutorial="${game}"]`).click();
    await p.locator('.tutorial-page').waitFor({ timeout: 15000 });
    const heading = await p.locator('.tutorial-head h2').textContent();
    assert(locale.startsWith('zh') ? heading.includes('教程') : heading.includes('Tutorial'), `${label}: in its language (${heading})`);
    // Each game is played to its end once; in the other language and size, its first lessons.
    const whole = label.endsWith('desktop-en') === (game === 'madiao');
    const seen = await playTutorial(p, game, label, whole ? Infinity : 3);
    for (const id of whole ? want[game] : want[game].slice(0, 3)) assert(seen.includes(id), `${label}: lesson ${id} shown (${seen.join(' ')})`);
    await ctx.close();
  }
});
