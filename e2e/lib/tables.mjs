// Drivers and checks of the browser tests that several scenarios share: the cards' figures, a
// table's trick area, the tutorials played by clicking.

import { assert, clickAction, log, sleep, snap, tableState } from './harness.mjs';

/** The heroes of docs/rules/madiao.md §1 on the Tens and the Myriads (written from the rules). */
export const HEROES = {
  TW: '宋江', TQ: '武松', TB: '阮小五', T9: '阮小七', T8: '朱仝', T7: '孫立', T6: '呼延灼', T5: '魯智深', T4: '李逵', T3: '楊志', T2: '扈三娘',
  M9: '雷橫', M8: '索超', M7: '秦明', M6: '史進', M5: '李俊', M4: '柴進', M3: '關勝', M2: '花榮', M1: '燕青',
};

/**
 * Every Madiao card matched by `selector` that should carry a hero shows his name, visible, inside
 * the card, clear of the card's other marks, in type of at least `minPx` pixels, not cut off.
 * Returns how many figures were checked.
 */
export async function checkFigures(page, selector, what, minPx) {
  const cards = await page.evaluate((sel) => {
    const box = (e) => e.getBoundingClientRect();
    const hit = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
    return [...document.querySelectorAll(sel)].map((c) => {
      const code = c.getAttribute('data-card');
      const f = c.querySelector('.figure');
      if (!f) return { code, text: null };
      const cr = box(c);
      const fr = box(f);
      const st = getComputedStyle(f);
      const clash = ['.corner', '.name', '.red-dot'].filter((s) => c.querySelector(s) && hit(fr, box(c.querySelector(s))));
      return {
        code,
        text: f.textContent.trim(),
        inside: fr.left >= cr.left - 0.5 && fr.right <= cr.right + 0.5 && fr.top >= cr.top - 0.5 && fr.bottom <= cr.bottom + 0.5,
        shown: st.display !== 'none' && st.visibility !== 'hidden' && Number(st.opacity) > 0 && fr.width > 0 && fr.height > 0,
        px: parseFloat(st.fontSize),
        fits: f.scrollWidth <= f.clientWidth + 1,
        clash,
        label: c.getAttribute('aria-label') ?? '',
      };
    });
  }, selector);
  let n = 0;
  for (const c of cards) {
    const hero = HEROES[c.code];
    if (!hero) continue;
    n += 1;
    assert(c.text === hero, `${what}: ${c.code} shows ${JSON.stringify(c.text)}, not its hero ${hero}`);
    assert(c.inside && c.shown && c.fits, `${what}: ${c.code}'s figure is not wholly shown: ${JSON.stringify(c)}`);
    assert(c.clash.length === 0, `${what}: ${c.code}'s figure covers ${c.clash}`);
    assert(c.px >= minPx, `${what}: ${c.code}'s figure is set in ${c.px}px type (at least ${minPx})`);
    assert(c.label.includes(hero), `${what}: ${c.code}'s label does not name ${hero}: ${c.label}`);
  }
  // Playwright's own test of visibility, on the first hero of the selection.
  const first = cards.find((c) => HEROES[c.code]);
  if (first) assert(await page.locator(`${selector}[data-card="${first.code}"] .figure`).first().isVisible(), `${what}: ${first.code}'s figure is not visible`);
  return n;
}

/** Opens a Madiao table from the lobby with the zero cash drawn as `zeroCash`; returns its id. */
export async function madiaoTableWithDeck(page, zeroCash) {
  await page.goto('/');
  await page.locator('.new-table').waitFor();
  await page.locator('.game-pick button[data-game="madiao"]').click();
  await page.locator('select[name="clock"]').selectOption('600');
  await page.locator('select[name="zero_cash"]').selectOption(zeroCash);
  await page.locator('button[data-action="create"]').click();
  await page.locator('.felt').waitFor({ timeout: 20000 });
  await page.waitForFunction(() => document.querySelectorAll('.hand .card').length >= 8, null, { timeout: 20000 });
  return page.evaluate(() => document.querySelector('.table-page').getAttribute('data-table'));
}

