// Turn notices beyond the tab and the installable app (issue 26, item 5): with the permission
// granted and the bell switched on, a desktop notification when the turn arrives while the tab is
// hidden, none while it is visible; the manifest parses and its icons load; the service worker
// registers, and once the server cannot be reached a reload shows the "no connection" page.

import { test } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assert, createTable, enterName, expect, launchBrowser, log, problems, snap, startServer, watchedPage } from '../lib/harness.mjs';

/** Records every Notification made, in place of the browser's (which a headless one never shows). */
function stubNotifications() {
  const made = [];
  class Recorded {
    static permission = 'granted';
    static requestPermission() {
      return Promise.resolve('granted');
    }
    constructor(title, options) {
      made.push({ title, body: options?.body ?? '', hidden: document.hidden });
      this.onclick = null;
    }
    close() {}
  }
  Object.defineProperty(window, 'Notification', { value: Recorded, configurable: true, writable: true });
  Object.defineProperty(window, '__notified', { value: made });
  // Every arrival of the turn as the page shows it (its title gains the turn notice), with whether
  // the tab was hidden then: a seat that wins a trick and leads again keeps the turn, so it arrives
  // only when it comes back from another seat.
  const arrivals = [];
  const title = Object.getOwnPropertyDescriptor(Document.prototype, 'title');
  let turn = false;
  Object.defineProperty(Document.prototype, 'title', {
    configurable: true,
    get() {
      return title.get.call(this);
    },
    set(v) {
      const now = String(v).startsWith('●');
      if (now && !turn) arrivals.push({ hidden: document.hidden, at: Math.round(performance.now()), title: String(v) });
      turn = now;
      title.set.call(this, v);
    },
  });
  Object.defineProperty(window, '__arrivals', { value: arrivals });
}

