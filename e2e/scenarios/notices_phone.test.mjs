// Browser scenarios (headless Chromium against the real yezi binary, a server of this file's own):
// the page's messages (the toasts of web/js/ui.js: "a card queued was dropped", "notifications
// are blocked", an error) at a table on a phone (docs/web.md, "Notices"). They come at the foot of
// the screen, where a phone has the player's prompt, its buttons and his hand: they must keep
// above them, inside the screen, and let a tap through. Upright at 390×844 and 360×740, in English
// and Chinese, and on a laptop for comparison.

import { after, before, test } from 'node:test';
import { assert, closeSuite, createTable, enterName, log, openSuite, sleep, snap, tableState, watchedPage } from '../lib/harness.mjs';

const VIEWPORTS = [
  { name: 'phone-390x844', width: 390, height: 844, phone: true, locale: 'en-US' },
  { name: 'phone-360x740', width: 360, height: 740, phone: true, locale: 'zh-CN' },
  { name: 'laptop-1366x657', width: 1366, height: 657, phone: false, locale: 'en-US' },
];

/** @type {any} */
let suite;
before(async () => {
  suite = await openSuite({ named: false });
});
after(() => closeSuite(suite));

/**
 * The messages' boxes and what they cover at the foot of the table: the prompt's buttons, the
 * hand's cards and the player's area around them.
 * @param {import('playwright-core').Page} p
 */
function covered(p) {
  return p.evaluate(() => {
    const hit = (/** @type {DOMRect} */ a, /** @type {DOMRect} */ b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
    const at = (/** @type {DOMRect} */ r) => `${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}×${Math.round(r.height)}`;
    const notices = [...document.querySelectorAll('.notices .notice')].map((n) => ({ text: n.textContent ?? '', r: n.getBoundingClientRect() }));
    const needed = [
      ...[...document.querySelectorAll('.my-area')].map((e) => ({ what: 'the player\'s area', r: e.getBoundingClientRect() })),
      ...[...document.querySelectorAll('.prompt button')].map((e) => ({ what: `the button "${e.textContent?.trim()}"`, r: e.getBoundingClientRect() })),
      ...[...document.querySelectorAll('.hand .card')].map((e) => ({ what: `the card ${e.getAttribute('data-card')}`, r: e.getBoundingClientRect() })),
    ];
    /** @type {string[]} */
    const out = [];
    for (const n of notices) {
      for (const x of needed) if (hit(n.r, x.r)) out.push(`"${n.text}" (${at(n.r)}) covers ${x.what} (${at(x.r)})`);
      if (n.r.top < 0 || n.r.left < 0 || n.r.bottom > innerHeight + 0.5 || n.r.right > innerWidth + 0.5) out.push(`"${n.text}" (${at(n.r)}) is off the screen`);
    }
    const tray = document.querySelector('.notices');
    return { out, notices: notices.length, buttons: document.querySelectorAll('.prompt button').length, cards: document.querySelectorAll('.hand .card').length, through: tray ? getComputedStyle(tray).pointerEvents : '' };
  });
}

test('notices on a phone: the page\'s messages keep above the player\'s prompt, buttons and hand', { timeout: 300000 }, async () => {
  const { browser, base } = suite;
  /** @type {string[]} */
  const failures = [];
  for (const vp of VIEWPORTS) {
    const ctx = await browser.newContext({ viewport: { width: vp.width, height: vp.height }, baseURL: base, locale: vp.locale, ...(vp.phone ? { deviceScaleFactor: 2, isMobile: true, hasTouch: true } : {}) });
    const p = await watchedPage(ctx, `notices-${vp.name}`);
    await p.goto('/');
    await enterName(p, vp.locale.startsWith('zh') ? '小明' : 'Noa');
    await p.locator('.new-table').waitFor();
    await createTable(p, 'madiao', { clock: '600' });
    await p.waitForFunction(() => document.querySelectorAll('.hand .card').length >= 8, null, { timeout: 20000 });
    // The player's turn (the redeal question or his first card, chosen): the prompt has its buttons.
    const deadline = Date.now() + 60000;
    for (;;) {
      const s = await tableState(p);
      if (s.myTurn && s.buttons.length) break;
      if (s.myTurn && s.legalCards.length) await p.locator(`.hand .card[data-card="${s.legalCards[0]}"]`).click();
      // A redeal ends the hand at once: on to the next one.
      if (s.handEnd) await p.locator('.hand-end button[data-action="next"]').click({ timeout: 3000 }).catch(() => {});
      if (Date.now() > deadline) {
        await snap(p, `notices-${vp.name}-no-turn`);
        assert(false, `${vp.name}: the player's turn came (${JSON.stringify(s)})`);
      }
      await sleep(200);
    }
    // Messages, as the table gives them (the bell asks for desktop notifications, which the
    // test's browser refuses: "notifications are blocked"), three of them at once.
    const count = () => p.evaluate(() => document.querySelectorAll('.notices .notice').length);
    for (let tries = 0; (await count()) < 3; tries += 1) {
      assert(tries < 10, `${vp.name}: the bell gave its message (${await count()} shown)`);
      const before = await count();
      await p.locator('button[data-action="notify"]').click();
      await p.waitForFunction((n) => document.querySelectorAll('.notices .notice').length > n, before, { timeout: 3000 }).catch(() => {});
    }
    const c = await covered(p);
    await snap(p, `notices-${vp.name}`);
    log(`${vp.name}: ${c.notices} notices, ${c.buttons} prompt buttons, ${c.cards} cards; the tray lets taps through: ${c.through}`);
    assert(c.buttons >= 1 && c.cards >= 8, `${vp.name}: the prompt's buttons and the hand are there (${c.buttons}, ${c.cards})`);
    if (c.out.length) failures.push(`${vp.name}: ${c.out.slice(0, 6).join('; ')}`);
    if (c.through !== 'none') failures.push(`${vp.name}: the tray takes taps (pointer-events ${c.through})`);
    // A tap on the prompt's button goes through, the messages still shown.
    const button = p.locator('.my-area .prompt button[data-action]:not([disabled])').first();
    await button.click({ trial: true, timeout: 3000 }).catch((e) => failures.push(`${vp.name}: the prompt's button cannot be pressed: ${String(e).split('\n')[0]}`));
    await ctx.close();
  }
  assert(failures.length === 0, failures.join('\n'));
});
