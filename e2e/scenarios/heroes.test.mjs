// Browser scenarios (headless Chromium against the real yezi binary, a server of this file's own):
// the cards show their heroes: the table’s deck, at desktop and phone sizes.

import { after, before, test } from 'node:test';
import { assert, closeSuite, enterName, openSuite, snap, watchedPage } from '../lib/harness.mjs';
import { checkFigures, madiaoTableWithDeck, noHorizontalOverflow } from '../lib/tables.mjs';

/** The suite's server, browser and pages (see openSuite). */
let suite;
let browser, desktop, base, page, spy;
before(async () => {
  suite = await openSuite({ named: true });
  ({ browser, desktop, base, page, spy } = suite);
});
after(() => closeSuite(suite));

test('the cards show their heroes: the table’s deck, at desktop and phone sizes', async () => {
  // The rules page draws the default deck: heroes on the Tens and Myriads, an unnamed figure on the zero cash.
  await page.goto('/rules?game=madiao');
  await page.locator('.rules .sample .card').first().waitFor();
  assert((await checkFigures(page, '.rules .sample .card', 'rules page', 10)) >= 3, 'the rules page shows heroes');
  assert((await page.locator('.rules .sample .card[data-card="W0"] .figure.unnamed').count()) === 1, 'the default zero cash is an unnamed figure');
  const history = await page.locator('.rules section[data-section="figures"]').textContent();
  // In either language (the traditional titles in English, the simplified in Chinese).
  for (const source of [['菽園雜記', '菽园杂记'], ['紙牌說', '纸牌说'], ['周亮工'], ['王英'], ['cread.tw']]) {
    assert(source.some((s) => history.includes(s)), `the deck's history names ${source[0]}`);
  }
  // A table with the modern 王英: the person's cards at desktop size, and the API and the rules dialog draw the same deck.
  const id = await madiaoTableWithDeck(page, 'wang_ying');
  const summary = await page.evaluate(async (t) => (await fetch(`/api/tables/${t}`)).json(), id);
  assert(summary.zero_cash === 'wang_ying', `the table's summary says ${JSON.stringify(summary.zero_cash)}`);
  const desktopN = await checkFigures(page, '.table-page .card.madiao:not(.tiny)', 'desktop table', 10);
  await snap(page, 'figures-desktop');
  assert(desktopN >= 1, 'a hero was on a card at the desktop table');
  await page.locator('.head-buttons button', { hasText: 'Rules' }).click();
  await page.locator('.dialog .sample .card[data-card="W0"]').waitFor();
  const wang = await page.locator('.dialog .sample .card[data-card="W0"] .figure').textContent();
  assert(wang === '王英', `the table's zero cash shows ${JSON.stringify(wang)}, not 王英`);
  await page.locator('.dialog .close').click();
  // A spectator of the table draws its deck too.
  await spy.goto(`/t/${id}?watch`);
  await spy.locator('.felt').waitFor({ timeout: 20000 });
  await spy.locator('.head-buttons button', { hasText: 'Rules' }).click();
  const spyWang = await spy.locator('.dialog .sample .card[data-card="W0"] .figure').textContent();
  assert(spyWang === '王英', `the spectator's zero cash shows ${JSON.stringify(spyWang)}`);
  await spy.locator('.dialog .close').click();
  // Phones, 360 and 390 px wide: the names stay whole and readable on the smaller cards.
  for (const [w, h] of [[360, 740], [390, 844]]) {
    const phone = await browser.newContext({ viewport: { width: w, height: h }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, baseURL: base, locale: 'zh-CN' });
    const p = await watchedPage(phone, `figures${w}`);
    await p.goto('/');
    await enterName(p, `Fig${w}`);
    await madiaoTableWithDeck(p, 'blank');
    const n = await checkFigures(p, '.hand .card', `${w} px phone`, 10);
    await snap(p, `figures-phone-${w}`);
    assert(n >= 1, `a hero was on a card in the hand at ${w} px`);
    await noHorizontalOverflow(p, `${w} px table with figures`);
    await p.goto('/rules?game=madiao');
    await p.locator('.rules .sample .card').first().waitFor();
    await checkFigures(p, '.rules .sample .card', `${w} px rules`, 9);
    await snap(p, `figures-phone-${w}-rules`);
    await phone.close();
  }
});
