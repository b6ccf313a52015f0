/* Operations: health and readiness (GET /api/health, /api/health/deep), a summary of Argus's own meters read from
 * the Prometheus text at /metrics, recent runs, chat and decision (GET /api/runs), with their
 * stored traces (GET /api/runs/{id}/trace; #operations/trace/<runId> opens one), and the audit log
 * (GET /api/audit, administrators). */
(function () {
  'use strict';
  const { el, clear, num, when, pill, table, card, facts, message, chart, PALETTE } = window.UI;
  const api = window.Argus.json;

  /** Prometheus text exposition -> [{name, labels: {k: v}, value}] (comments and malformed lines skipped). */
  function parseMetrics(text) {
    const out = [];
    for (const line of text.split('\n')) {
      if (!line || line.startsWith('#')) continue;
      const m = line.match(/^([a-zA-Z_:][\w:]*)(\{(.*)\})?\s+(\S+)/);
      if (!m) continue;
      const labels = {};
      if (m[3]) for (const l of m[3].matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]] = l[2];
      out.push({ name: m[1], labels, value: Number(m[4]) });
    }
    return out;
  }

  /** Sums a meter's samples grouped by one label. */
  function byLabel(samples, name, label) {
    const out = {};
    for (const s of samples) if (s.name === name) out[s.labels[label] || '-'] = (out[s.labels[label] || '-'] || 0) + s.value;
    return out;
  }
  const total = (samples, name) => samples.filter((s) => s.name === name).reduce((a, s) => a + s.value, 0);

  async function render(root, args) {
    const traceOf = args && args[0] === 'trace' && args[1] ? args[1] : null;
    root.appendChild(el('h1', null, 'Operations'));
    const healthBox = el('div', { id: 'ops-health' }, message('Loading...'));
    const metricsBox = el('div', { id: 'ops-metrics' }, message('Loading...'));
    root.appendChild(el('div', { class: 'grid-2' }, card('Health', healthBox), card('Meters', metricsBox)));
    const runsBox = el('div', { id: 'ops-runs' }, message('Loading...'));
    const traceBox = el('div', { id: 'ops-trace' });
    root.appendChild(card('Recent runs', runsBox, traceBox));
    const auditBox = el('div', { id: 'ops-audit' });
    const auditButton = el('button', { type: 'button', id: 'ops-audit-load' }, 'Show the audit log');
    root.appendChild(card('Audit log', auditButton, auditBox));
    auditButton.addEventListener('click', () => audit(auditBox));

    await Promise.all([health(healthBox), meters(metricsBox), runs(runsBox, traceBox, traceOf)]);
  }

  async function health(box) {
    const [basic, deep] = await Promise.all([
      window.Argus.fetch('/api/health').then((r) => r.json()).catch((e) => ({ status: 'unreachable', error: e.message })),
      window.Argus.fetch('/api/health/deep').then((r) => r.json().then((j) => Object.assign({ httpStatus: r.status }, j))).catch((e) => ({ error: e.message })),
    ]);
    const store = basic.store || {};
    clear(box).append(
      el('p', null, pill(basic.status || '?', basic.status === 'ok' || basic.status === 'ready' ? 'good' : 'warn'), ' ',
        deep.status ? pill('deep: ' + deep.status, deep.status === 'ok' ? 'good' : 'bad') : null),
      facts([['store', (store.type || '') + ' \u00b7 ' + (store.documents ?? '?') + ' documents \u00b7 ' + (store.chunks ?? '?') + ' chunks'],
        ['embedding model', store.embeddingModel], ['LLM', basic.llm ? (basic.llm.enabled ? basic.llm.provider : 'none') : undefined],
        ['waiting for', Array.isArray(deep.waitingFor) && deep.waitingFor.length ? deep.waitingFor.join(', ') : undefined],
        ['consistency', deep.consistency ? (deep.consistency.ok ? 'ok' : 'NOT consistent: ' + JSON.stringify(deep.consistency).slice(0, 300)) : undefined],
        ['deep health', deep.error && !deep.status ? deep.error : undefined]]),
      Array.isArray(deep.verticles) ? table([
        { label: 'Verticle', value: (v) => v.name || v.address || JSON.stringify(v).slice(0, 60) },
        { label: 'State', value: (v) => pill(v.status || (v.ok === false ? 'down' : 'up'), (v.status || (v.ok === false ? 'down' : 'up')) === 'up' ? 'good' : 'bad') },
        { label: 'ms', value: (v) => v.latencyMs ?? v.ms ?? '', class: 'num' },
        { label: 'Note', value: (v) => v.error || '' }], deep.verticles) : null,
      deep.breakers ? el('details', null, el('summary', null, 'breakers, agents and tools'), el('pre', { class: 'json' },
        JSON.stringify({ breakers: deep.breakers, agents: deep.agents, tools: deep.tools, tracing: deep.tracing, retention: deep.retention }, null, 2))) : null);
  }

  async function meters(box) {
    try {
      const resp = await window.Argus.fetch('/metrics', { headers: { Accept: 'text/plain' } });
      if (!resp.ok) throw new Error('HTTP ' + resp.status);
      const samples = parseMetrics(await resp.text());
      const runs = byLabel(samples, 'argus_runs_total', 'status');
      const decisions = byLabel(samples, 'argus_decisions_total', 'outcome');
      const phaseSum = byLabel(samples, 'argus_phase_duration_seconds_sum', 'phase');
      const phaseCount = byLabel(samples, 'argus_phase_duration_seconds_count', 'phase');
      const phases = Object.keys(phaseSum).filter((p) => phaseCount[p] > 0);
      clear(box).append(
        facts([['runs', Object.entries(runs).map(([k, v]) => k + ' ' + v).join(' \u00b7 ') || '0'],
          ['active runs', total(samples, 'argus_runs_active')],
          ['decisions', Object.entries(decisions).map(([k, v]) => k + ' ' + v).join(' \u00b7 ') || '0'],
          ['review queue', total(samples, 'argus_reviews_queue_size') + ' waiting, oldest ' + num(total(samples, 'argus_reviews_queue_age_seconds'), 0) + ' s'],
          ['tool calls', total(samples, 'argus_tool_calls_total')], ['LLM calls', total(samples, 'argus_llm_calls_total')],
          ['LLM fallbacks', total(samples, 'argus_llm_fallbacks_total')], ['documents ingested', total(samples, 'argus_ingest_documents_total')],
          ['evaluation regressions', total(samples, 'argus_eval_regressions_total')]]),
        phases.length ? chart({ type: 'bar', label: 'mean phase duration', data: { labels: phases,
          datasets: [{ label: 'mean phase duration (ms)', data: phases.map((p) => (1000 * phaseSum[p]) / phaseCount[p]), backgroundColor: PALETTE[0] }] },
        options: { plugins: { legend: { display: false }, title: { display: true, text: 'mean phase duration (ms)' } } } }, 200)
          : message('No phase has run yet.'),
        el('p', { class: 'muted small' }, samples.length + ' samples read from /metrics'));
    } catch (e) {
      clear(box).appendChild(message('The meters could not load: ' + e.message, 'error'));
    }
  }

  const RUN_PAGE = 30;

  /** Recent runs, chat and decision alike (GET /api/runs, newest first, paged with before=next); each links to its trace. */
  async function runs(box, traceBox, traceOf) {
    const showTrace = async (runId) => {
      clear(traceBox).appendChild(message('Loading the trace of run ' + runId + '...'));
      const node = await window.Console.traceWaterfall(runId);
      clear(traceBox).append(el('h3', null, 'Trace of run ', el('span', { class: 'mono' }, runId)), node);
    };
    const columns = [
      { label: 'Run', value: (r) => r.runId, class: 'mono small' }, { label: 'When', value: (r) => when(r.createdAt) },
      { label: 'Profile', value: (r) => r.profile },
      { label: 'Status', value: (r) => pill(r.status, r.status === 'completed' ? 'good' : r.status === 'failed' ? 'bad' : 'warn') },
      { label: 'Question', value: (r) => r.question || '', class: 'small' },
      { label: 'ms', value: (r) => (r.finishedAt ? r.finishedAt - r.createdAt : ''), class: 'num' },
      { label: 'Trace', value: (r) => el('a', { href: '#operations/trace/' + encodeURIComponent(r.runId), class: 'trace-link',
        onclick: (ev) => ev.stopPropagation() }, 'trace') },
    ];
    const more = el('button', { type: 'button', id: 'ops-runs-more', hidden: true }, 'Older runs');
    const list = el('div');
    let next = null;
    async function load() {
      const page = await api('GET', '/api/runs?limit=' + RUN_PAGE + (next !== null ? '&before=' + encodeURIComponent(next) : ''));
      const items = Array.isArray(page.items) ? page.items : [];
      next = typeof page.next === 'number' ? page.next : null;
      more.hidden = next === null;
      if (items.length) list.appendChild(table(columns, items, (r) => showTrace(r.runId)));
      else if (!list.childNodes.length) list.appendChild(message('No run yet: ask for a decision or a chat answer.'));
    }
    more.addEventListener('click', () => load().catch((e) => list.appendChild(message('Older runs could not load: ' + e.message, 'error'))));
    try {
      await load();
      clear(box).append(list, more);
    } catch (e) {
      clear(box).appendChild(message('Recent runs could not load: ' + e.message, 'error'));
    }
    if (traceOf) await showTrace(traceOf);
  }

  async function audit(box) {
    try {
      const data = await api('GET', '/api/audit?limit=50');
      const entries = Array.isArray(data.entries) ? data.entries : Array.isArray(data.audit) ? data.audit : [];
      clear(box).appendChild(entries.length ? table([
        { label: 'When', value: (a) => when(a.at || a.atMs || a.createdAt) }, { label: 'Who', value: (a) => (a.actor || '') + (a.role ? ' (' + a.role + ')' : '') },
        { label: 'Action', value: (a) => a.action || '' }, { label: 'Target', value: (a) => a.target || '', class: 'mono small' }, { label: 'Answer', value: (a) => a.outcome ?? '', class: 'num' },
        { label: 'Detail', value: (a) => (a.detail ? JSON.stringify(a.detail).slice(0, 200) : ''), class: 'small' }], entries)
        : message('The audit log is empty.'));
    } catch (e) {
      clear(box).appendChild(message('The audit log could not load: ' + e.message, e.status === 403 ? 'warn' : 'error'));
    }
  }

  window.Console.pages.operations = { title: 'Operations', render };
})();
