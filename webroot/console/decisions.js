/* Decisions: the list with its filters, a form that asks for a decision (streamed: the phases show as they run), and
 * one decision's explanation - outcome, risk, reasons with their validated citations, signals, reflection, consensus
 * votes, the phase timeline and the run's trace, tools, the entity graph around the subject and a feedback form. */
(function () {
  'use strict';
  const { el, clear, num, pct, when, pill, outcomePill, table, card, facts, message, bar, chart, PALETTE } = window.UI;
  const api = window.Argus.json;
  const PHASES = ['think', 'plan', 'act', 'observe', 'reflect'];
  const PROFILES = { seller_onboarding: ['APPROVE', 'REVIEW', 'REJECT'], transaction_investigation: ['ALLOW', 'REVIEW', 'BLOCK'] };
  const FILTERS = ['subject', 'outcome', 'status', 'profile', 'from', 'to', 'limit'];

  // ---- list ------------------------------------------------------------------------------------------------
  async function renderList(root, args) {
    const chosen = new URLSearchParams(args[0] || '');
    const input = (name, attrs) => el('input', Object.assign({ name, id: 'f-' + name, value: chosen.get(name) || '' }, attrs));
    const select = (name, options) => {
      const s = el('select', { name, id: 'f-' + name }, el('option', { value: '' }, 'any'),
        options.map((o) => el('option', { value: o }, o)));
      s.value = chosen.get(name) || '';
      return s;
    };
    const filters = el('form', { class: 'filters', id: 'decision-filters' },
      el('label', null, 'Subject ', input('subject', { maxlength: 200, placeholder: 'S-000001' })),
      el('label', null, 'Outcome ', select('outcome', ['APPROVE', 'REVIEW', 'REJECT', 'ALLOW', 'BLOCK'])),
      el('label', null, 'Status ', select('status', ['FINAL', 'PENDING_REVIEW'])),
      el('label', null, 'Profile ', select('profile', Object.keys(PROFILES))),
      el('label', null, 'From ', input('from', { type: 'date' })),
      el('label', null, 'To ', input('to', { type: 'date' })),
      el('label', null, 'Limit ', input('limit', { type: 'number', min: 1, max: 500, placeholder: '50' })),
      el('button', { type: 'submit' }, 'Filter'));
    filters.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const q = new URLSearchParams();
      for (const name of FILTERS) {
        const v = filters.elements[name].value.trim();
        if (v) q.set(name, v);
      }
      window.Console.go('#decisions/' + encodeURIComponent(q.toString()));
    });

    const decide = decideForm();
    const list = el('div', { id: 'decision-list' }, message('Loading decisions...'));
    root.append(el('h1', null, 'Decisions'), decide.node, card('Recent decisions', filters, list));

    const q = new URLSearchParams();
    for (const name of FILTERS) {
      const v = chosen.get(name);
      if (!v) continue;
      q.set(name, (name === 'from' || name === 'to') && /^\d{4}-\d\d-\d\d$/.test(v)
        ? v + (name === 'to' ? 'T23:59:59Z' : 'T00:00:00Z') : v);
    }
    if (!q.has('limit')) q.set('limit', '50');
    try {
      const { decisions = [] } = await api('GET', '/api/decisions?' + q.toString());
      clear(list).appendChild(decisions.length ? table([
        { label: 'Made', value: (d) => when(d.createdAtMs || d.createdAt) },
        { label: 'Subject', value: (d) => d.subjectId, class: 'mono' },
        { label: 'Profile', value: (d) => d.profile },
        { label: 'Outcome', value: (d) => outcomePill(d.outcome) },
        { label: 'Risk', value: (d) => num(d.riskScore, 1), class: 'num' },
        { label: 'Confidence', value: (d) => num(d.calibratedConfidence ?? d.confidence), class: 'num' },
        { label: 'Status', value: (d) => pill(d.status, d.status === 'FINAL' ? 'neutral' : 'warn') },
        { label: 'Correction', value: (d) => (d.correctsDecisionId ? 'corrects ' + d.correctsDecisionId : '') },
      ], decisions, (d) => window.Console.go('#decision/' + encodeURIComponent(d.decisionId)))
        : message('No decision matches these filters.'));
    } catch (e) {
      clear(list).appendChild(message('The decisions could not load: ' + e.message, 'error'));
    }
    return decide.stop;
  }

  /** The "ask for a decision" form: POST with Accept: text/event-stream, phases shown live, then the decision. */
  function decideForm() {
    let controller = null;
    const kind = el('select', { id: 'decide-kind', name: 'kind' },
      el('option', { value: 'onboarding' }, 'seller onboarding'), el('option', { value: 'transactions' }, 'transaction'));
    const subject = el('input', { id: 'decide-subject', name: 'subject', required: true, maxlength: 200, placeholder: 'seller id, e.g. S-000001' });
    kind.addEventListener('change', () => {
      subject.placeholder = kind.value === 'onboarding' ? 'seller id, e.g. S-000001' : 'transaction id';
    });
    const submit = el('button', { type: 'submit', class: 'primary', id: 'decide-submit' }, 'Decide');
    const progress = el('ol', { class: 'phase-steps', id: 'decide-progress' });
    const status = el('div', { class: 'status', role: 'status' });
    const form = el('form', { class: 'row wrap', id: 'decide-form' },
      el('label', null, 'Decide ', kind), el('label', { class: 'grow' }, 'on ', subject), submit);
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const id = subject.value.trim();
      if (!id) return;
      if (controller) controller.abort();
      controller = new AbortController();
      submit.disabled = true;
      clear(progress);
      clear(status).appendChild(message('Deciding on ' + id + '...'));
      const steps = {};
      let decision = null;
      const body = kind.value === 'onboarding' ? { sellerId: id } : { transactionId: id };
      try {
        await window.Argus.stream('/api/decisions/' + kind.value, {
          method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body), signal: controller.signal,
        }, (type, data) => {
          if (type === 'phase' && data && data.name) {
            const li = steps[data.name] || (steps[data.name] = progress.appendChild(el('li', { class: 'phase-step' }, data.name)));
            li.className = 'phase-step ' + (data.status === 'end' ? (data.ok === false ? 'failed' : 'done') : 'running');
            li.title = data.status === 'end' ? (data.durationMs || 0) + ' ms, ' + (data.path || '') : 'running';
          } else if (type === 'tool_call' && data) {
            progress.appendChild(el('li', { class: 'phase-step tool' }, 'tool ' + data.tool));
          } else if (type === 'decision') {
            decision = data;
          } else if (type === 'error') {
            clear(status).appendChild(message('The decision failed: ' + (data && data.error ? data.error : data), 'error'));
          }
        });
        if (decision && decision.decisionId) window.Console.go('#decision/' + encodeURIComponent(decision.decisionId));
        else if (!status.querySelector('.error')) clear(status).appendChild(message('The stream ended without a decision.', 'error'));
      } catch (e) {
        if (e.name !== 'AbortError') clear(status).appendChild(message('The decision was refused: ' + e.message, 'error'));
      } finally {
        submit.disabled = false;
      }
    });
    return { node: card('Ask for a decision', form, progress, status), stop: () => { if (controller) controller.abort(); } };
  }

  // ---- one decision ------------------------------------------------------------------------------------------
  async function renderDecision(root, args) {
    const id = args[0] || '';
    const d = await api('GET', '/api/decisions/' + encodeURIComponent(id));
    root.appendChild(el('p', { class: 'row wrap' }, el('a', { href: '#decisions', class: 'grow' }, '\u2190 all decisions'),
      exportButton(d.decisionId, 'json'), exportButton(d.decisionId, 'html')));
    root.appendChild(el('h1', null, 'Decision ', el('span', { class: 'mono' }, d.decisionId)));
    root.appendChild(summary(d));
    root.appendChild(reasons(d));
    root.appendChild(signals(d));
    root.appendChild(el('div', { class: 'grid-2' }, card('Reflection', reflection(d.reflection)), card('Consensus', consensus(d.consensus))));
    root.appendChild(card('Phase timeline', timeline(d)));
    // A transaction is not an entity of the graph: its seller is.
    const centre = d.profile === 'transaction_investigation' && d.subject && d.subject.sellerId ? d.subject.sellerId : d.subjectId;
    root.appendChild(card('Entities around ' + centre, window.Console.entityGraph(centre, { depth: 2, limit: 40 })));
    root.appendChild(runTrace(d));
    root.appendChild(card('Tool calls', table([
      { label: '#', value: (t) => t.index, class: 'num' },
      { label: 'Tool', value: (t) => t.tool, class: 'mono' },
      { label: 'Parameters', value: (t) => JSON.stringify(t.params || {}), class: 'mono small' },
      { label: 'Result', value: (t) => (t.success ? pill('ok', 'good') : pill(t.error || 'failed', 'bad')) },
      { label: 'ms', value: (t) => t.durationMs, class: 'num' },
      { label: 'Attempts', value: (t) => t.attempts, class: 'num' },
      { label: 'Fingerprints', value: (t) => (t.inputFingerprint || '') + ' \u2192 ' + (t.outputFingerprint || ''), class: 'mono small' },
    ], Array.isArray(d.tools) ? d.tools : [])));
    root.appendChild(feedbackForm(d));
  }

  /** Downloads the decision's audit file (fetched with the key, then saved from a blob: a plain link sends no key). */
  function exportButton(id, format) {
    const button = el('button', { type: 'button', class: 'export', 'data-format': format }, 'Export ' + format.toUpperCase());
    button.addEventListener('click', async () => {
      button.disabled = true;
      try {
        const resp = await window.Argus.fetch('/api/decisions/' + encodeURIComponent(id) + '/export?format=' + format);
        if (!resp.ok) throw new Error('HTTP ' + resp.status);
        const url = URL.createObjectURL(await resp.blob());
        const a = el('a', { href: url, download: id + '.' + format });
        document.body.appendChild(a);
        a.click();
        a.remove();
        setTimeout(() => URL.revokeObjectURL(url), 10000);
      } catch (e) {
        button.title = 'export failed: ' + e.message;
      } finally {
        button.disabled = false;
      }
    });
    return button;
  }

  function summary(d) {
    const links = [];
    if (d.correctsDecisionId) links.push(el('a', { href: '#decision/' + encodeURIComponent(d.correctsDecisionId) }, 'corrects ' + d.correctsDecisionId));
    for (const c of Array.isArray(d.correctedBy) ? d.correctedBy : []) {
      links.push(el('a', { href: '#decision/' + encodeURIComponent(c) }, 'corrected by ' + c));
    }
    const reviewed = d.review ? [d.review.action, 'by', d.review.analyst, '\u2013', d.review.reason].filter(Boolean).join(' ') : undefined;
    return card(null, el('div', { class: 'headline' },
      el('div', { class: 'big' }, outcomePill(d.outcome)),
      el('div', null, el('div', { class: 'muted' }, 'risk'), el('div', { class: 'big', id: 'risk-score' }, num(d.riskScore, 1)), bar((d.riskScore || 0) / 100, d.riskBand === 'high' ? 'bad' : d.riskBand === 'medium' ? 'warn' : 'good')),
      el('div', null, el('div', { class: 'muted' }, 'confidence'), el('div', { class: 'big' }, num(d.calibratedConfidence ?? d.confidence)),
        el('div', { class: 'muted small' }, 'raw ' + num(d.confidence) + ' \u00b7 ' + ((d.calibration && d.calibration.calibratorVersion) || 'raw'))),
      el('div', null, el('div', { class: 'muted' }, 'status'), pill(d.status, d.status === 'FINAL' ? 'neutral' : 'warn'))),
    facts([
      ['subject', d.subjectId], ['profile', d.profile], ['risk band', d.riskBand], ['coverage', pct(d.coverage)],
      ['made', when(d.createdAtMs || d.createdAt)], ['as of', d.asOf], ['run', el('span', { class: 'mono' }, d.runId)],
      ['why a person decides', Array.isArray(d.statusReasons) && d.statusReasons.length ? el('ul', null, d.statusReasons.map((r) => el('li', null, r))) : undefined],
      ['review', reviewed], ['links', links.length ? el('span', { class: 'links' }, links) : undefined],
      ['versions', d.versions ? JSON.stringify(d.versions) : undefined],
      ['fired rules', Array.isArray(d.firedRules) && d.firedRules.length ? d.firedRules.map((r) => r.rule || r.id || JSON.stringify(r)).join(', ') : undefined],
      ['LLM', d.llm && d.llm.paths ? Object.entries(d.llm.paths).map(([k, v]) => k + ': ' + v).join(', ') : undefined],
    ]));
  }

  function reasons(d) {
    const list = el('ol', { class: 'reasons', id: 'reasons' });
    for (const r of Array.isArray(d.reasons) ? d.reasons : []) {
      const cites = el('ul', { class: 'citations' });
      for (const c of Array.isArray(r.citations) ? r.citations : []) {
        const kind = c.status === 'valid' ? 'good' : c.status === 'flagged' ? 'warn' : c.status === 'excluded' ? 'bad' : 'neutral';
        const steps = Array.isArray(c.reasoning) ? c.reasoning : [];
        cites.appendChild(el('li', { class: 'citation' },
          el('span', { class: 'mono' }, c.citation), ' ', pill(c.status || 'unvalidated', kind),
          ' confidence ', num(c.confidence),
          steps.length ? el('details', null, el('summary', null, 'reasoning'),
            el('ul', null, steps.map((s) => el('li', null, (s.kind ? s.kind + ': ' : '') + (s.text || ''))))) : null));
      }
      list.appendChild(el('li', { class: 'reason' }, el('div', null, r.text || r.signal || JSON.stringify(r)),
        r.contribution !== undefined ? el('div', { class: 'muted small' }, '+' + num(r.contribution) + ' risk points') : null, cites));
    }
    return card('Reasons and their citations', list.childNodes.length ? list : message('No reasons recorded.'));
  }

  function signals(d) {
    const rows = Array.isArray(d.signals) ? d.signals : [];
    const known = rows.filter((s) => s.known !== false && typeof s.contribution === 'number');
    const plot = known.length ? chart({
      type: 'bar', label: 'signal contributions',
      data: { labels: known.map((s) => s.name), datasets: [{ label: 'risk points', data: known.map((s) => s.contribution), backgroundColor: PALETTE[0] }] },
      options: { indexAxis: 'y', plugins: { legend: { display: false } } },
    }, Math.max(140, known.length * 22)) : null;
    if (plot) plot.id = 'signals-chart';
    return card('Signals', plot, table([
      { label: 'Signal', value: (s) => s.name, class: 'mono' },
      { label: 'Value', value: (s) => (s.value === null || s.value === undefined ? 'unknown' : num(s.value, 3)), class: 'num' },
      { label: 'Scaled', value: (s) => num(s.scaled), class: 'num' },
      { label: 'Weight', value: (s) => num(s.weight, 1), class: 'num' },
      { label: 'Points', value: (s) => num(s.contribution), class: 'num' },
      { label: 'Cite', value: (s) => s.cite || '', class: 'mono small' },
      { label: 'Note', value: (s) => s.note || '' },
    ], rows));
  }

  function reflection(r) {
    if (!r) return message('No reflection recorded.');
    const concerns = Array.isArray(r.concerns) ? r.concerns : [];
    return el('div', null,
      concerns.length ? el('ul', { class: 'concerns' }, concerns.map((c) => el('li', null, el('strong', null, c.rule), ': ', c.detail || '')))
        : el('p', { class: 'muted' }, 'No concerns.'),
      facts([['revised', r.revised ? 'yes \u2192 ' + (r.revisedAction || '') : 'no'], ['contra-argument', r.contraArgument || undefined],
        ['reflection confidence', num(r.reflectionConfidence)], ['confidence before \u2192 after', num(r.confidenceBefore) + ' \u2192 ' + num(r.confidenceAfter)]]));
  }

  function consensus(c) {
    if (!c) return message('No consensus recorded.');
    return el('div', null, facts([['strategy', c.strategy], ['merged outcome', c.outcome], ['disagreement', c.disagreement ? 'yes' : 'no'], ['detail', c.detail || undefined]]),
      table([
        { label: 'Assessor', value: (v) => v.assessor },
        { label: 'Vote', value: (v) => (v.abstained ? pill('abstained', 'neutral') : outcomePill(v.outcome)) },
        { label: 'Confidence', value: (v) => num(v.confidence), class: 'num' },
        { label: 'Citations', value: (v) => (Array.isArray(v.citations) ? v.citations.join(' ') : ''), class: 'mono small' },
        { label: 'Note', value: (v) => v.note || '' },
      ], Array.isArray(c.votes) ? c.votes : []));
  }

  /** Phase durations as bars, then the trace's steps (phase, LLM or rules, the thought) to unfold. */
  function timeline(d) {
    const phases = (d.timings && d.timings.phasesMs) || {};
    const total = Math.max(1, ...Object.values(phases).map(Number).filter(isFinite));
    const bars = el('ul', { class: 'timeline', id: 'phase-timeline' }, Object.entries(phases).map(([name, ms]) =>
      el('li', null, el('span', { class: 'timeline-name' }, name), bar(Number(ms) / total), el('span', { class: 'num small' }, ms + ' ms'))));
    const steps = d.trace && Array.isArray(d.trace.steps) ? d.trace.steps : [];
    return el('div', null, bars,
      el('p', { class: 'muted small' }, 'total ' + ((d.timings && d.timings.totalMs) || '\u2013') + ' ms'),
      steps.map((s) => el('details', { class: 'trace-step' },
        el('summary', null, (s.phase || '?') + ' \u00b7 ' + (s.path || '') + ' \u00b7 ' + (s.durationMs ?? '\u2013') + ' ms'),
        el('p', null, s.thought || ''), s.output ? el('pre', { class: 'json' }, JSON.stringify(s.output, null, 2)) : null)));
  }

  /** The run's stored trace (spans) as a waterfall: offset and width through the CSSOM. */
  function runTrace(d) {
    const box = el('div', { id: 'run-trace' }, message('Loading the run trace...'));
    if (d.runId) {
      window.Console.traceWaterfall(d.runId).then((node) => clear(box).appendChild(node));
    } else {
      clear(box).appendChild(message('This decision has no run.'));
    }
    return card('Run trace', box);
  }

  /** GET the run's trace; it is stored just after the run ends, so a 404 right after a decision is tried again. */
  async function fetchTrace(runId) {
    for (let attempt = 0; ; attempt++) {
      try {
        return await api('GET', '/api/runs/' + encodeURIComponent(runId) + '/trace');
      } catch (e) {
        if (e.status !== 404 || attempt >= 4) throw e;
        await new Promise((r) => setTimeout(r, 750));
      }
    }
  }

  function traceWaterfall(runId) {
    return fetchTrace(runId).then((t) => {
      const spans = Array.isArray(t.spans) ? t.spans.slice().sort((a, b) => a.startMs - b.startMs) : [];
      if (!spans.length) return message('The trace holds no spans.');
      const start = Math.min(...spans.map((s) => s.startMs));
      const end = Math.max(...spans.map((s) => s.endMs || s.startMs));
      const span = Math.max(1, end - start);
      const depth = {};
      spans.forEach((s) => { depth[s.spanId] = s.parentSpanId && depth[s.parentSpanId] !== undefined ? depth[s.parentSpanId] + 1 : 0; });
      return el('div', null, el('p', { class: 'muted small' }, 'trace ' + (t.traceId || '') + ' \u00b7 ' + spans.length + ' spans \u00b7 ' + Math.round(span) + ' ms'),
        el('ul', { class: 'waterfall' }, spans.map((s) => {
          const fill = el('span', { class: 'wf-bar' + (s.status && s.status !== 'ok' ? ' wf-error' : '') });
          fill.style.marginLeft = ((s.startMs - start) / span) * 100 + '%';
          fill.style.width = Math.max(0.5, ((s.endMs - s.startMs) / span) * 100) + '%';
          const name = el('span', { class: 'wf-name' }, s.name);
          name.style.paddingLeft = (depth[s.spanId] || 0) * 12 + 'px';
          return el('li', { title: JSON.stringify(s.attributes || {}) }, name, el('span', { class: 'wf-track' }, fill),
            el('span', { class: 'num small' }, num(s.durationMs, 0) + ' ms'));
        })));
    }).catch((e) => message(e.status === 404 ? 'No trace stored for run ' + runId + '.' : 'The trace could not load: ' + e.message,
      e.status === 404 ? 'warn' : 'error'));
  }

  /** Was this decision right? POST /api/feedback. */
  function feedbackForm(d) {
    const outcomes = PROFILES[d.profile] || ['APPROVE', 'REVIEW', 'REJECT'];
    const label = el('select', { name: 'label' }, el('option', { value: 'correct' }, 'correct'), el('option', { value: 'incorrect' }, 'incorrect'));
    const reason = el('select', { name: 'reason' }, ['good_decision', 'false_positive', 'false_negative', 'wrong_severity', 'missing_evidence', 'other']
      .map((r) => el('option', { value: r }, r)));
    const trueOutcome = el('select', { name: 'trueOutcome' }, outcomes.map((o) => el('option', { value: o }, o)));
    trueOutcome.value = d.outcome;
    const comment = el('textarea', { name: 'comment', rows: 2, maxlength: 4000, placeholder: 'comment (optional)' });
    const status = el('div', { role: 'status' });
    const form = el('form', { class: 'row wrap', id: 'feedback-form' },
      el('label', null, 'Verdict ', label), el('label', null, 'Reason ', reason), el('label', null, 'True outcome ', trueOutcome),
      el('label', { class: 'grow' }, 'Comment ', comment), el('button', { type: 'submit' }, 'Send feedback'));
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      try {
        await api('POST', '/api/feedback', { decisionId: d.decisionId, label: label.value, reason: reason.value,
          trueOutcome: trueOutcome.value, comment: comment.value.trim() || undefined, analyst: window.Console.analyst() });
        clear(status).appendChild(message('Feedback recorded.'));
      } catch (e) {
        clear(status).appendChild(message('Feedback refused: ' + e.message, 'error'));
      }
    });
    return card('Feedback on this decision', form, status);
  }

  window.Console.traceWaterfall = traceWaterfall;
  window.Console.phases = PHASES;
  window.Console.analyst = () => {
    try { return window.localStorage.getItem('argus.analyst') || 'analyst'; } catch (e) { return 'analyst'; }
  };
  window.Console.pages.decisions = { title: 'Decisions', render: renderList };
  window.Console.pages.decision = { title: 'Decision', nav: 'decisions', render: renderDecision };
})();
