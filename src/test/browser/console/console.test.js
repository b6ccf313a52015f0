'use strict';
// The analyst console against a started Argus in protected mode (ConsolePagesTest: admin key in ARGUS_KEY, a
// generated world of 60 sellers loaded). One tab for the whole file: the key lives in the tab's sessionStorage, as
// it does for an analyst. Every test fails on any browser console error, page error, dialog or failed request that
// it did not expect (the browser's own log of the 401 before signing in and of the adversarial route's 404 are the
// only expected ones).
const { test, before, after, beforeEach } = require('node:test');
const assert = require('node:assert/strict');
const { BASE, KEY, launch, openPage, assertClean, assertNoHorizontalOverflow, screenshot, api, ingest } = require('../lib/browser');

const SELLER = 'S-000001';
const BIG = 'T-UI-BIG';
const XSS_SELLER = 'S-UI-XSS';
const PAYLOAD = '<img src=x onerror="window.__pwned=\'seller\';alert(\'seller\')">';
const REASON = 'Invoice checked <img src=x onerror="window.__pwned=\'review\';alert(\'review\')"> ok';
const NS = 'console-inert';
const DOC_TITLE = '<script>window.__pwned="title";alert("title")</script> Payout hold escalation';

let browser;
let opened;
let page;
const made = {};

before(async () => {
  assert.ok(KEY, 'ARGUS_KEY is set (the console tests run in protected mode)');
  const seller = await api('GET', '/api/records/' + SELLER);
  const records = [
    // a transaction above the policy's 10,000 review amount: its decision waits for a person, whatever the scores
    { kind: 'transaction', id: BIG, at: '2025-06-20T10:00:00Z', sellerId: SELLER, buyerId: 'B-UI-1', amount: 25000,
      currency: 'EUR', cardBin: '471149', cardLast4: '4242', cardCountry: 'DE', deviceId: 'dev-ui-000001',
      ip: '100.64.200.1', country: 'DE', status: 'approved' },
    // a seller whose names carry script payloads (they reach the graph's labels)
    { kind: 'seller', id: XSS_SELLER, createdAt: '2025-01-10T10:00:00Z', legalName: 'Eve ' + PAYLOAD,
      businessName: PAYLOAD + ' Shop', email: 'eve@ui-xss.example', phone: '+12015559999',
      address: { line1: '1 Test Street', city: 'Testville', postalCode: '10001', country: 'DE' }, country: 'DE',
      website: 'https://ui-xss.example', taxId: 'TIN-999999999', bankAccount: 'DE00TEST00000000009999',
      deviceIds: ['dev-ui-xss'], ips: ['100.64.200.9'], status: 'active' },
  ];
  assert.equal(seller.id, SELLER);
  const job = await api('POST', '/api/records?wait=true', records.map((r) => JSON.stringify(r)).join('\n') + '\n');
  assert.equal(job.failed, 0, JSON.stringify(job.errors));
  await ingest({ id: 'console-inert-doc', namespace: NS, title: DOC_TITLE, format: 'text',
    text: 'Payout hold escalation applies when payout velocity triples within a day. <svg onload="window.__pwned=\'svg\';alert(\'svg\')"></svg>' });
  browser = await launch();
  opened = await openPage(browser);
  page = opened.page;
  // A run's trace is stored just after the run ends: the decision page asks again on a 404, which the browser logs.
  opened.allowConsole(/status of 404.*\/api\/runs\/[^/]+\/trace/);
});
after(async () => { if (browser) await browser.close(); });
// Each test answers for its own problems.
beforeEach(() => { if (opened) opened.problems.length = 0; });

/** Nothing from the server became markup, and no payload ran. */
async function assertInert(scope) {
  const found = await page.evaluate((sel) => {
    const root = document.querySelector(sel);
    return {
      pwned: window.__pwned === undefined ? null : String(window.__pwned),
      injected: root ? Array.from(root.querySelectorAll('img, svg, script, iframe')).map((e) => e.outerHTML.slice(0, 80)) : ['no ' + sel],
    };
  }, scope);
  assert.deepEqual(found, { pwned: null, injected: [] }, scope);
}

/** True when a canvas inside the selector has at least one painted pixel. */
async function painted(selector) {
  await page.locator(selector + ' canvas').first().waitFor();
  return page.waitForFunction((sel) => Array.from(document.querySelectorAll(sel + ' canvas')).some((c) => {
    if (!c.width || !c.height) return false;
    const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) return true;
    return false;
  }), selector).then(() => true);
}

