'use strict';
// Documents carrying script payloads in their title, text and metadata render as inert text on both pages: no
// dialog, no script executed, no element injected, no console error.
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { BASE, launch, openPage, assertClean, screenshot, ingest } = require('../lib/browser');

const NS = 'ui-inert';
const TITLE = '<img src=x onerror="window.__pwned=\'title\';alert(\'title\')"> Payout hold escalation';
const TEXT = 'Payout hold escalation applies when payout velocity triples within a day. '
  + '<script>window.__pwned="text";alert("text")</script> '
  + 'Analysts record the payout hold reason <svg onload="window.__pwned=\'svg\';alert(\'svg\')"></svg> in the case. '
  + '<a href="javascript:alert(\'link\')">details</a> and <iframe src="javascript:alert(\'frame\')"></iframe>.';
const META = { category: '<b onmouseover="alert(1)">policy</b>', region: '"><script>alert("meta")</script>' };

let browser;
before(async () => {
  browser = await launch();
  await ingest({ id: 'ui-inert-payload', namespace: NS, title: TITLE, text: TEXT, metadata: META, format: 'text' });
  await ingest({ id: 'ui-inert-markdown', namespace: NS, title: 'Markdown payout hold <script>alert("md")</script>',
    format: 'markdown', text: '# Payout hold\n\nA payout hold stops payouts. <img src=x onerror=alert("md-img")>\n\n'
      + '[click](javascript:alert("md-link"))\n' });
});
after(async () => { if (browser) await browser.close(); });

/** Nothing from the documents became markup, and no payload ran. */
async function assertInert(page, scope) {
  const found = await page.evaluate((sel) => {
    const root = document.querySelector(sel);
    return {
      pwned: window.__pwned === undefined ? null : String(window.__pwned),
      injected: root ? Array.from(root.querySelectorAll('img, svg, script, iframe, b, a[href^="javascript"]'))
        .filter((e) => !(e.tagName === 'SCRIPT' && /\/(app|chat|auth)\.js$/.test(e.src))) // the page's own scripts
        .map((e) => e.outerHTML.slice(0, 80)) : ['no ' + sel],
    };
  }, scope);
  assert.deepEqual(found, { pwned: null, injected: [] }, scope);
}

test('search results, the document view and the documents list show payloads as text', async () => {
  const opened = await openPage(browser);
  const { page } = opened;
  await page.goto(BASE + '/?namespace=' + NS + '&q=' + encodeURIComponent('payout hold escalation <img src=x onerror=alert(9)>'));
  await page.waitForSelector('#results > li.result');
  const titles = await page.locator('#results .result-title').allTextContents();
  assert.ok(titles.includes(TITLE), 'the title as written: ' + JSON.stringify(titles));
  await assertInert(page, '#results');
  await assertInert(page, '#search-status');

  await page.locator('#results > li.result', { hasText: 'Payout hold escalation' }).first().click();
  await page.locator('#docview .chunk').first().waitFor();
  assert.equal(await page.locator('#docview h2').textContent(), TITLE);
  const viewText = await page.locator("#docview").textContent();
  assert.ok(viewText.includes('<script>window.') && viewText.includes('alert("text")</script>'), viewText);
  assert.ok((await page.locator('#docview dl.meta').textContent()).includes(META.region));
  await assertInert(page, '#docview');
  await screenshot(page, 'inert-search');

  await page.click('.tab[data-tab=documents]');
  await page.selectOption('#doc-namespace', NS);
  await page.locator('#doc-rows tr', { hasText: 'ui-inert-payload' }).waitFor();
  await assertInert(page, '#doc-rows');
  await page.waitForTimeout(300); // give any deferred payload (onerror, onload) the chance to run
  await assertInert(page, 'body');
  assertClean(opened);
});

test('a chat answer citing the payload documents shows them as text', async () => {
  const opened = await openPage(browser);
  const { page } = opened;
  await page.goto(BASE + '/chat.html');
  await page.fill('#namespace', NS);
  await page.fill('#question', 'When does a payout hold escalation apply?');
  await page.click('#send');
  await page.locator('#thread .msg .meta .badge').waitFor({ timeout: 90000 });
  const sources = await page.locator('#thread .sources li a').allTextContents();
  assert.ok(sources.length >= 1, 'the answer cites its sources');
  assert.ok(sources.some((s) => s.includes('<img src=x') || s.includes('<script>')), 'titles as written: ' + sources);
  await page.locator('#thread .sources li a').first().click();
  await page.locator('#viewer .chunk').first().waitFor();
  await page.waitForTimeout(300);
  await assertInert(page, '#thread');
  await assertInert(page, '#viewer');
  await assertInert(page, 'body');
  await screenshot(page, 'inert-chat');
  assertClean(opened);
});
