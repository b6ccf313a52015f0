/* Feedback: analysts' verdicts in numbers (GET /api/feedback/stats), accuracy by confidence as a reliability
 * diagram, and the unlabelled decisions the model was least sure of (GET /api/feedback/queue) to label next. */
(function () {
  'use strict';
  const { el, clear, num, pct, outcomePill, table, card, facts, message, chart } = window.UI;
  const api = window.Argus.json;

  /** A reliability diagram: accuracy against mean confidence per bucket, with the diagonal of perfect calibration. */
  function reliabilityChart(series, label) {
    const datasets = [{ label: 'perfect calibration', type: 'line', data: [{ x: 0, y: 0 }, { x: 1, y: 1 }],
      borderColor: '#94a3b8', borderDash: [4, 4], pointRadius: 0, fill: false }];
    series.forEach((s, i) => datasets.push({ label: s.name, type: 'line', showLine: true, fill: false,
      data: (s.points || []).map((p) => ({ x: p.confidence, y: p.accuracy })),
      borderColor: window.UI.PALETTE[i % window.UI.PALETTE.length], backgroundColor: window.UI.PALETTE[i % window.UI.PALETTE.length],
      pointRadius: (s.points || []).map((p) => Math.min(10, 3 + Math.sqrt(p.count || 1))) }));
    return chart({ type: 'scatter', label: label || 'reliability diagram', data: { datasets },
      options: { scales: { x: { min: 0, max: 1, title: { display: true, text: 'confidence' } },
        y: { min: 0, max: 1, title: { display: true, text: 'share right' } } } } }, 260);
  }

  async function render(root) {
    root.appendChild(el('h1', null, 'Feedback'));
    const [stats, queue] = await Promise.all([
      api('GET', '/api/feedback/stats'),
      api('GET', '/api/feedback/queue?limit=25').catch((e) => ({ error: e.message })),
    ]);
    const t = stats.total || {};
    const rel = stats.accuracyByConfidence || {};
    const grid = el('div', { class: 'grid-2' });
    grid.append(
      card('Verdicts', facts([['all', t.count], ['right', t.correct], ['wrong', t.incorrect], ['accuracy', pct(t.accuracy)],
        ['mean rating', num(t.meanRating, 1)], ['last 24 h', (stats.last24h || {}).count], ['ECE', num(rel.ece, 3)],
        ['labelled decisions', Object.entries(stats.labelledDecisions || {}).map(([p, n]) => p + ' ' + n).join(', ') || '0']])),
      card('Accuracy by confidence', reliabilityChart([{ name: 'decisions', points: rel.reliabilityDiagram || [] }], 'accuracy by confidence'),
        (rel.reliabilityDiagram || []).length ? null : message('No labelled decision yet: the points appear with the first verdicts.')));
    root.appendChild(grid);
    const rows = (key) => (Array.isArray(stats[key]) ? stats[key] : []);
    const counts = [
      { label: 'Count', value: (r) => r.count, class: 'num' }, { label: 'Right', value: (r) => r.correct, class: 'num' },
      { label: 'Wrong', value: (r) => r.incorrect, class: 'num' }, { label: 'Accuracy', value: (r) => pct(r.accuracy), class: 'num' },
    ];
    root.appendChild(el('div', { class: 'grid-2' },
      card('By reason', table([{ label: 'Reason', value: (r) => r.reason || r.key || r.name }].concat(counts), rows('byReason'))),
      card('By analyst', table([{ label: 'Analyst', value: (r) => r.analyst || r.key || r.name }].concat(counts), rows('byAnalyst')))));
    const list = queue.error ? message('The queue could not load: ' + queue.error, 'error')
      : table([
        { label: 'Decision', value: (d) => d.decisionId, class: 'mono' }, { label: 'Subject', value: (d) => d.subjectId, class: 'mono' },
        { label: 'Profile', value: (d) => d.profile }, { label: 'Outcome', value: (d) => outcomePill(d.outcome) },
        { label: 'Confidence', value: (d) => num(d.calibratedConfidence ?? d.confidence), class: 'num' },
      ], Array.isArray(queue.items) ? queue.items : [],
      (d) => window.Console.go('#decision/' + encodeURIComponent(d.decisionId)));
    root.appendChild(card('To label next (least confident first)', list));
  }

  window.Console.reliabilityChart = reliabilityChart;
  window.Console.pages.feedback = { title: 'Feedback', render };
})();
