/* Adversarial runs: start a batch of planted attacks (POST /api/adversarial/runs {suite: "all" | [types], size?} ->
 * {executionId, status}), follow it (GET /api/adversarial/runs/{id}) and show its report: detection rate per scenario
 * type and the vulnerabilities (missed scenarios) by severity. When the server has no such route (404) the page says
 * so instead of failing. */
(function () {
  'use strict';
  const { el, clear, num, pct, pill, table, card, facts, message, chart, PALETTE } = window.UI;
  const api = window.Argus.json;
  const TYPES = ['synthetic_identity', 'mule_network', 'structuring', 'account_takeover', 'collusion_ring',
    'obfuscated_identifiers', 'hidden_instructions', 'poisoned_documents', 'fabricated_citations'];
  const SEVERITY_KIND = { critical: 'bad', high: 'bad', medium: 'warn', low: 'neutral' };
  const POLL_MS = 1500;
  const UNAVAILABLE = 'Adversarial runs are not available on this server: it has no /api/adversarial/runs route (404). '
    + 'They arrive with the adversarial capability; the rest of the console works without it.';

  async function render(root, args) {
    let timer = null;
    let stopped = false;
    root.appendChild(el('h1', null, 'Adversarial runs'));
    const all = el('input', { type: 'checkbox', id: 'adv-all', checked: true });
    const boxes = TYPES.map((t) => el('label', { class: 'check' }, el('input', { type: 'checkbox', name: 'type', value: t, disabled: true }), ' ' + t));
    all.addEventListener('change', () => boxes.forEach((b) => { b.firstChild.disabled = all.checked; }));
    const size = el('input', { type: 'number', id: 'adv-size', min: 1, max: 1000, placeholder: 'server default' });
    const start = el('button', { type: 'submit', class: 'primary', id: 'adv-start' }, 'Start run');
    const status = el('div', { id: 'adv-status', role: 'status' });
    const report = el('div', { id: 'adv-report' });
    const form = el('form', { id: 'adv-form' }, el('label', { class: 'check' }, all, ' all scenario types'),
      el('fieldset', { class: 'types' }, el('legend', null, 'or only these'), boxes),
      el('div', { class: 'row wrap' }, el('label', null, 'Scenarios per type ', size), start));
    root.append(card('New run', form, status), report);

    const unavailable = () => {
      clear(status).appendChild(message(UNAVAILABLE, 'warn'));
      start.disabled = true;
    };

    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const body = { suite: all.checked ? 'all' : boxes.map((b) => b.firstChild).filter((c) => c.checked).map((c) => c.value) };
      if (Array.isArray(body.suite) && !body.suite.length) { clear(status).appendChild(message('Pick at least one type.', 'warn')); return; }
      if (size.value) body.size = Number(size.value);
      start.disabled = true;
      try {
        const started = await api('POST', '/api/adversarial/runs', body);
        window.Console.go('#adversarial/' + encodeURIComponent(started.executionId));
      } catch (e) {
        if (e.status === 404) unavailable();
        else clear(status).appendChild(message('The run was refused: ' + e.message, 'error'));
      } finally {
        if (!status.querySelector('.warn')) start.disabled = false;
      }
    });

    const id = args[0];
    if (id) {
      const follow = async () => {
        if (stopped) return;
        try {
          const run = await api('GET', '/api/adversarial/runs/' + encodeURIComponent(id));
          clear(status).appendChild(el('p', { class: 'message muted' }, 'Run ', el('span', { class: 'mono' }, id), ' ', pill(run.status || '?', run.status === 'failed' ? 'bad' : run.status === 'completed' ? 'good' : 'warn')));
          clear(report).appendChild(drawReport(run));
          if (run.status !== 'completed' && run.status !== 'failed') timer = setTimeout(follow, POLL_MS);
        } catch (e) {
          if (e.status === 404) clear(status).appendChild(message('No adversarial run ' + id + ' on this server (404): the route or the run does not exist.', 'warn'));
          else clear(status).appendChild(message('The run could not load: ' + e.message, 'error'));
        }
      };
      await follow();
    }
    return () => { stopped = true; if (timer) clearTimeout(timer); };
  }

  function drawReport(run) {
    const r = run.report || run;
    const types = r.types && typeof r.types === 'object' ? Object.entries(r.types) : [];
    if (!types.length) return card('Report', message(run.status === 'failed' ? 'The run failed: ' + (run.error || 'no reason given') : 'No findings yet.'));
    const rated = types.filter(([, t]) => typeof t.detectionRate === 'number');
    const bySeverity = Object.entries(r.vulnerabilitiesBySeverity || {});
    const vulns = Array.isArray(r.vulnerabilities) ? r.vulnerabilities : [];
    return el('div', null,
      el('div', { class: 'grid-2' },
        card('Detection rate per scenario type', chart({ type: 'bar', label: 'detection rate per scenario type',
          data: { labels: rated.map(([k]) => k), datasets: [{ label: 'detected / judged', data: rated.map(([, t]) => t.detectionRate), backgroundColor: PALETTE[2] }] },
          options: { indexAxis: 'y', scales: { x: { min: 0, max: 1 } }, plugins: { legend: { display: false } } } }, Math.max(160, rated.length * 26)),
        facts([['planted', (r.totals || {}).planted], ['detected', (r.totals || {}).detected], ['missed', (r.totals || {}).missed],
          ['errors', (r.totals || {}).errors], ['overall detection', pct((r.totals || {}).detectionRate)]])),
        card('Vulnerabilities by severity', el('ul', { class: 'severities' }, bySeverity.map(([s, n]) =>
          el('li', null, pill(s, SEVERITY_KIND[s] || 'neutral'), ' ', el('strong', null, String(n)))))),
      ),
      card('Per type', table([
        { label: 'Type', value: ([k]) => k, class: 'mono' }, { label: 'Planted', value: ([, t]) => t.planted, class: 'num' },
        { label: 'Detected', value: ([, t]) => t.detected, class: 'num' }, { label: 'Missed', value: ([, t]) => t.missed, class: 'num' },
        { label: 'Errors', value: ([, t]) => t.errors, class: 'num' }, { label: 'Detection', value: ([, t]) => pct(t.detectionRate), class: 'num' },
        { label: 'A miss is', value: ([, t]) => pill(t.severityIfMissed, SEVERITY_KIND[t.severityIfMissed] || 'neutral') },
        { label: 'Techniques', value: ([, t]) => Object.entries(t.techniques || {}).map(([n, c]) => n + ' ' + (c.detected || 0) + '/' + (c.planted || 0)).join(', '), class: 'small' },
      ], types)),
      card('Vulnerabilities (missed scenarios)', vulns.length ? table([
        { label: 'Severity', value: (v) => pill(v.severity, SEVERITY_KIND[v.severity] || 'neutral') }, { label: 'Type', value: (v) => v.type, class: 'mono' },
        { label: 'Technique', value: (v) => v.technique }, { label: 'Subject', value: (v) => v.subject, class: 'mono' },
        { label: 'Observed', value: (v) => (typeof v.observed === 'string' ? v.observed : JSON.stringify(v.observed || '')), class: 'small' },
      ], vulns) : message('None: every judged scenario was caught.')));
  }

  window.Console.pages.adversarial = { title: 'Adversarial runs', render };
})();