/** Asks for a decision with the form and waits for its page. */
async function decide(kind, id) {
  await page.goto(BASE + '/console.html#decisions');
  await page.selectOption('#decide-kind', kind);
  await page.fill('#decide-subject', id);
  await page.click('#decide-submit');
  await page.waitForURL(/#decision\/dec-/, { timeout: 120000 });
  await page.locator('#risk-score').waitFor();
  return decodeURIComponent(page.url().split('#decision/')[1]);
}

test('signing in with the key', async () => {
  const stopAllowing = opened.allowConsole(/status of 401/);
  await page.goto(BASE + '/console.html');
  await page.locator('#argus-signin[open]').waitFor();
  assert.match(await page.locator('#argus-who').textContent(), /not signed in|\.\.\./);
  await screenshot(page, 'console-signin');
  await page.fill('#argus-key', KEY);
  await page.click('#argus-signin-submit');
  await page.waitForFunction(() => /admin/.test(document.getElementById('argus-who').textContent));
  stopAllowing();
  await page.locator('#decision-list').waitFor();
  await page.waitForFunction(() => !/Loading/.test(document.getElementById('decision-list').textContent));
  assert.equal(await page.evaluate(() => window.sessionStorage.getItem('argus.key')), KEY);
  assert.ok(!page.url().includes(KEY), 'the key is never in the address');
  assertClean(opened, 'sign in');
});

test('deciding on a seller: outcome, reasons with citations, signals chart, graph, trace', async () => {
  const id = await decide('onboarding', SELLER);
  made.seller = id;
  const stored = await api('GET', '/api/decisions/' + encodeURIComponent(id));
  assert.equal(stored.subjectId, SELLER);
  assert.equal((await page.locator('.headline .pill').first().textContent()).trim(), stored.outcome);
  assert.equal((await page.locator('#risk-score').textContent()).trim(), stored.riskScore.toFixed(1));
  const citations = await page.locator('#reasons .citation .pill').allTextContents();
  assert.ok(citations.length >= 1, 'reasons carry citations');
  citations.forEach((c) => assert.match(c, /^(valid|flagged|excluded|unvalidated)$/));
  assert.ok(await painted('#signals-chart'), 'the signals chart is drawn');
  await page.locator('.graph[data-nodes]').waitFor({ timeout: 60000 });
  const nodes = Number(await page.locator('.graph').getAttribute('data-nodes'));
  assert.ok(nodes > 1, 'the graph shows entities around the seller: ' + nodes);
  assert.ok(await painted('.graph-canvas'), 'the graph is drawn');
  await page.locator('#run-trace .waterfall li').nth(2).waitFor();
  assert.ok(await page.locator('#phase-timeline li').count() >= 5, 'phase timeline');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('button.export[data-format=json]')]);
  const exported = JSON.parse(require('node:fs').readFileSync(await download.path(), 'utf8'));
  assert.equal(exported.decisionId || (exported.decision && exported.decision.decisionId), id, 'the audit file of this decision');
  await screenshot(page, 'console-decision');
  assertClean(opened, 'decision');
});

test('review queue: claim and approve with a reason, by keyboard', async () => {
  const id = await decide('transactions', BIG);
  made.big = id;
  assert.equal((await page.locator('.headline .pill').nth(1).textContent()).trim(), 'PENDING_REVIEW');
  await page.goto(BASE + '/console.html#review');
  const item = page.locator('#review-list [data-review]', { hasText: BIG });
  await item.waitFor();
  await item.click();
  await page.locator('#review-list').focus();
  await page.keyboard.press('c');
  await page.locator('#review-status', { hasText: 'Claimed' }).waitFor();
  await page.locator('#review-panel', { hasText: 'analyst' }).waitFor();
  await page.keyboard.press('a'); // no reason yet: the reason box takes focus instead
  await page.locator('#review-status', { hasText: 'Reason needed' }).waitFor();
  assert.equal(await page.evaluate(() => document.activeElement.id), 'review-reason');
  await page.keyboard.type(REASON);
  await screenshot(page, 'console-review');
  await page.keyboard.press('Escape');
  await page.keyboard.press('a');
  await page.locator('#review-status', { hasText: 'approve recorded' }).waitFor();
  const newId = await page.locator('#review-status a').textContent();
  const corrected = await api('GET', '/api/decisions/' + encodeURIComponent(newId));
  assert.equal(corrected.correctsDecisionId, id);
  assert.equal(corrected.outcome, 'ALLOW');
  assert.equal(corrected.status, 'FINAL');
  assert.equal(corrected.review.reason, REASON);
  made.corrected = newId;
  await assertInert('#view');
  assertClean(opened, 'review');
});

