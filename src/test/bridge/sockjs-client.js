// Drives the SockJS event-bus bridge with the real npm client (@vertx/eventbus-bridge-client.js over sockjs-client)
// under Node, for BridgeSockJsTest. Usage: node sockjs-client.js <baseUrl> <key> <badKey>
// Prints one JSON object per line: {step, ...}. After "registered", the Java test publishes argus.decisions.created
// repeatedly until this script reports the message (a registration is not acknowledged by the bridge).
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

  eb.registerHandler('argus.decisions.created', auth(key), (err, msg) => {
    if (err) {
      out({ step: 'decision-error', err });
      return;
    }
    out({ step: 'decision', body: msg.body });
    clearTimeout(timer);
    eb.close();
    setTimeout(() => process.exit(0), 100);
  });
  out({ step: 'registered' });
};
