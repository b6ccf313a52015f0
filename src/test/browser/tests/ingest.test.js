'use strict';
// Ingest and documents tabs of the search page: pasted text, a large upload followed over the job's SSE stream,
// the documents list and delete.
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { BASE, launch, openPage, assertClean, screenshot, api } = require('../lib/browser');

/** Ids unique to this run, so the file can be rerun against a long-lived server. */
const RUN = Date.now().toString(36);
const PASTED = 'ui-pasted-' + RUN;

let browser;
before(async () => { browser = await launch(); });
after(async () => { if (browser) await browser.close(); });

test('pasted text is stored and listed, and can be deleted', async () => {
  const opened = await openPage(browser);
  const { page } = opened;
  await page.goto(BASE + '/#tab=ingest');
  await page.fill('#ing-title', 'Pasted reserve policy');
  await page.fill('#ing-id', PASTED);
  await page.fill('#ing-namespace', 'ui-pasted');
  await page.fill('#ing-text', 'Rolling reserves hold ten percent of payouts for ninety days for high-risk sellers.');
  await page.fill('#ing-metadata', 'category=policy\nregion=europe');
  await page.click('#ingest-form button[type=submit]');
  await page.waitForFunction(() => document.querySelector('#job-status').textContent === 'completed');
  assert.equal(await page.locator('#job-bar').evaluate((b) => b.style.width), '100%');
  assert.match(await page.locator('#job-log').textContent(), new RegExp(PASTED + ' . created \\(1 chunks\\)'));
  const doc = await api('GET', '/api/documents/' + PASTED);
  assert.equal(doc.namespace, 'ui-pasted');
  assert.deepEqual(doc.metadata, { category: 'policy', region: 'europe' });
  await screenshot(page, 'ingest-pasted');

  // The new namespace reaches the pickers; the documents tab lists the document and deletes it.
  await page.waitForSelector('#doc-namespace option[value="ui-pasted"]', { state: 'attached' });
  await page.click('.tab[data-tab=documents]');
  await page.selectOption('#doc-namespace', 'ui-pasted');
  const row = page.locator('#doc-rows tr', { hasText: PASTED });
  await row.waitFor();
  assert.equal(await row.locator('td').nth(3).textContent(), 'policy');
  opened.expectDialog('Delete document "' + PASTED + '"');
  await row.locator('button.danger').click();
  await row.waitFor({ state: 'detached' });
  await assert.rejects(api('GET', '/api/documents/' + PASTED), /404/);
  assertClean(opened);
});

test('a large upload answers 202 and the progress bar follows the job stream to the end', async () => {
  const opened = await openPage(browser);
  const { page } = opened;
  await page.goto(BASE + '/#tab=ingest');
  // Twelve documents of about 6 KB each: over ingest.asyncThresholdBytes (64 KB), so the job runs in the background.
  const sentence = 'Merchant risk reviews weigh chargeback ratios, refund rates, payout velocity and shared identifiers. ';
  const lines = [];
  for (let i = 1; i <= 12; i++) {
    lines.push(JSON.stringify({ id: 'ui-bulk-' + RUN + '-' + i, title: 'Bulk review note ' + i, namespace: 'ui-bulk',
      text: ('Note ' + i + '. ' + sentence.repeat(60)).trim() }));
  }
  const buffer = Buffer.from(lines.join('\n') + '\n');
  assert.ok(buffer.length > 65536, 'the upload is over the asynchronous threshold');
  await page.setInputFiles('#ing-files', { name: 'bulk.jsonl', mimeType: 'application/jsonl', buffer });
  const streamed = page.waitForRequest((r) => /\/api\/ingest\/jobs\/[^/]+\/events$/.test(r.url()));
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.url().includes('/api/documents') && r.request().method() === 'POST'),
    page.click('#ingest-form button[type=submit]'),
  ]);
  assert.equal(response.status(), 202);
  await streamed;
  await page.waitForFunction(() => document.querySelector('#job-status').textContent === 'completed', null,
    { timeout: 120000 });
  assert.equal(await page.locator('#job-bar').evaluate((b) => b.style.width), '100%');
  assert.equal(await page.locator('#ingest-job .progress').getAttribute('aria-valuenow'), '100');
  assert.match(await page.locator('#job-counts').textContent(), /12 of 12 documents . 12 created/);
  assert.equal(await page.locator('#job-log li').count(), 12, 'one log line per document, from the stream');
  await screenshot(page, 'ingest-progress');
  assertClean(opened);
});
