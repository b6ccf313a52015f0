/* Evaluation: hourly trends of the online scores (GET /api/eval/trend), detected regressions, the reliability diagram
 * of each decision profile's confidence (GET /api/calibration), and experiments - golden-set runs against their
 * baselines (GET /api/eval/sets[/name/results]) and decision backtests (GET /api/backtests). */
(function () {
  'use strict';
  const { el, clear, num, pct, when, pill, table, card, facts, message, chart, PALETTE } = window.UI;
  const api = window.Argus.json;
  const METRICS = ['aggregate', 'groundedness', 'contextRelevance', 'answerRelevance', 'faithfulness', 'citationPrecision',
    'citationValidityRate', 'evidenceCoverage', 'consensusAgreement', 'reflectionConcerns'];

  async function render(root) {
    root.appendChild(el('h1', null, 'Evaluation'));
    const metric = el('select', { id: 'eval-metric' }, METRICS.map((m) => el('option', { value: m }, m)));
    const hours = el('select', { id: 'eval-hours' }, [24, 72, 168, 720].map((h) => el('option', { value: h }, h + ' h')));
    hours.value = '168';
    const trendBox = el('div', { id: 'eval-trend' });
    const aggregate = el('button', { type: 'button', id: 'eval-aggregate' }, 'Aggregate now');
    const trendCard = card('Trend', el('div', { class: 'row wrap' }, el('label', null, 'Metric ', metric), el('label', null, 'Window ', hours), aggregate), trendBox);
    root.appendChild(trendCard);

    async function drawTrend() {
      clear(trendBox).appendChild(message('Loading...'));
      try {
        const t = await api('GET', '/api/eval/trend?metric=' + encodeURIComponent(metric.value) + '&hours=' + hours.value);
        const series = Array.isArray(t.series) ? t.series : [];
        window.UI.destroyCharts(trendBox);
        clear(trendBox);
        trendBox.appendChild(chart({ type: 'line', label: 'trend of ' + metric.value, data: {
          datasets: series.map((s, i) => ({ label: s.profile + ' \u00b7 ' + s.metric, borderColor: PALETTE[i % PALETTE.length],
            backgroundColor: PALETTE[i % PALETTE.length], data: (s.points || []).map((p) => ({ x: p.hourStart || Date.parse(p.hour), y: p.mean })) })) },
        options: { parsing: true, scales: { x: { type: 'linear', min: Date.parse(t.from) || undefined, max: Date.parse(t.to) || undefined, ticks: { callback: (v) => new Date(v).toISOString().slice(5, 13).replace('T', ' ') + 'h' } },
          y: { suggestedMin: 0, suggestedMax: metric.value === 'reflectionConcerns' ? 4 : 1 } } } }, 240));
        if (!series.length) trendBox.appendChild(message('No hourly aggregate of ' + metric.value + ' in this window yet (runs are scored after they end; aggregates are made periodically).'));
      } catch (e) {
        clear(trendBox).appendChild(message('The trend could not load: ' + e.message, 'error'));
      }
    }
    metric.addEventListener('change', drawTrend);
    hours.addEventListener('change', drawTrend);
    aggregate.addEventListener('click', async () => {
      try { await api('POST', '/api/eval/aggregate'); } catch (e) { trendBox.appendChild(message('Aggregation refused: ' + e.message, 'error')); return; }
      drawTrend();
    });
    await drawTrend();

    const [regressions, stats, calibration, sets, backtests] = await Promise.all([
      api('GET', '/api/eval/regressions?limit=50').catch((e) => ({ error: e.message })),
      api('GET', '/api/eval/stats').catch((e) => ({ error: e.message })),
      calibrations(),
      api('GET', '/api/eval/sets').catch((e) => ({ error: e.message })),
      api('GET', '/api/backtests').catch((e) => ({ error: e.message })),
    ]);

    root.appendChild(el('div', { class: 'grid-2' },
      card('Regressions', regressions.error ? message(regressions.error, 'error') : (regressions.regressions || []).length
        ? table([
          { label: 'Hour', value: (r) => when(r.hour) }, { label: 'Profile', value: (r) => r.profile }, { label: 'Metric', value: (r) => r.metric },
          { label: 'Last', value: (r) => num(r.lastValue, 3), class: 'num' }, { label: 'Baseline', value: (r) => num(r.baseline, 3), class: 'num' },
          { label: 'Drop', value: (r) => pill(pct(r.dropRatio), 'bad'), class: 'num' }], regressions.regressions)
        : message('No regression detected.')),
      card('Scored so far', stats.error ? message(stats.error, 'error') : facts([['evaluated', stats.evaluated],
        ['regressions', stats.regressions], ['failed', (stats.evaluator || {}).failed], ['queued', (stats.evaluator || {}).queued],
        ['mean evaluation', num((stats.evaluator || {}).meanEvaluationMs, 1) + ' ms']].concat(Object.entries(stats.byProfile || {})
          .map(([p, s]) => [p, s.count + ' scored, mean aggregate ' + num(s.meanAggregate, 3)]))))));

    root.appendChild(card('Reliability diagram (decision confidence)', calibration.node));
    root.appendChild(experiments(sets, backtests));
  }

  /** Raw and calibrated reliability per profile that has labels. */
  async function calibrations() {
    try {
      const all = await api('GET', '/api/calibration');
      const listed = Array.isArray(all.profiles) ? all.profiles.map((p) => p.profile || p) : Object.keys(all.profiles || {});
      const profiles = listed.length ? listed : ['seller_onboarding', 'transaction_investigation'];
      const each = await Promise.all(profiles.map((p) => api('GET', '/api/calibration?profile=' + encodeURIComponent(p)).catch(() => null)));
      const series = [];
      const rows = [];
      each.forEach((c, i) => {
        if (!c) return;
        series.push({ name: profiles[i] + ' raw', points: (c.raw || {}).reliabilityDiagram || [] });
        series.push({ name: profiles[i] + ' calibrated', points: (c.calibrated || {}).reliabilityDiagram || [] });
        rows.push([profiles[i], (c.labels || 0) + ' labels \u00b7 ECE raw ' + num((c.raw || {}).ece, 3) + ' \u2192 calibrated '
          + num((c.calibrated || {}).ece, 3) + ' \u00b7 calibrator ' + ((c.calibrator || {}).version ?? 'none')]);
      });
      return { node: el('div', { id: 'eval-reliability' }, window.Console.reliabilityChart(series, 'reliability diagram'), facts(rows)) };
    } catch (e) {
      return { node: message('Calibration could not load: ' + e.message, 'error') };
    }
  }

  function experiments(sets, backtests) {
    const setList = el('div', { id: 'eval-sets' });
    if (sets.error) setList.appendChild(message(sets.error, 'error'));
    for (const s of Array.isArray(sets.sets) ? sets.sets : []) {
      const results = el('div', { class: 'set-results' });
      const run = el('button', { type: 'button' }, 'Run now');
      run.addEventListener('click', async () => {
        run.disabled = true;
        try {
          await api('POST', '/api/eval/sets/' + encodeURIComponent(s.name) + '/runs', { baseline: 'previous' });
          results.appendChild(message('Started: the result appears below when it is done.'));
        } catch (e) { results.appendChild(message('Refused: ' + e.message, 'error')); }
        run.disabled = false;
      });
      setList.appendChild(el('div', { class: 'set' }, el('h3', null, s.name), el('p', { class: 'muted small' }, s.description || ''),
        el('p', { class: 'small' }, (s.questions || 0) + ' questions, ' + (s.decisions || 0) + ' decisions ', run), results));
      api('GET', '/api/eval/sets/' + encodeURIComponent(s.name) + '/results').then((r) => {
        const list = Array.isArray(r.results) ? r.results : [];
        results.appendChild(list.length ? table([
          { label: 'Result', value: (x) => x.resultId || x.id, class: 'mono small' }, { label: 'When', value: (x) => when(x.finishedAt || x.createdAt || x.startedAt) },
          { label: 'Status', value: (x) => x.status || '' },
          { label: 'Metrics', value: (x) => Object.entries(x.metrics || x.summary || {}).filter(([, v]) => typeof v === 'number')
            .map(([k, v]) => k + ' ' + num(v, 3)).join(' \u00b7 '), class: 'small' }], list) : message('Not run yet.'));
      }).catch((e) => results.appendChild(message(e.message, 'error')));
    }
    const bt = Array.isArray(backtests.backtests) ? backtests.backtests : [];
    return card('Experiments', el('h3', null, 'Golden sets'), setList, el('h3', null, 'Backtests'),
      backtests.error ? message(backtests.error, 'error') : bt.length ? table([
        { label: 'Backtest', value: (b) => b.id || b.backtestId, class: 'mono small' }, { label: 'Status', value: (b) => b.status },
        { label: 'Profile', value: (b) => b.profile || '' }, { label: 'Started', value: (b) => when(b.startedAt || b.createdAt) },
        { label: 'Summary', value: (b) => JSON.stringify(b.metrics || b.summary || {}).slice(0, 160), class: 'small mono' }], bt)
        : message('No backtest yet (POST /api/backtests runs one over a labelled world).'));
  }

  window.Console.pages.evaluation = { title: 'Evaluation', render };
})();