test('the correction shows the analyst reason as text, and feedback is recorded', async () => {
  await page.goto(BASE + '/console.html#decision/' + encodeURIComponent(made.corrected));
  await page.locator('#risk-score').waitFor();
  assert.ok((await page.locator('#view').textContent()).includes(REASON), 'the reason as written');
  await page.selectOption('#feedback-form select[name=reason]', 'good_decision');
  await page.fill('#feedback-form textarea', 'fine <script>window.__pwned="comment"</script>');
  await page.click('#feedback-form button[type=submit]');
  await page.locator('text=Feedback recorded.').waitFor();
  await page.waitForTimeout(300);
  await assertInert('#view');
  await page.goto(BASE + '/console.html#feedback');
  assert.ok(await painted('.page-feedback .chart-box'), 'reliability diagram drawn');
  assert.ok((await page.locator('#view').textContent()).includes('good_decision'));
  await screenshot(page, 'console-feedback');
  assertClean(opened, 'feedback');
});

test('evaluation: trend after aggregation and the reliability diagram', async () => {
  await page.goto(BASE + '/console.html#evaluation');
  await page.locator('#eval-trend').waitFor();
  for (let i = 0; i < 20; i++) {
    await page.click('#eval-aggregate');
    await page.waitForFunction(() => !/Loading/.test(document.getElementById('eval-trend').textContent));
    if (!/No hourly aggregate/.test(await page.locator('#eval-trend').textContent())) break;
    await page.waitForTimeout(1000); // decisions are scored after they end
  }
  assert.ok(!/No hourly aggregate/.test(await page.locator('#eval-trend').textContent()), 'a trend point exists');
  assert.ok(await painted('#eval-trend'), 'trend chart drawn');
  assert.ok(await painted('#eval-reliability'), 'reliability diagram drawn');
  await page.locator('#eval-sets .set').first().waitFor();
  await screenshot(page, 'console-evaluation');
  assertClean(opened, 'evaluation');
});

test('a chart built before its card is attached is drawn once attached; one dropped with its view is not', async () => {
  await page.goto(BASE + '/console.html#evaluation'); // any console page: UI and Chart.js are loaded
  await page.locator('#eval-trend').waitFor();
  const late = await page.evaluate(async () => {
    const frames = (n) => new Promise((done) => { const step = (i) => (i ? requestAnimationFrame(() => step(i - 1)) : done()); step(n); });
    const build = (id) => {
      const box = window.UI.chart({ type: 'line', label: id, data: { labels: ['a', 'b'], datasets: [{ label: id, data: [0, 1] }] } }, 120);
      box.id = id;
      return box;
    };
    const kept = build('late-chart');
    const dropped = build('dropped-chart');
    await frames(5); // detached for several frames, as a card is while its page waits for other requests
    window.UI.destroyCharts(document.getElementById('eval-trend')); // redrawing another chart leaves it waiting
    document.getElementById('view').appendChild(kept);
    window.UI.destroyCharts(dropped); // its part of the view is gone before it was ever attached
    document.getElementById('view').appendChild(dropped);
    await frames(5);
    return { kept: kept.dataset.ready || null, dropped: dropped.dataset.ready || null };
  });
  assert.deepEqual(late, { kept: 'true', dropped: null });
  assert.ok(await painted('#late-chart'), 'late chart drawn');
  assertClean(opened, 'late chart');
});

