// Browser scenarios (headless Chromium against the real yezi binary, a server of this file's own):
// Da Bai Fen: a complete deal by clicking.

import { after, before, test } from 'node:test';
import { assert, checkSpectator, closeSuite, createTable, log, openSuite, playDabaifenDeal, snap, tableState, waitNextHand } from '../lib/harness.mjs';

/** The suite's server, browser and pages (see openSuite). */
let suite;
let page, spy;
before(async () => {
  suite = await openSuite({ named: true });
  ({ page, spy } = suite);
});
after(() => closeSuite(suite));

test('Da Bai Fen: a complete deal by clicking', async () => {
  await page.goto('/');
  await page.locator('.new-table').waitFor();
  const id = await createTable(page, 'dabaifen', { name: 'Ann plays Da Bai Fen' });
  log(`Da Bai Fen table ${id}`);
  await page.locator('.felt').waitFor({ timeout: 20000 });
  await snap(page, 'dbf-draw');
  await spy.goto(`/t/${id}?watch`);
  await spy.locator('.felt').waitFor({ timeout: 20000 });
  let complete = false;
  for (let attempt = 0; attempt < 3 && !complete; attempt++) {
    const played = await playDabaifenDeal(page, {
      after: async (n) => {
        if (n === 3) {
          // Issue 11 item 13: tricks are counted by plays; no "of 12".
          const info = await page.locator('.center .info').textContent();
          assert(!/of 12/.test(info), `the trick counter: ${info}`);
          assert(/Trick \d+ · \d+ cards? each to play|The hand is over/.test(info), `the trick counter: ${info}`);
          await snap(page, 'dbf-play');
          await checkSpectator(spy, 'dabaifen');
          await snap(spy, 'spectator-dbf');
        }
      },
    });
    await snap(page, `dbf-deal-end-${attempt}`);
    const end = await page.evaluate(() => ({
      events: [...document.querySelectorAll('.hand-end .scoring li')].map((li) => li.getAttribute('data-event')),
      text: document.querySelector('.hand-end .result-text')?.textContent ?? '',
    }));
    log(`Da Bai Fen deal over after ${played} plays of mine: ${end.text}`);
    if (end.events.includes('total')) {
      assert(end.events.filter((e) => e === 'trick').length >= 1, 'the account lists the tricks');
      complete = played >= 1;
    }
    if (!complete) {
      const scored = (await tableState(page)).hand_no;
      await page.locator('.hand-end button[data-action="next"]').click({ timeout: 5000 }).catch(() => {});
      await waitNextHand(page, scored, 70000);
    }
  }
  assert(complete, 'a complete Da Bai Fen deal was played and scored');
  await checkSpectator(spy, 'dabaifen');
  await snap(spy, 'spectator-dbf-end');
});