export async function noHorizontalOverflow(page, what) {
  const w = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  assert(w.scroll <= w.client, `${what}: the page is ${w.scroll}px wide in a ${w.client}px viewport`);
}

/** Neither the page nor any part of its main scrolls sideways (a list wider than its box would). */
export async function noSidewaysScroll(page, what) {
  await noHorizontalOverflow(page, what);
  const wide = await page.evaluate(() => [...document.querySelectorAll('main *')]
    .filter((e) => e.scrollWidth > e.clientWidth + 1 && ['auto', 'scroll'].includes(getComputedStyle(e).overflowX))
    .map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].join('.')}: ${e.scrollWidth} > ${e.clientWidth}`));
  assert(wide.length === 0, `${what}: these scroll sideways: ${wide.join('; ')}`);
}

/** Plays the first legal Madiao card by clicking; resolves with it once it has left the hand. @param {any} s */
export async function playFirstCard(m, s) {
  const card = s.legalCards[0];
  await m.locator(`.hand .card[data-card="${card}"]`).click();
  const buttons = (await tableState(m)).buttons;
  const choice = ['lead', 'capture'].find((b) => buttons.includes(b)) ?? (buttons.includes('slough') ? 'slough' : buttons[0]);
  await clickAction(m, choice);
  await m.waitForFunction((c) => !document.querySelector(`.hand .card[data-card="${c}"]`), card, { timeout: 10000 });
  return card;
}

/** Waits until it is the player's turn to play a Madiao card after a bot's card in the trick (playing any lead, keeping any redeal). */
export async function turnAfterBot(m) {
  const deadline = Date.now() + 60000;
  while (Date.now() < deadline) {
    const s = await tableState(m);
    if (s.legal === 'redeal') { await clickAction(m, 'keep'); await sleep(200); continue; }
    if (s.myTurn && s.legal === 'actions' && s.legalCards.length && s.tricks > 0) return s;
    if (s.myTurn && s.legal === 'actions' && s.legalCards.length) { await playFirstCard(m, s); continue; }
    if (s.handEnd) {
      // A hand ended (a redeal, or its last trick): on to the next one.
      await m.locator('.hand-end button[data-action="next"]').click({ timeout: 5000 }).catch(() => {});
      await sleep(200);
      continue;
    }
    await sleep(50);
  }
  throw new Error('the turn did not come after a bot in 60 s');
}

/** Records, every frame from now on, the trick area's size, the hand's top edge and how far a play's box (without its motion) reaches above or below the trick area. */
export async function sampleTrickArea(m) {
  await m.evaluate(() => {
    const w = /** @type {any} */ (window);
    w.__sizes = new Set();
    w.__handTops = new Set();
    w.__overflow = 0;
    const tick = () => {
      const tr = /** @type {HTMLElement | null} */ (document.querySelector('.felt .trick'));
      const hand = document.querySelector('.my-area');
      if (tr) {
        const r = tr.getBoundingClientRect();
        w.__sizes.add(`${r.width.toFixed(1)}x${r.height.toFixed(1)}`);
        for (const p of /** @type {NodeListOf<HTMLElement>} */ (tr.querySelectorAll('.play'))) {
          const out = Math.max(-p.offsetTop, p.offsetTop + p.offsetHeight - tr.clientHeight);
          if (out > w.__overflow) { w.__overflow = out; w.__worst = `${p.className} ${p.textContent} at ${p.offsetLeft},${p.offsetTop} ${p.offsetWidth}x${p.offsetHeight}`; }
        }
      }
      if (hand) w.__handTops.add((hand.getBoundingClientRect().top + window.scrollY).toFixed(1));
      requestAnimationFrame(tick);
    };
    tick();
  });
}

/** Checks what sampleTrickArea saw: one size, one place for the hand, no play out of the area. */
export async function checkTrickArea(m, what) {
  const seen = await m.evaluate(() => { const w = /** @type {any} */ (window); return { sizes: [...w.__sizes], tops: [...w.__handTops], overflow: w.__overflow, worst: w.__worst }; });
  log(`${what}: trick area sizes ${seen.sizes}; hand tops ${seen.tops}; plays out of the area by ${seen.overflow}px at most`);
  assert(seen.sizes.length === 1, `${what}: the trick area kept one size: ${seen.sizes}`);
  assert(seen.tops.length === 1, `${what}: the hand never moved: ${seen.tops}`);
  assert(seen.overflow <= 0, `${what}: a play reached ${seen.overflow}px out of the trick area: ${seen.worst}`);
}

/**
 * The tutorial page plays each bot's move on its own after a pause of a reader's pace (900 ms,
 * web/js/tutorial.js); a test that waits for the learner's next lesson need not sit through them.
 * Installs Playwright's clock in `p` (before its tutorial page is loaded): the page's timers run in
 * real time, and tutorialBotsOn skips the pause under way. What the page shows at each step is the
 * same; only the wait between the bots' moves is shorter.
 * @param {import('playwright-core').Page} p
 */
export async function fastTutorialClock(p) {
  await p.clock.install();
}

/**
 * While the tutorial's bots play (no lesson asks the learner for a move): the page's clock is moved
 * on past the pause of the bot's move under way (fastTutorialClock), then the page gets a moment to
 * show it.
 * @param {import('playwright-core').Page} p
 */
export async function tutorialBotsOn(p) {
  await p.clock.fastForward(1000);
  await sleep(20);
}

/**
 * Plays a game's tutorial (`/tutorial/{game}`) to its end by clicking, as a learner would: every
 * lesson shown, the glowing card(s) chosen, one wrong move made once and refused with its
 * explanation. Resolves with the lessons seen, in order.
 * With `lessons`, stops after that many lessons (the first moves only); with `stay`, stays on the
 * finished tutorial instead of visiting the rules sections its lessons link. With `check`, calls it
 * at every step of the hand (each lesson and each bot's move shown), and once at its end.
 * @param {import('playwright-core').Page} p @param {'madiao' | 'dabaifen'} game @param {string} label for screenshots
 * @param {number} [lessons] @param {boolean} [stay]
 * @param {(step: number) => Promise<void>} [check]
 */
export async function playTutorial(p, game, label, lessons = Infinity, stay = false, check = undefined) {
  await fastTutorialClock(p);
  await p.goto(`/tutorial/${game}`);
  await p.locator('.tutorial-page .lesson[data-lesson]').first().waitFor({ timeout: 15000 });
  assert((await p.locator('.lesson').getAttribute('data-lesson')) === `tut.${game}.intro`, 'the tutorial begins with its introduction');
  await noHorizontalOverflow(p, `${game} tutorial introduction`);
  await snap(p, `${label}-intro`);
  await p.locator('button[data-action="tutorial-start"]').click();
  /** @type {string[]} */
  const seen = [];
  /** The rules links of the lessons. */
  const sections = new Set();
  let wrongShown = false;
  const deadline = Date.now() + 180000;
  for (;;) {
    assert(Date.now() < deadline, `${game} tutorial: finished in time (lessons so far: ${seen.join(' ')})`);
    const s = await p.evaluate(() => {
      const page = document.querySelector('.tutorial-page');
      const lesson = document.querySelector('.lesson[data-kind]');
      return {
        done: page ? page.getAttribute('data-done') === '1' : false,
        step: page ? Number(page.getAttribute('data-step')) : -1,
        id: lesson ? lesson.getAttribute('data-lesson') : null,
        kind: lesson ? lesson.getAttribute('data-kind') : null,
        text: lesson ? (lesson.querySelector('.lesson-text')?.textContent ?? '') : '',
        rules: lesson ? (lesson.querySelector('a.rules-link')?.getAttribute('href') ?? '') : '',
        guide: [...document.querySelectorAll('.hand .card.hinted')].map((c) => c.getAttribute('data-card')),
        legal: [...document.querySelectorAll('.hand .card[data-legal="1"]')].map((c) => c.getAttribute('data-card')),
        prompt: document.querySelector('.prompt')?.getAttribute('data-legal') ?? '',
      };
    });
    if (check) await check(s.step);
    if (s.done) break;
    if (seen.length >= lessons && s.id && !seen.some((x) => x === `${s.step}:${s.id}`)) return seen.map((x) => x.split(':')[1]);
    if (!s.id || !s.kind || !s.prompt) {
      // The bots' moves: each one's pause passed at once (see fastTutorialClock).
      await tutorialBotsOn(p);
      continue;
    }
    assert(s.text.length > 8 && !s.text.includes('tut.') && !s.text.includes('{'), `${s.id}: the lesson is written out: ${s.text}`);
    assert(/^\/rules\?game=\w+#rules-\w+$/.test(s.rules), `${s.id}: links its rules section (${s.rules})`);
    if (seen[seen.length - 1] !== `${s.step}:${s.id}`) seen.push(`${s.step}:${s.id}`);
    sections.add(s.rules);
    // One wrong move, at the first lesson that asks for one card of several: refused, explained.
    const other = s.legal.find((c) => !s.guide.includes(c));
    if (!wrongShown && other && ['slough', 'capture', 'lead', 'lead_one', 'follow'].includes(s.kind) && s.guide.length === 1) {
      await p.locator(`.hand .card[data-card="${other}"]`).click();
      await p.locator('.prompt button[data-action]:not([disabled])').first().click();
      await p.locator('.lesson .wrong').waitFor({ timeout: 5000 });
      const why = await p.locator('.lesson .wrong').textContent();
      assert(why && why.length > 5 && !why.includes('tut.'), `the wrong move is explained: ${why}`);
      assert(Number(await p.locator('.tutorial-page').getAttribute('data-step')) === s.step, 'the wrong move is refused: the step stays');
      await snap(p, `${label}-wrong-move`);
      wrongShown = true;
      continue;
    }
    if (seen.length <= 2 || s.kind === 'lead_several' || s.kind === 'bury') await snap(p, `${label}-${s.id.replace(/\./g, '-')}`);
    if (s.kind === 'redeal') {
      await p.locator('.prompt button[data-action="keep"]').click();
    } else if (s.kind === 'declare') {
      await p.locator('.prompt button[data-action="declare"]').first().click();
    } else {
      const selected = await p.evaluate(() => [...document.querySelectorAll('.hand .card.selected')].map((c) => c.getAttribute('data-card')));
      for (const c of s.guide) if (!selected.includes(c)) await p.locator(`.hand .card[data-card="${c}"]`).click();
      const action = game === 'madiao' ? (s.kind === 'lead' ? 'lead' : s.kind) : s.kind === 'bury' ? 'bury' : 'play';
      await p.locator(`.prompt button[data-action="${action}"]`).click();
    }
    await p.waitForFunction((n) => Number(document.querySelector('.tutorial-page')?.getAttribute('data-step')) !== n, s.step, { timeout: 5000 });
  }
  assert(wrongShown, `${game} tutorial: a wrong move was tried`);
  await p.locator('.tutorial-scoring .scoring').waitFor({ timeout: 5000 });
  const end = await p.locator('.lesson.end').getAttribute('data-lesson');
  assert(end === (game === 'madiao' ? 'tut.madiao.settlement' : 'tut.dabaifen.account'), `${game}: ends on its reading lesson (${end})`);
  assert((await p.locator('.lesson.end a.rules-link').count()) === 1, 'the end lesson links its rules');
  sections.add(await p.locator('.lesson.end a.rules-link').getAttribute('href'));
  assert((await p.locator('a[data-action="play-real"]').count()) === 1, 'the end offers a real game');
  await noHorizontalOverflow(p, `${game} tutorial end`);
  await snap(p, `${label}-end`);
  // The caller stays on the finished tutorial (its practice follows).
  if (stay) return seen.map((x) => x.split(':')[1]);
  // Every rules section a lesson links is on the rules page, in the page's language.
  for (const href of sections) {
    await p.goto(href);
    await p.locator(`#${href.split('#')[1]}`).waitFor({ timeout: 5000 });
  }
  assert(sections.size >= 3, `${game}: lessons link several sections (${[...sections].join(' ')})`);
  return seen.map((x) => x.split(':')[1]);
}
