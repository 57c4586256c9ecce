// Browser scenarios (headless Chromium against the real yezi binary, a server of this file's own):
// sound and motion: the turn notice, the mute switch, cards that move (not with reduced motion), a
// trick area of one size.

import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { artifacts, assert, closeSuite, enterName, nextShot, openSuite, snap, tableState, watchedPage } from '../lib/harness.mjs';
import { checkTrickArea, madiaoTableWithDeck, playFirstCard, sampleTrickArea, turnAfterBot } from '../lib/tables.mjs';

/** The suite's server, browser and pages (see openSuite). */
let suite;
let browser, desktop, base, page, watcher;
before(async () => {
  suite = await openSuite({ named: true });
  ({ browser, desktop, base, page, watcher } = suite);
});
after(() => closeSuite(suite));

test('sound and motion: the turn notice, the mute switch, cards that move (not with reduced motion), a trick area of one size', async () => {
  const ctx = await browser.newContext(desktop);
  const m = await watchedPage(ctx, 'motion');
  await m.goto('/');
  await enterName(m, 'Mo');
  const ownTitle = await m.title();
  assert(!ownTitle.includes('●'), `the page's own title has no notice: ${ownTitle}`);
  const id = await madiaoTableWithDeck(m, 'blank');
  // The page saw the table before the deal: the cards come into the hand one after another.
  const dealt = await m.evaluate(() => [...document.querySelectorAll('.hand .card')].map((e) => ({
    dealt: e.classList.contains('dealt'), name: getComputedStyle(e).animationName, delay: getComputedStyle(e).animationDelay,
  })));
  assert(dealt.length >= 8 && dealt.every((d) => d.dealt && d.name.includes('deal-in')), `the dealt cards move in: ${JSON.stringify(dealt)}`);
  assert(new Set(dealt.map((d) => d.delay)).size > 1, `one after another: ${JSON.stringify(dealt.map((d) => d.delay))}`);
  // A bot passes the turn: the title says so, a chime sounds (once).
  let s = await turnAfterBot(m);
  await m.waitForFunction(() => document.title.startsWith('● Your turn — '), null, { timeout: 5000 });
  const chimes = async () => Number(await m.evaluate(() => document.body.dataset.chimes ?? '0'));
  const c1 = await chimes();
  assert(c1 >= 1, `a chime sounded when the turn arrived (${c1})`);
  await snap(m, 'motion-your-turn');
  // The played card flies in (its animation is running or ran: a named animation with a duration).
  const played = await playFirstCard(m, s);
  const anim = await m.evaluate((c) => {
    const play = document.querySelector(`.trick .play[data-seat="0"]`);
    const st = play ? getComputedStyle(play) : null;
    return st ? { name: st.animationName, dur: st.animationDuration, card: play?.querySelector('.card')?.getAttribute('data-card') } : null;
  }, played);
  assert(anim && anim.name.includes('play-in') && parseFloat(anim.dur) > 0, `the played card animates: ${JSON.stringify(anim)}`);
  // Not one's turn: the title is the page's own again.
  await m.waitForFunction((b) => document.title === b, ownTitle, { timeout: 10000 });
  // A completed trick is gathered (drawn together in the middle).
  // Its animation is read in the same look that finds it: the complete trick is shown for 200 ms
  // only, and a second look may come after it is gone (it did on a loaded machine).
  const gather = String(await (await m.waitForFunction(() => {
    const play = document.querySelector('.trick[data-gather] .play');
    return play ? getComputedStyle(play).animationName : false;
  }, null, { timeout: 15000 })).jsonValue());
  assert(gather.includes('gather'), `the gathered trick animates: ${gather}`);
  // Its end state, at once (the run shows a complete trick for 200 ms only): the screenshot
  // fast-forwards the animations to their end.
  await m.screenshot({ path: join(artifacts, `${String(nextShot()).padStart(2, '0')}-motion-gathered-end.png`), animations: 'disabled' });
  // Muted: the next turn changes the title but sounds nothing.
  await m.locator('button[data-action="mute"]').click();
  await m.waitForFunction(() => document.querySelector('button[data-action="mute"]')?.getAttribute('aria-pressed') === 'true');
  // Whatever turn came meanwhile is played, so that the next one arrives while muted.
  const c2 = await chimes();
  s = await tableState(m);
  if (s.myTurn && s.legal === 'actions' && s.legalCards.length) await playFirstCard(m, s);
  s = await turnAfterBot(m);
  await m.waitForFunction(() => document.title.startsWith('● Your turn — '), null, { timeout: 5000 });
  const pressed = await m.locator('button[data-action="mute"]').getAttribute('aria-pressed');
  assert((await chimes()) === c2, `no chime while muted (${c2} before, ${await chimes()} now, pressed ${pressed})`);
  await playFirstCard(m, s);
  // The switch is kept across a reload.
  await m.reload();
  await m.locator('button[data-action="mute"]').waitFor({ timeout: 20000 });
  assert((await m.locator('button[data-action="mute"]').getAttribute('aria-pressed')) === 'true', 'muted after a reload');
  await m.locator('.hand .card').first().waitFor({ timeout: 20000 });
  assert((await m.locator('.hand .card.dealt').count()) === 0, 'a reload in mid-hand deals nothing');
  await m.locator('button[data-action="mute"]').click();
  assert((await m.evaluate(() => localStorage.getItem('yezi.mute'))) === null, 'unmuted is kept too');
  await m.reload();
  await m.locator('button[data-action="mute"]').waitFor({ timeout: 20000 });
  assert((await m.locator('button[data-action="mute"]').getAttribute('aria-pressed')) === 'false', 'unmuted after a reload');
  // With reduced motion, a watcher's cards do not move.
  const still = await browser.newContext({ ...desktop, reducedMotion: 'reduce' });
  const w = await watchedPage(still, 'still');
  await w.goto('/');
  await enterName(w, 'Still');
  await w.goto(`/t/${id}?watch`);
  await w.locator('.trick .play').first().waitFor({ timeout: 30000 });
  const stillAnim = await w.evaluate(() => [...document.querySelectorAll('.trick .play, .trick .card')].map((e) => {
    const st = getComputedStyle(e);
    return { name: st.animationName, dur: st.transitionDuration, running: e.getAnimations().length };
  }));
  assert(stillAnim.length > 0 && stillAnim.every((a) => a.name === 'none' && a.running === 0 && a.dur.split(',').every((d) => parseFloat(d) === 0)),
    `no card moves with reduced motion: ${JSON.stringify(stillAnim)}`);
  await snap(w, 'motion-reduced');
  await still.close();
  // The trick area kept one size, and the hand one place, through every trick seen (the reloads start new samples).
  s = await turnAfterBot(m);
  await sampleTrickArea(m);
  await playFirstCard(m, s);
  s = await turnAfterBot(m);
  await playFirstCard(m, s);
  await turnAfterBot(m);
  await checkTrickArea(m, 'desktop');
  // The events list names the tricks' winners.
  await m.locator('.side .tabs button', { hasText: 'Events' }).click();
  const won = await m.locator('.log [data-story="trick"]').allTextContents();
  assert(won.length >= 1 && won.every((x) => /^Trick \d+: /.test(x)), `the events list the tricks won: ${JSON.stringify(won)}`);
  await snap(m, 'motion-events');
  await ctx.close();
  // On a 390×844 phone too.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, baseURL: base, locale: 'en-US' });
  const ph = await watchedPage(phone, 'motion-phone');
  await ph.goto('/');
  await enterName(ph, 'Pho');
  await madiaoTableWithDeck(ph, 'blank');
  s = await turnAfterBot(ph);
  await sampleTrickArea(ph);
  for (let i = 0; i < 3; i += 1) {
    await playFirstCard(ph, s);
    s = await turnAfterBot(ph);
  }
  await checkTrickArea(ph, '390 px phone');
  // The seat opposite at its fullest (a badge, and a bot's "thinking…", shown only while its
  // decision takes a while: the page's own elements are put in for a moment) keeps one line,
  // and the trick area its height (it lost a line to the seat's wrapped badge before).
  const full = await ph.evaluate(() => {
    const tr = /** @type {HTMLElement} */ (document.querySelector('.felt .trick'));
    const top = /** @type {HTMLElement} */ (document.querySelector('.felt .seat.pos-top'));
    const before = tr.getBoundingClientRect().height;
    const think = Object.assign(document.createElement('span'), { className: 'thinking', textContent: 'thinking…' });
    const badges = ['莊 banker', 'bot playing'].map((x) => Object.assign(document.createElement('span'), { className: 'badge role', textContent: x }));
    top.querySelector('.seat-body')?.append(think);
    top.querySelector('.seat-head')?.append(...badges);
    const after = tr.getBoundingClientRect().height;
    think.remove();
    for (const b of badges) b.remove();
    return { before, after };
  });
  assert(full.before === full.after, `390 px phone: the seat opposite at its fullest took ${full.before - full.after}px from the trick area`);
  await snap(ph, 'motion-phone');
  await phone.close();
});
