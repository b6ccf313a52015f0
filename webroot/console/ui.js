/* Small DOM helpers of the analyst console. Every value from the server becomes a text node (createTextNode /
 * textContent) or an attribute set with setAttribute; innerHTML is never used. Sizes set from data go through the
 * CSSOM (element.style), which the Content-Security-Policy allows (it forbids style attributes in markup). */
(function () {
  'use strict';

  /** el('div', {class: 'x', onclick: fn}, 'text', node, [more]) - children are text (escaped) or nodes. */
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'class') node.className = v;
      else if (k.startsWith('on') && typeof v === 'function') node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? '' : String(v));
    }
    append(node, children);
    return node;
  }

  function append(node, children) {
    for (const c of [children].flat(Infinity)) {
      if (c === undefined || c === null || c === false) continue;
      node.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
    return node;
  }

  const num = (n, digits) => (typeof n === 'number' && isFinite(n) ? n.toFixed(digits === undefined ? 2 : digits) : '\u2013');
  const pct = (n) => (typeof n === 'number' && isFinite(n) ? (100 * n).toFixed(1) + '%' : '\u2013');

  function when(ms) {
    if (ms === undefined || ms === null || ms === '') return '\u2013';
    const d = typeof ms === 'number' ? new Date(ms) : new Date(String(ms));
    if (isNaN(d.getTime())) return String(ms);
    return d.toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z');
  }

  function age(ms) {
    if (typeof ms !== 'number' || !isFinite(ms)) return '\u2013';
    const s = Math.round(ms / 1000);
    if (s < 90) return s + ' s';
    if (s < 5400) return Math.round(s / 60) + ' min';
    if (s < 172800) return (s / 3600).toFixed(1) + ' h';
    return (s / 86400).toFixed(1) + ' d';
  }

  /** A coloured label for an outcome, status, severity or citation status (the class is a fixed, known word). */
  function pill(text, kind) {
    const known = /^[a-z_]+$/.test(String(kind || '')) ? ' pill-' + kind : '';
    return el('span', { class: 'pill' + known }, text === undefined || text === null ? '\u2013' : String(text));
  }

  const OUTCOME_KIND = { APPROVE: 'good', ALLOW: 'good', REVIEW: 'warn', REJECT: 'bad', BLOCK: 'bad' };
  const outcomePill = (o) => pill(o, OUTCOME_KIND[o] || 'neutral');

  /** A table: columns [{label, value: row => text|node, class?}], rows; onRow(row, tr) makes rows clickable. */
  function table(columns, rows, onRow) {
    const head = el('tr', null, columns.map((c) => el('th', { class: c.class, scope: 'col' }, c.label)));
    const body = el('tbody');
    for (const r of rows) {
      const tr = el('tr', null, columns.map((c) => el('td', { class: c.class }, c.value(r))));
      if (onRow) {
        tr.classList.add('clickable');
        tr.tabIndex = 0;
        tr.addEventListener('click', () => onRow(r, tr));
        tr.addEventListener('keydown', (ev) => { if (ev.key === 'Enter') onRow(r, tr); });
      }
      body.appendChild(tr);
    }
    return el('div', { class: 'table-scroll' }, el('table', { class: 'data' }, el('thead', null, head), body));
  }

  /** A titled card. */
  function card(title, ...children) {
    return el('section', { class: 'card' }, title ? el('h2', null, title) : null, children);
  }

  /** Definition list from [label, value] pairs. */
  function facts(pairs) {
    const dl = el('dl', { class: 'facts' });
    for (const [k, v] of pairs) {
      if (v === undefined) continue;
      dl.appendChild(el('dt', null, k));
      dl.appendChild(el('dd', null, v === null ? '\u2013' : v));
    }
    return dl;
  }

  function message(text, kind) {
    return el('p', { class: 'message ' + (kind === 'error' ? 'error' : kind === 'warn' ? 'warn' : 'muted'), role: 'status' }, text);
  }

  /** A horizontal bar (width from 0..1 through the CSSOM). */
  function bar(fraction, kind) {
    const inner = el('span', { class: 'bar-fill' + (kind ? ' bar-' + kind : '') });
    inner.style.width = Math.max(0, Math.min(1, Number(fraction) || 0)) * 100 + '%';
    return el('span', { class: 'bar' }, inner);
  }

  // ---- charts (Chart.js, vendored) -----------------------------------------------------------------------
  const charts = new Set();
  const waiting = new Map(); // chart boxes not drawn yet -> their ResizeObserver
  const PALETTE = ['#2563eb', '#dc2626', '#16a34a', '#d97706', '#7c3aed', '#0891b2', '#db2777', '#4b5563'];

  /** A Chart.js chart in a fixed-height box; destroyed when the view changes (destroyCharts). */
  function chart(config, height) {
    const canvas = el('canvas', { role: 'img', 'aria-label': config.label || 'chart' });
    const box = el('div', { class: 'chart-box' }, canvas);
    box.style.height = (height || 260) + 'px';
    const cfg = Object.assign({}, config);
    delete cfg.label;
    cfg.options = Object.assign({ responsive: true, maintainAspectRatio: false, animation: false }, cfg.options || {});
    // Created once the box is in the document and has a width (Chart.js measures its parent). A page may build a
    // chart before it attaches the card holding it (the evaluation page waits for five requests first), so this
    // waits for the box to be laid out instead of looking once at the next frame, which left such a chart blank.
    const observer = new ResizeObserver(() => {
      if (!box.isConnected || !box.clientWidth || typeof window.Chart !== 'function') return;
      observer.disconnect();
      waiting.delete(box);
      const c = new window.Chart(canvas, cfg);
      charts.add(c);
      box.dataset.ready = 'true';
    });
    observer.observe(box);
    waiting.set(box, observer);
    return box;
  }

  /** Destroys the charts inside `within` (every chart when it is not given), drawn or still waiting for their box. */
  function destroyCharts(within) {
    charts.forEach((c) => {
      if (within && !within.contains(c.canvas)) return;
      c.destroy();
      charts.delete(c);
    });
    waiting.forEach((observer, box) => {
      if (within && !within.contains(box)) return; // not in this part of the view (perhaps not attached yet)
      observer.disconnect();
      waiting.delete(box);
    });
  }

  window.UI = { el, append, clear, num, pct, when, age, pill, outcomePill, table, card, facts, message, bar, chart,
    destroyCharts, PALETTE };
})();

window.Console = window.Console || { pages: {} };
