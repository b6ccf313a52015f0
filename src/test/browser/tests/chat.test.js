'use strict';
// The chat page (chat.html) against the running service (no LLM: the rule-based phases and the extractive composer
// answer from the sample knowledge base).
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { BASE, launch, openPage, assertClean, assertNoHorizontalOverflow, isInSight, screenshot } =
  require('../lib/browser');

const ANSWER_MS = 90000;

let browser;
before(async () => { browser = await launch(); });
after(async () => { if (browser) await browser.close(); });

/** Asks a question and waits for its turn to finish (the verification badge of the last answer). */
async function ask(page, question) {
  const turns = await page.locator('#thread .msg:not(.user)').count();
  await page.fill('#question', question);
  await page.click('#send');
  const turn = page.locator('#thread .msg:not(.user)').nth(turns);
  await turn.locator('.meta .badge').waitFor({ timeout: ANSWER_MS });
  return turn;
}

test('a streamed answer with citations; a citation opens its chunk; the page scrolls to each new answer', async () => {
  const opened = await openPage(browser, { width: 1280, height: 720 });
  const { page } = opened;
  const tokens = [];
  page.on('response', (r) => { if (r.url().endsWith('/api/chat')) tokens.push(r.headers()['content-type']); });
  await page.goto(BASE + '/chat.html');
  const turn = await ask(page, 'What are the signs of a synthetic identity seller?');
  assert.match(tokens[0], /^text\/event-stream/);
  assert.equal(await turn.locator('.meta .badge').getAttribute('class'), 'badge ok', 'verified');
  assert.ok((await turn.locator('.answer').textContent()).length > 40, 'an answer');
  assert.ok(await turn.locator('.answer a.cite').count() >= 1, 'inline citation links');
  assert.ok(await turn.locator('.sources li').count() >= 1, 'a source list');
  assert.deepEqual(await turn.locator('.timeline .step.done').count(), 5, 'all five phases shown as done');

  await turn.locator('.answer a.cite').first().click();
  const hit = page.locator('#viewer .chunk.hit');
  await hit.waitFor();
  assert.ok(await isInSight(hit), 'the cited chunk is in sight');

  // Two more questions make the thread taller than the window: each new answer is brought into sight.
  await ask(page, 'How are chargebacks disputed?');
  const last = await ask(page, 'Which identifiers link the Marlow group accounts?');
  assert.ok(await isInSight(last.locator('.answer')), 'the newest answer is in sight');
  assert.ok(await page.evaluate(() => window.scrollY > 0), 'the page scrolled down to it');
  await screenshot(page, 'chat-1280');
  assertClean(opened);
});

test('a stream that drops before the final event resumes from the run events and finishes the turn', async () => {
  const opened = await openPage(browser);
  const { page } = opened;
  const resumed = [];
  page.on('request', (r) => { if (/\/api\/runs\/[^/]+\/events/.test(r.url())) resumed.push(r.url()); });
  // Deliver only the first three events of the real stream, then end it, as a dropped connection would.
  await page.route('**/api/chat', async (route) => {
    const response = await route.fetch();
    const body = await response.text();
    const frames = body.split('\n\n').filter((f) => f.trim() && !f.startsWith(':'));
    assert.ok(frames.length > 5, 'the real stream had more events: ' + frames.length);
    await route.fulfill({ status: 200, headers: response.headers(), body: frames.slice(0, 3).join('\n\n') + '\n\n' });
  });
  await page.goto(BASE + '/chat.html');
  const turn = await ask(page, 'What is a refund abuse ring?');
  assert.equal(resumed.length >= 1, true, 'the page asked the run for the rest');
  assert.match(resumed[0], /\/api\/runs\/[^/]+\/events\?lastEventId=3$/);
  assert.match(await turn.locator('.meta .badge').textContent(), /verified/);
  assert.ok((await turn.locator('.answer').textContent()).length > 40, 'the answer arrived');
  assert.ok(await turn.locator('.sources li').count() >= 1, 'with its sources');
  assert.equal(await turn.locator('.timeline .step.done').count(), 5, 'every phase event arrived once');
  assertClean(opened);
});

for (const [width, height] of [[1280, 800], [820, 1180], [390, 844]]) {
  test(`layout at ${width} px: no horizontal overflow, the source viewer ${width > 900 ? 'beside' : 'below'} the thread`, async () => {
    const opened = await openPage(browser, { width, height });
    const { page } = opened;
    await page.goto(BASE + '/chat.html');
    await page.fill('#namespace', 'default');
    const turn = await ask(page, 'Which device fingerprint links SLR-10472 and SLR-10588?');
    await turn.locator('.sources li a').first().click();
    await page.locator('#viewer .chunk').first().waitFor();
    await assertNoHorizontalOverflow(page, `chat at ${width} px`);
    const boxes = await page.evaluate(() => {
      const box = (sel) => document.querySelector(sel).getBoundingClientRect().toJSON();
      return { thread: box('#thread'), viewer: box('#viewer'), send: box('#send'), question: box('#question') };
    });
    if (width > 900) {
      assert.ok(boxes.viewer.left >= boxes.thread.right, 'viewer beside the thread');
    } else {
      assert.ok(boxes.viewer.top >= boxes.thread.bottom, 'viewer below the thread');
      assert.ok(boxes.thread.width >= width - 40, 'the thread uses the width: ' + boxes.thread.width);
    }
    for (const k of ['send', 'question']) assert.ok(boxes[k].right <= width && boxes[k].width > 40, k + ' fits');
    await screenshot(page, `chat-${width}`);
    assertClean(opened);
  });
}
