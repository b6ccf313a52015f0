// Drives the SockJS event-bus bridge with the real npm client (@vertx/eventbus-bridge-client.js over sockjs-client)
// under Node, for BridgeSockJsTest. Usage: node sockjs-client.js <baseUrl> <key> <badKey>
// Prints one JSON object per line: {step, ...}: a search, three refusals, then a decision requested over the bridge
// and the same decision received by a subscription to argus.decisions.created.
'use strict';
const EventBus = require('@vertx/eventbus-bridge-client.js');

const [baseUrl, key, badKey] = process.argv.slice(2);
const out = (o) => process.stdout.write(JSON.stringify(o) + '\n');
const auth = (k) => ({ authorization: 'Bearer ' + k });
const timer = setTimeout(() => { out({ step: 'timeout' }); process.exit(2); }, 60000);

const eb = new EventBus(baseUrl + '/eventbus');
eb.enableReconnect(false);
eb.onerror = (err) => out({ step: 'bridge-error', message: err && (err.body || err.message) });

function request(address, body, headers) {
  return new Promise((resolve) => {
    eb.send(address, body, headers, (err, reply) => resolve(err ? { err } : { body: reply.body }));
  });
}

eb.onopen = async () => {
  const search = await request('argus.retrieve.search', { query: 'triangulation fraud', topK: 5 }, auth(key));
  out({ step: 'search', err: search.err || null,
        results: search.body ? search.body.results.map((r) => ({ id: r.documentId, ns: r.namespace })) : null });

  const forbidden = await request('argus.knowledge.document.delete', { id: 'alpha-doc' }, auth(key));
  out({ step: 'forbidden', err: forbidden.err || null });

  const bad = await request('argus.retrieve.search', { query: 'x' }, auth(badKey));
  out({ step: 'badkey', err: bad.err || null });

  const none = await request('argus.retrieve.search', { query: 'x' }, {});
  out({ step: 'nokey', err: none.err || null });

  // subscribe, then request a decision: the subscriber must receive the decision the request created
  let awaited = null;
  const seen = [];
  const finish = () => { clearTimeout(timer); eb.close(); setTimeout(() => process.exit(0), 100); };
  eb.registerHandler('argus.decisions.created', auth(key), (err, msg) => {
    if (err) {
      out({ step: 'subscription-error', err });
      return;
    }
    seen.push(msg.body.decisionId);
    if (awaited && msg.body.decisionId === awaited) {
      out({ step: 'decision-created', body: { decisionId: msg.body.decisionId, outcome: msg.body.outcome } });
      finish();
    }
  });
  const decided = await request('argus.decide.onboarding', { asOf: '2025-06-01T00:00:00Z', seller: {
    id: 'S-SOCKJS', createdAt: '2023-01-01T00:00:00Z', legalName: 'Sock Js', country: 'NL' } }, auth(key));
  out({ step: 'decision-reply', err: decided.err || null,
        body: decided.body ? { decisionId: decided.body.decisionId, subjectId: decided.body.subjectId,
                               outcome: decided.body.outcome } : null });
  if (decided.err) {
    process.exit(3);
  }
  awaited = decided.body.decisionId;
  if (seen.includes(awaited)) {
    out({ step: 'decision-created', body: { decisionId: awaited, outcome: decided.body.outcome } });
    finish();
  }
};
