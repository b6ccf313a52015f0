/* Review queue: pending reviews (GET /api/reviews), claim one, then approve, reject, override (with an outcome) or
 * escalate it with a reason (POST /api/reviews/{id}[/claim]). Keyboard: j/k or the arrow keys move, Enter opens the
 * decision, c claims, a approves, r rejects, o overrides, e escalates (each needs a reason: the form takes focus). */
(function () {
  'use strict';
  const { el, clear, num, age, pill, outcomePill, card, facts, message } = window.UI;
  const api = window.Argus.json;
  const OUTCOMES = { seller_onboarding: ['APPROVE', 'REVIEW', 'REJECT'], transaction_investigation: ['ALLOW', 'REVIEW', 'BLOCK'] };

  async function render(root) {
    let reviews = [];
    let selected = 0;
    const analyst = el('input', { id: 'review-analyst', maxlength: 128, value: window.Console.analyst(), autocomplete: 'username' });
    analyst.addEventListener('change', () => {
      try { window.localStorage.setItem('argus.analyst', analyst.value.trim() || 'analyst'); } catch (e) { /* no storage */ }
    });
    const sort = el('select', { id: 'review-sort' }, el('option', { value: 'age' }, 'oldest first'), el('option', { value: 'confidence' }, 'least confident first'));
    const sla = el('div', { id: 'review-sla' });
    const list = el('ul', { class: 'queue', id: 'review-list', role: 'listbox', 'aria-label': 'pending reviews', tabindex: 0 });
    const panel = el('div', { id: 'review-panel', class: 'review-panel' });
    const status = el('div', { id: 'review-status', role: 'status' });
    root.append(el('h1', null, 'Review queue'),
      card(null, el('div', { class: 'row wrap' }, el('label', null, 'Analyst ', analyst), el('label', null, 'Order ', sort),
        el('span', { class: 'muted small' }, 'keys: j/k move \u00b7 Enter open \u00b7 c claim \u00b7 a approve \u00b7 r reject \u00b7 o override \u00b7 e escalate')), sla, status),
      el('div', { class: 'split' }, card('Pending', list), panel));

    async function load(keepId) {
      try {
        const data = await api('GET', '/api/reviews?status=pending&limit=100&sort=' + sort.value);
        reviews = Array.isArray(data.reviews) ? data.reviews : [];
        clear(sla).appendChild(facts(Object.entries(data.sla || {}).map(([p, s]) =>
          [p, s.pending + ' pending \u00b7 ' + s.completed + ' completed \u00b7 ' + s.breached + ' breached (' + s.breachedOpen + ' still open)'])));
        const at = keepId ? reviews.findIndex((r) => r.reviewId === keepId) : -1;
        selected = at >= 0 ? at : Math.min(selected, Math.max(0, reviews.length - 1));
        draw();
      } catch (e) {
        clear(list).appendChild(message('The queue could not load: ' + e.message, 'error'));
      }
    }

    function draw() {
      clear(list);
      if (!reviews.length) {
        list.appendChild(el('li', { class: 'muted' }, 'Nothing waits for review.'));
        clear(panel);
        return;
      }
      reviews.forEach((r, i) => {
        const li = el('li', { class: 'queue-item' + (i === selected ? ' selected' : ''), role: 'option', 'aria-selected': i === selected ? 'true' : 'false',
          'data-review': r.reviewId },
          el('div', { class: 'row' }, el('span', { class: 'mono grow' }, r.subjectId), outcomePill(r.outcome)),
          el('div', { class: 'muted small' }, r.profile + ' \u00b7 risk ' + num(r.riskScore, 1) + ' \u00b7 confidence ' + num(r.confidence)
            + ' \u00b7 waiting ' + age(r.ageMs)),
          el('div', { class: 'small' }, r.claimed ? pill('claimed by ' + (r.assignee || '?'), 'warn') : pill('unclaimed', 'neutral'),
            r.breached ? pill('SLA breached', 'bad') : null));
        li.addEventListener('click', () => { selected = i; draw(); });
        list.appendChild(li);
      });
      const item = list.children[selected];
      if (item && item.scrollIntoView) item.scrollIntoView({ block: 'nearest' });
      drawPanel(reviews[selected]);
    }

    let reason;
    let outcome;
    function drawPanel(r) {
      reason = el('textarea', { id: 'review-reason', rows: 3, maxlength: 2000, placeholder: 'why (required)' });
      outcome = el('select', { id: 'review-outcome' }, (OUTCOMES[r.profile] || OUTCOMES.seller_onboarding).map((o) => el('option', { value: o }, o)));
      const button = (action, text, key) => el('button', { type: 'button', id: 'review-' + action, 'data-action': action,
        onclick: () => act(action) }, text, ' ', el('kbd', null, key));
      clear(panel).appendChild(card('Review ' + r.reviewId,
        facts([['decision', el('a', { href: '#decision/' + encodeURIComponent(r.decisionId) }, r.decisionId)],
          ['subject', r.subjectId], ['profile', r.profile], ['outcome', outcomePill(r.outcome)], ['risk', num(r.riskScore, 1)],
          ['confidence', num(r.confidence)], ['waiting', age(r.ageMs)], ['due', r.dueAtMs ? new Date(r.dueAtMs).toISOString() : undefined],
          ['assignee', r.assignee || 'nobody']]),
        el('label', { class: 'block' }, 'Reason ', reason),
        el('label', null, 'Override to ', outcome),
        el('div', { class: 'row wrap actions' }, button('claim', 'Claim', 'c'), button('approve', 'Approve', 'a'),
          button('reject', 'Reject', 'r'), button('override', 'Override', 'o'), button('escalate', 'Escalate', 'e'))));
    }

    async function act(action) {
      const r = reviews[selected];
      if (!r) return;
      const who = analyst.value.trim() || 'analyst';
      try {
        if (action === 'claim') {
          await api('POST', '/api/reviews/' + encodeURIComponent(r.reviewId) + '/claim', { analyst: who });
          clear(status).appendChild(message('Claimed ' + r.reviewId + '.'));
          await load(r.reviewId);
          return;
        }
        const why = reason.value.trim();
        if (!why) {
          clear(status).appendChild(message('Give a reason first.', 'warn'));
          reason.focus();
          return;
        }
        const body = { analyst: who, action, reason: why };
        if (action === 'override') body.outcome = outcome.value;
        const result = await api('POST', '/api/reviews/' + encodeURIComponent(r.reviewId), body);
        const made = result.decision || {};
        clear(status).appendChild(el('p', { class: 'message muted', role: 'status' }, action + ' recorded: new decision ',
          el('a', { href: '#decision/' + encodeURIComponent(made.decisionId || '') }, made.decisionId || '?'),
          ' (' + (made.outcome || '?') + ', ' + (made.status || '?') + ').'));
        await load();
      } catch (e) {
        clear(status).appendChild(message(action + ' refused: ' + e.message, 'error'));
      }
    }

    function onKey(ev) {
      const t = ev.target;
      if (t && (t.tagName === 'TEXTAREA' || t.tagName === 'INPUT' || t.tagName === 'SELECT')) {
        if (ev.key === 'Escape') t.blur();
        return;
      }
      if (ev.ctrlKey || ev.metaKey || ev.altKey || !reviews.length) return;
      const keys = { j: 1, ArrowDown: 1, k: -1, ArrowUp: -1 };
      if (keys[ev.key]) {
        selected = Math.max(0, Math.min(reviews.length - 1, selected + keys[ev.key]));
        draw();
        ev.preventDefault();
      } else if (ev.key === 'Enter') {
        window.Console.go('#decision/' + encodeURIComponent(reviews[selected].decisionId));
      } else if (ev.key === 'c') {
        act('claim');
      } else if ({ a: 'approve', r: 'reject', o: 'override', e: 'escalate' }[ev.key]) {
        const action = { a: 'approve', r: 'reject', o: 'override', e: 'escalate' }[ev.key];
        if (reason.value.trim()) act(action);
        else { (action === 'override' ? outcome : reason).focus(); clear(status).appendChild(message('Reason needed to ' + action + '.', 'warn')); }
        ev.preventDefault();
      }
    }

    sort.addEventListener('change', () => load());
    document.addEventListener('keydown', onKey);
    await load();
    list.focus();
    return () => document.removeEventListener('keydown', onKey);
  }

  window.Console.pages.review = { title: 'Review queue', render };
})();
