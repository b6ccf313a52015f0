'use strict';
// Shared set-up of the browser tests: Debian's chromium driven by playwright-core, one fresh profile per test file,
// and pages that record every browser console error, uncaught page error, dialog and failed request, so a test
// can fail on any of them (assertClean).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const assert = require('node:assert/strict');
const { chromium } = require('playwright-core');

const BASE = (process.env.ARGUS_URL || 'http://127.0.0.1:8080').replace(/\/$/, '');
const CHROMIUM = process.env.ARGUS_CHROMIUM || '/usr/bin/chromium';
const SCREENS = process.env.ARGUS_SCREENS || '';
/** The API key to send (protected mode), empty when the service serves loopback clients without one. */
const KEY = process.env.ARGUS_KEY || '';
/** Generous for a loaded 2-core machine; every wait is bounded by it. */
const TIMEOUT_MS = Number(process.env.ARGUS_BROWSER_TIMEOUT_MS || 30000);

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

/** Starts chromium with a fresh profile folder; close() stops it and deletes the folder. */
async function launch() {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'argus-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1280, height: 800 },
    timeout: TIMEOUT_MS,
  });
  context.setDefaultTimeout(TIMEOUT_MS);
  return {
    context,
    async close() {
      await context.close().catch(() => {});
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * A new page at the given width, with its problems recorded: console errors, page errors (uncaught exceptions),
 * dialogs (alert/confirm/prompt: dismissed and recorded unless the test expects one) and failed requests.
 */
async function openPage(browser, { width = 1280, height = 800 } = {}) {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width, height });
  const problems = [];
  const expectedDialogs = [];
  /** Console errors the test expects for now (e.g. the browser's own log of a 401 before signing in): regexes. */
  const allowed = [];
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const line = msg.text() + ' (' + (msg.location().url || 'page') + ')';
    if (!allowed.some((re) => re.test(line))) problems.push('console error: ' + line);
  });
  page.on('pageerror', (err) => problems.push('page error: ' + err.message));
  page.on('dialog', async (dialog) => {
    if (expectedDialogs.length && dialog.message().includes(expectedDialogs[0])) {
      expectedDialogs.shift();
      await dialog.accept();
    } else {
      problems.push('unexpected dialog (' + dialog.type() + '): ' + dialog.message());
      await dialog.dismiss().catch(() => {});
    }
  });
  page.on('requestfailed', (req) => {
    const failure = req.failure();
    // A request the page itself aborted (a stream closed on purpose, a navigation away) is not a problem.
    if (failure && !/ERR_ABORTED/.test(failure.errorText)) problems.push('request failed: ' + req.url() + ' ' + failure.errorText);
  });
  return {
    page,
    problems,
    /** The next dialog whose message contains text is accepted instead of being a problem. */
    expectDialog(text) { expectedDialogs.push(text); },
    /** Console errors matching re are expected until the returned function is called. */
    allowConsole(re) {
      allowed.push(re);
      return () => { const i = allowed.indexOf(re); if (i >= 0) allowed.splice(i, 1); };
    },
  };
}

/** Fails when the page recorded any problem. */
function assertClean(opened, what) {
  assert.deepEqual(opened.problems, [], (what ? what + ': ' : '') + 'the page reported problems');
}

/** No horizontal overflow: nothing is wider than the viewport. */
async function assertNoHorizontalOverflow(page, what) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth,
  }));
  assert.ok(scrollWidth <= innerWidth, `${what}: page is ${scrollWidth}px wide in a ${innerWidth}px viewport`);
}

/** True when the element's box is at least partly inside the viewport (and inside every scrolling ancestor). */
async function isInSight(locator) {
  return locator.evaluate((node) => {
    const r = node.getBoundingClientRect();
    if (r.height === 0 || r.bottom <= 0 || r.top >= window.innerHeight) return false;
    for (let p = node.parentElement; p; p = p.parentElement) {
      const style = getComputedStyle(p);
      if (/(auto|scroll|hidden)/.test(style.overflowY)) {
        const pr = p.getBoundingClientRect();
        if (r.bottom <= pr.top || r.top >= pr.bottom) return false;
      }
    }
    return true;
  });
}

/** Saves a full-page screenshot when ARGUS_SCREENS names a folder. */
async function screenshot(page, name) {
  if (!SCREENS) return;
  fs.mkdirSync(SCREENS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENS, name + '.png'), fullPage: true });
}

/** JSON over HTTP to the service under test (set-up and checks outside the page). */
async function api(method, urlPath, body) {
  const resp = await fetch(BASE + urlPath, {
    method,
    headers: Object.assign(body === undefined ? {} : { 'Content-Type': typeof body === 'string' ? 'application/jsonl' : 'application/json' },
      KEY ? { Authorization: 'Bearer ' + KEY } : {}),
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await resp.text();
  let json = null;
  try { json = JSON.parse(text); } catch (e) { /* not JSON */ }
  if (!resp.ok) throw new Error(`${method} ${urlPath}: ${resp.status} ${text.slice(0, 300)}`);
  return json;
}

/** Stores one document and waits for it (201). */
function ingest(doc) {
  return api('POST', '/api/documents?wait=true', doc);
}

module.exports = {
  BASE, KEY, TIMEOUT_MS, launch, openPage, assertClean, assertNoHorizontalOverflow, isInSight, screenshot, api, ingest,
};