/** Makes the page believe its tab is hidden (or visible again), as a switch of tabs does. */
function setHidden(page, hidden) {
  return page.evaluate((h) => {
    Object.defineProperty(document, 'hidden', { value: h, configurable: true });
    Object.defineProperty(document, 'visibilityState', { value: h ? 'hidden' : 'visible', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  }, hidden);
}

/** Plays this seat's Madiao turn by clicking its first legal card (face up, else face down). */
async function playTurn(page) {
  const card = await page.locator('.hand .card[data-legal="1"]').first().getAttribute('data-card');
  await page.locator(`.hand .card[data-card="${card}"]`).click();
  const buttons = await page.locator('.prompt button[data-action]').evaluateAll((bs) => bs.map((b) => b.getAttribute('data-action')));
  const choice = ['lead', 'capture', 'slough'].find((b) => buttons.includes(b)) ?? buttons[0];
  await page.locator(`.prompt button[data-action="${choice}"]`).first().click();
  await page.waitForFunction((c) => !document.querySelector(`.hand .card[data-card="${c}"]`), card, { timeout: 10000 });
}

/** Waits for this seat's turn to play as the page sees it, answering a redeal window by playing on. */
async function untilMyTurn(page) {
  const end = Date.now() + 60000;
  while (Date.now() < end) {
    const legal = await page.evaluate(() => document.querySelector('.prompt')?.getAttribute('data-legal') ?? null);
    // The prompt is drawn before the page's effects run: the turn has arrived for the page once its
    // title says so too (the notification is made in the same step).
    if (legal === 'actions' && (await page.evaluate(() => document.title.startsWith('●')))) return;
    if (legal === 'redeal') await page.locator('.prompt button[data-action="keep"]').click({ timeout: 2000 }).catch(() => {});
    if (await page.locator('.hand-end button[data-action="next"]:not([disabled])').count()) {
      await page.locator('.hand-end button[data-action="next"]').click({ timeout: 2000 }).catch(() => {});
    }
    await page.waitForTimeout(50);
  }
  throw new Error('no turn to play in a minute');
}

test('a desktop notification when the turn arrives in a hidden tab, none in a visible one', { timeout: 180000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'yezi-notify-'));
  const { proc, base } = await startServer(dir);
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['notifications'], { origin: base });
    await context.addInitScript(stubNotifications);
    const page = await watchedPage(context, 'notify');
    await page.goto(base);
    await enterName(page, 'Belle');
    await createTable(page, 'madiao', { clock: '120' });
    // Off until the player switches it on (the permission is asked from this click).
    const bell = page.locator('button[data-action="notify"]');
    assert((await bell.getAttribute('aria-pressed')) === 'false', 'desktop notifications start off');
    await bell.click();
    await page.waitForFunction(() => document.querySelector('button[data-action="notify"]')?.getAttribute('aria-pressed') === 'true');
    await snap(page, 'notify-on');

    // Visible: the turn arrives without a notification.
    await untilMyTurn(page);
    assert((await page.evaluate(() => window.__notified.length)) === 0, 'no notification while the tab is visible');

    // Hidden: the next turn that arrives notifies, once. A seat that wins the trick leads again
    // without its turn leaving, which is no arrival; it plays on until the turn comes back.
    await setHidden(page, true);
    const hiddenArrivals = () => page.evaluate(() => window.__arrivals.filter((a) => a.hidden).length);
    let plays = 0;
    for (; (await hiddenArrivals()) === 0; plays++) {
      assert(plays < 8, 'the turn came back from another seat within eight plays');
      await playTurn(page);
      await untilMyTurn(page);
    }
    log(`the turn came back while hidden after ${plays} play(s)`);
    const made = await page.evaluate(() => window.__notified);
    assert((await hiddenArrivals()) === 1, `the turn arrived once while hidden: ${JSON.stringify(await page.evaluate(() => window.__arrivals))}, notified ${JSON.stringify(await page.evaluate(() => window.__notified))}`);
    assert(made.length === 1, `one notification for the turn: ${JSON.stringify(made)}`);
    assert(made[0].hidden && /Your turn/.test(made[0].title), `it says it is your turn, while hidden: ${JSON.stringify(made[0])}`);
    log(`notified: ${JSON.stringify(made[0])}`);

    // Visible again: the next turn does not notify.
    await setHidden(page, false);
    await playTurn(page);
    await untilMyTurn(page);
    assert((await page.evaluate(() => window.__notified.length)) === 1, 'no new notification once the tab is visible');

    // Switched off: hidden, still none.
    await bell.click();
    await page.waitForFunction(() => document.querySelector('button[data-action="notify"]')?.getAttribute('aria-pressed') === 'false');
    await setHidden(page, true);
    await playTurn(page);
    await untilMyTurn(page);
    assert((await page.evaluate(() => window.__notified.length)) === 1, 'none once switched off');
    assert(problems.length === 0, `no console problems: ${problems.join('; ')}`);
  } finally {
    await browser.close();
    proc.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the app installs: its manifest and icons, the service worker, and the "no connection" page offline', { timeout: 120000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'yezi-pwa-'));
  const { proc, base } = await startServer(dir);
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await watchedPage(context, 'pwa');
    await page.goto(base);
    await enterName(page, 'Installer');
    // The manifest, as the page links it.
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    const res = await page.request.get(new URL(href, base).href);
    assert(res.ok(), `the manifest is served: ${res.status()}`);
    assert(/application\/manifest\+json/.test(res.headers()['content-type'] ?? ''), `its type: ${res.headers()['content-type']}`);
    const manifest = JSON.parse(await res.text());
    assert(manifest.name && manifest.short_name && manifest.start_url === '/' && manifest.display === 'standalone', `a complete manifest: ${JSON.stringify(manifest)}`);
    for (const size of ['192x192', '512x512']) {
      const icon = manifest.icons.find((i) => i.sizes === size && i.type === 'image/png');
      assert(icon, `a ${size} PNG icon`);
      // Each icon loads as an image of its size.
      const dims = await page.evaluate((src) => new Promise((ok, bad) => {
        const img = new Image();
        img.onload = () => ok(`${img.naturalWidth}x${img.naturalHeight}`);
        img.onerror = () => bad(new Error(`${src} did not load`));
        img.src = src;
      }), icon.src);
      assert(dims === size, `${icon.src} is ${size}: ${dims}`);
    }
    // The service worker registers for the whole site and takes the page.
    const sw = await page.evaluate(async () => {
      const reg = await navigator.serviceWorker.ready;
      return { scope: reg.scope, script: reg.active?.scriptURL ?? null };
    });
    assert(sw.scope === `${base}/` && sw.script === `${base}/sw.js`, `the worker's scope is the site: ${JSON.stringify(sw)}`);
    const swRes = await page.request.get(`${base}/sw.js`);
    assert(/javascript/.test(swRes.headers()['content-type'] ?? ''), `sw.js is JavaScript: ${swRes.headers()['content-type']}`);
    await page.reload();
    await page.waitForFunction(() => !!navigator.serviceWorker.controller, null, { timeout: 10000 });
    await page.locator('.lobby').waitFor({ timeout: 15000 });

    // Offline: a reload shows the "no connection" page (from the worker's copy).
    expect.serverDown = true;
    await context.setOffline(true);
    await page.reload();
    await page.locator('[data-offline="1"]').waitFor({ timeout: 15000 });
    const text = await page.locator('main').innerText();
    assert(/No connection/.test(text) && /没有连接/.test(text), `the page says there is no connection: ${text}`);
    await snap(page, 'pwa-offline');
    // Back online, "Try again" opens the lobby.
    await context.setOffline(false);
    await page.locator('a', { hasText: 'Try again' }).click();
    await page.locator('.lobby').waitFor({ timeout: 15000 });
    expect.serverDown = false;
    assert(problems.length === 0, `no console problems: ${problems.join('; ')}`);
  } finally {
    await browser.close();
    proc.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
});
