'use strict';
// The search page (index.html) against the running service with the sample knowledge base loaded.
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { BASE, launch, openPage, assertClean, assertNoHorizontalOverflow, isInSight, screenshot, ingest } =
  require('../lib/browser');

let browser;
before(async () => {
  browser = await launch();
  // A second namespace for the picker, holding one document about payout holds.
  await ingest({ id: 'ui-team-b-payout-note', namespace: 'ui-team-b', title: 'Team B payout hold note',
    text: 'Team B holds payouts for new sellers for seven days when the first orders arrive in a burst.' });
});
after(async () => { if (browser) await browser.close(); });

/** Submits a search and returns the JSON body the page sent. */
async function search(page, query) {
  await page.fill('#q', query);
  const [request] = await Promise.all([
    page.waitForRequest((r) => r.url().endsWith('/api/search') && r.method() === 'POST'),
    page.waitForResponse((r) => r.url().endsWith('/api/search')),
    page.click('#search-form button[type=submit]'),
  ]);
  await page.waitForSelector('#results > li');
  return JSON.parse(request.postData());
}

test('a search that ticks no retriever sends none, so the service default applies; ticked ones are sent', async () => {
  const opened = await openPage(browser);
  const { page } = opened;
  await page.goto(BASE + '/');
  for (const box of await page.locator('input[name=retriever]').all()) assert.equal(await box.isChecked(), false);
  const body = await search(page, 'chargeback dispute evidence');
  assert.equal('retrievers' in body, false, 'no retrievers in ' + JSON.stringify(body));
  await page.check('input[name=retriever][value=trigram]');
  await page.check('input[name=retriever][value=keyword]');
  const chosen = await search(page, 'chargeback dispute evidence');
  assert.deepEqual(chosen.retrievers, ['keyword', 'trigram']);
  assertClean(opened);
});

test('the self-query chip shows the condition the server read, as text', async () => {
  const opened = await openPage(browser);
  const { page } = opened;
  await page.goto(BASE + '/');
  await search(page, 'category:case synthetic identity');
  const chips = await page.locator('.from-query .chip').allTextContents();
  assert.deepEqual(chips, ['category = case']);
  assert.match(await page.locator('.from-query .chip').first().getAttribute('title'), /category:case/);
  assertClean(opened);
});

test('results are grouped by document, the exact identifier first, and the hit chunk opens in sight', async () => {
  const opened = await openPage(browser, { width: 1280, height: 720 });
  const { page } = opened;
  await page.goto(BASE + '/');
  const body = await search(page, 'SLR-10472');
  assert.equal(body.topK, 40, 'asks for more chunks than it shows, to fill 10 documents');
  const ids = await page.locator('#results > li.result').evaluateAll((items) => items.map((i) => i.dataset.documentId));
  assert.ok(ids.length >= 5, 'at least five documents: ' + ids);
  assert.equal(new Set(ids).size, ids.length, 'one result per document: ' + ids);
  assert.equal(ids[0], 'case-slr-10472-synthetic-seller', 'the case of the identifier comes first: ' + ids);
  const first = page.locator('#results > li.result').first();
  assert.ok(await first.locator('.more-hits button').count() >= 1, 'the other matching chunks of the case are offered');
  await screenshot(page, 'search-results');

  // Open a chunk far down the document: it is highlighted and scrolled into the view.
  const more = first.locator('.more-hits button').last();
  const label = await more.textContent();
  await more.click();
  const hit = page.locator('#docview .chunk.hit');
  await hit.waitFor();
  assert.match(await hit.locator('.chunk-label').textContent(), new RegExp('^' + label + ' of \\d+ . matched$'));
  await page.waitForFunction(() => !!document.querySelector('#docview .chunk.hit'));
  assert.ok(await isInSight(hit), 'the hit chunk is in sight');
  assert.match(page.url(), /#doc=case-slr-10472-synthetic-seller&chunk=\d+/);
  await screenshot(page, 'search-document');

  // A new search closes the open document.
  await search(page, 'refund abuse');
  assert.equal(await page.locator('#docview').isHidden(), true, 'the document of the old results is closed');
  assert.doesNotMatch(page.url(), /#doc=/);
  assertClean(opened);
});

test('the hit chunk is in sight on a phone too, where the document opens below the results', async () => {
  const opened = await openPage(browser, { width: 390, height: 800 });
  const { page } = opened;
  await page.goto(BASE + '/');
  await search(page, 'SLR-10472');
  await page.locator('#results > li.result').first().locator('.more-hits button').last().click();
  const hit = page.locator('#docview .chunk.hit');
  await hit.waitFor();
  assert.ok(await isInSight(hit), 'the hit chunk is in sight');
  await assertNoHorizontalOverflow(page, 'search at 390 px');
  await screenshot(page, 'search-phone');
  assertClean(opened);
});

test('the namespace picker lists namespaces with their counts and restricts the search', async () => {
  const opened = await openPage(browser);
  const { page } = opened;
  await page.goto(BASE + '/');
  await page.waitForSelector('#namespace option[value="ui-team-b"]', { state: 'attached' });
  const options = await page.locator('#namespace option').allTextContents();
  assert.equal(options[0], 'all namespaces');
  assert.ok(options.includes('ui-team-b (1 doc)'), 'counts shown: ' + options);
  assert.ok(options.some((o) => /^default \(\d+ docs\)$/.test(o)), 'default listed: ' + options);
  await page.selectOption('#namespace', 'ui-team-b');
  const body = await search(page, 'payout holds for new sellers');
  assert.equal(body.namespace, 'ui-team-b');
  const ids = await page.locator('#results > li.result').evaluateAll((items) => items.map((i) => i.dataset.documentId));
  assert.deepEqual(ids, ['ui-team-b-payout-note']);
  assert.match(page.url(), /namespace=ui-team-b/);
  // The documents tab has the same picker.
  await page.click('.tab[data-tab=documents]');
  await page.selectOption('#doc-namespace', 'ui-team-b');
  await page.waitForFunction(() => document.querySelectorAll('#doc-rows tr').length === 1
    && document.querySelector('#doc-rows td.mono') && document.querySelector('#doc-rows td.mono').textContent === 'ui-team-b-payout-note');
  assertClean(opened);
});

test('a document link opens the document with its hit chunk marked', async () => {
  const opened = await openPage(browser);
  const { page } = opened;
  await page.goto(BASE + '/index.html#doc=case-slr-10472-synthetic-seller&chunk=2');
  const hit = page.locator('#docview .chunk.hit');
  await hit.waitFor();
  assert.equal(await page.locator('#docview h2').textContent(), 'Case SLR-10472 - synthetic identity seller closed before bust-out');
  assert.match(await hit.locator('.chunk-label').textContent(), /^chunk 3 of \d+ . matched$/);
  assert.ok(await isInSight(hit));
  const meta = await page.locator('#docview dl.meta dt').allTextContents();
  for (const key of ['id', 'namespace', 'category', 'region']) assert.ok(meta.includes(key), key + ' in ' + meta);
  assertClean(opened);
});