test('adversarial runs: a clear message when the server has no such route', async () => {
  const stopAllowing = opened.allowConsole(/status of 404.*\/api\/adversarial\/runs/);
  await page.goto(BASE + '/console.html#adversarial');
  await page.click('#adv-start');
  await Promise.race([
    page.locator('#adv-status .message.warn', { hasText: 'not available' }).waitFor(),
    page.waitForURL(/#adversarial\/.+/), // once the adversarial capability is merged, the run starts instead
  ]);
  if (/#adversarial\/.+/.test(page.url())) {
    await page.locator('#adv-status .pill').waitFor();
  } else {
    assert.ok(await page.locator('#adv-start').isDisabled(), 'nothing more to start');
  }
  await screenshot(page, 'console-adversarial');
  stopAllowing();
  assertClean(opened, 'adversarial');
});

test('operations: health, meters, recent runs (a chat run among them) with their traces and the audit log', async () => {
  // a chat run (the stream read to its end), with a question that carries markup: the list shows it as text
  const question = 'What is the refund policy? <img src=x onerror="window.__pwned=\'runs\'"> ' + Date.now();
  await api('POST', '/api/chat', { question });
  const listed = await api('GET', '/api/runs?limit=10');
  const chatRun = listed.items.find((r) => r.question === question);
  assert.ok(chatRun, 'the chat run is listed by GET /api/runs');
  for (let i = 0; ; i++) { // its trace is stored just after the run ends
    const resp = await fetch(BASE + '/api/runs/' + encodeURIComponent(chatRun.runId) + '/trace', { headers: { Authorization: 'Bearer ' + KEY } });
    if (resp.ok) break;
    assert.ok(i < 50, 'the chat run\'s trace is stored');
    await new Promise((r) => setTimeout(r, 100));
  }
  await page.goto(BASE + '/console.html#operations');
  await page.locator('#ops-health .pill').first().waitFor();
  assert.ok(await painted('#ops-metrics'), 'phase duration chart drawn');
  assert.ok(/decisions/.test(await page.locator('#ops-metrics').textContent()));
  const row = page.locator('#ops-runs tr.clickable', { hasText: chatRun.runId });
  await row.waitFor();
  assert.equal(await row.locator('td').nth(4).textContent(), question);
  await assertInert('#ops-runs');
  const link = row.locator('a.trace-link');
  assert.equal(await link.getAttribute('href'), '#operations/trace/' + encodeURIComponent(chatRun.runId));
  await link.click();
  await page.waitForURL(/#operations\/trace\//);
  await page.locator('#ops-trace h3', { hasText: chatRun.runId }).waitFor();
  await page.locator('#ops-trace .waterfall li').nth(2).waitFor();
  await page.click('#ops-audit-load');
  await page.locator('#ops-audit td', { hasText: '/api/reviews/' }).first().waitFor();
  await screenshot(page, 'console-operations');
  assertClean(opened, 'operations');
});

test('graph labels carrying script payloads stay text', async () => {
  const d = await api('POST', '/api/decisions/onboarding', { sellerId: XSS_SELLER });
  await page.goto(BASE + '/console.html#decision/' + encodeURIComponent(d.decisionId));
  await page.locator('.graph[data-nodes]').waitFor({ timeout: 60000 });
  const label = await page.evaluate(() => {
    const cy = document.querySelector('.graph-canvas').cy;
    const node = cy.nodes().filter((n) => n.data('label').includes('<img')).first();
    node.emit('tap');
    return node.data('label');
  });
  assert.ok(label.includes('<img src=x'), 'the label as written: ' + label);
  await page.locator('.graph-details dl').waitFor();
  assert.ok((await page.locator('.graph-details').textContent()).includes('<img src=x'));
  await page.waitForTimeout(300);
  await assertInert('#view');
  await screenshot(page, 'console-graph-payload');
  assertClean(opened, 'graph payload');
});

test('knowledge and chat pages send the key too', async () => {
  await page.goto(BASE + '/index.html?namespace=' + NS + '&q=' + encodeURIComponent('payout hold escalation'));
  await page.waitForSelector('#results > li.result');
  assert.ok((await page.locator('#results .result-title').allTextContents()).includes(DOC_TITLE));
  await assertInert('#results');
  await page.waitForFunction(() => /admin/.test(document.getElementById('argus-who').textContent));
  await screenshot(page, 'console-knowledge');
  await page.goto(BASE + '/chat.html');
  await page.fill('#namespace', NS);
  await page.fill('#question', 'When does a payout hold escalation apply?');
  await page.click('#send');
  await page.locator('#thread .msg .meta .badge').waitFor({ timeout: 120000 });
  await assertInert('#thread');
  await screenshot(page, 'console-chat');
  assertClean(opened, 'knowledge and chat');
});

test('laptop and tablet widths: no horizontal scrolling', async () => {
  for (const [width, height] of [[1366, 900], [820, 1180]]) {
    await page.setViewportSize({ width, height });
    for (const hash of ['#decisions', '#decision/' + encodeURIComponent(made.seller), '#review', '#feedback', '#evaluation', '#operations']) {
      await page.goto(BASE + '/console.html' + hash);
      await page.locator('.page h1').first().waitFor();
      await page.waitForTimeout(500);
      await assertNoHorizontalOverflow(page, width + 'px ' + hash);
    }
    await page.goto(BASE + '/console.html#decision/' + encodeURIComponent(made.seller));
    await page.locator('.graph[data-nodes]').waitFor({ timeout: 60000 });
    await screenshot(page, 'console-decision-' + width);
  }
  assertClean(opened, 'widths');
});
