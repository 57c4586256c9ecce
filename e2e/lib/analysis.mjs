// Helpers of the analysis page's browser scenarios (analysis_why, analysis_dbf): a finished hand's
// analysis opened by its shared deep link at one viewport and language and checked against the
// API, and the page's last look (a decision with a cost, no overflow, a reload that keeps it).

import { assert, snap, watchedPage } from './harness.mjs';
import { noHorizontalOverflow } from './tables.mjs';

/** The cards of a move of the analysis's words (`play M9`, `slough W3`, `play AS KS`). @param {string} text */
export function cardsOf(text) {
  return text.split(' ').slice(1).filter((c) => c.length >= 2 && c.length <= 3);
}

/**
 * Opens hand `hand`'s analysis for `seat` of table `id` by its deep link, as a reader without a
 * name, in a new context of `viewport` and `locale`; checks the summary the page shows (accuracy
 * in its language, luck and play, one graph point per searched decision) against the API's, which
 * must weigh at least two searched decisions. Resolves with the context, the page and the analysis.
 * @param {import('playwright-core').Browser} browser @param {string} base
 * @param {{id: string, hand: number, seat: number}} at
 * @param {{width: number, height: number}} viewport @param {string} locale @param {string} label
 */
export async function openSharedAnalysis(browser, base, { id, hand, seat }, viewport, locale, label) {
  const phone = viewport.width < 500;
  const zh = locale.startsWith('zh');
  const c = await browser.newContext({ viewport, baseURL: base, locale, ...(phone ? { deviceScaleFactor: 2, isMobile: true, hasTouch: true } : {}) });
  const p = await watchedPage(c, label);
  // A reader without a name opens the shared link: the page loads (no 404) and reads the analysis made.
  const res = await p.goto(`/analysis/${id}?hand=${hand}&seat=${seat}`);
  assert(res && res.status() === 200, `${label}: the deep link answers ${res && res.status()}`);
  await p.locator('.analysis-page[data-status="done"]').waitFor({ timeout: 30000 });
  const reply = await (await p.request.get(`/api/games/${id}/analysis?hand=${hand}&seat=${seat}`)).json();
  const an = reply.analysis;
  const s = an.summary;
  // The scenarios' seeded hands give the person's seat several choices to weigh.
  assert(s.searched >= 2 && typeof s.accuracy === 'number', `${label}: the API gives an accuracy over several searched decisions ${JSON.stringify(s)}`);
  const acc = await p.locator('.analysis-accuracy').getAttribute('data-accuracy');
  assert(Number(acc) === s.accuracy, `${label}: the accuracy shown ${acc} is the API's ${s.accuracy}`);
  assert((await p.locator('.analysis-accuracy').textContent()).includes(zh ? '准确度' : 'Accuracy'), `${label}: the accuracy in its language`);
  if (s.result != null) assert(await p.locator('.analysis-luck').isVisible(), `${label}: luck and play shown`);
  const searched = an.decisions.filter((/** @type {any} */ d) => d.verdict.kind === 'searched').length;
  if (searched >= 2) assert((await p.locator('.value-graph circle').count()) === searched, `${label}: one point of the graph per searched decision`);
  return { c, p, an, zh };
}

/**
 * The page's last look: a decision with a cost shown when there is one (else the first searched
 * one inside a trick), no horizontal overflow, a screenshot, and a reload that keeps hand `hand`.
 * @param {import('playwright-core').Page} p @param {any} an @param {number} hand @param {string} label
 */
export async function showCostlyAndReload(p, an, hand, label) {
  const costly = an.decisions.findIndex((/** @type {any} */ d) => d.why && d.why.played);
  const firstSearched = an.decisions.findIndex((/** @type {any} */ d) => d.verdict.kind === 'searched' && d.position && d.position.trick.length > 0);
  const at = costly >= 0 ? costly : Math.max(firstSearched, 0);
  await p.locator(`.decision-strip .chip[data-index="${at}"]`).click();
  await p.locator(`.analysis-page[data-at="${at}"]`).waitFor({ timeout: 5000 });
  await noHorizontalOverflow(p, `${label}: no horizontal overflow`);
  await snap(p, label);
  // A reload keeps the page and its analysis.
  await p.reload();
  await p.locator('.analysis-page[data-status="done"]').waitFor({ timeout: 30000 });
  assert((await p.locator('.analysis-page').getAttribute('data-hand')) === String(hand), `${label}: the hand after a reload`);
}
