/* The entity graph around a subject (GET /api/entities/{id}/graph), drawn with cytoscape (vendored). Labels are set
 * as cytoscape data and drawn on a canvas, so nothing from the graph becomes markup; the details of a tapped node or
 * edge are written as text below the drawing. */
(function () {
  'use strict';
  const { el, clear, message, facts, num } = window.UI;

  const TYPE_COLOUR = {
    seller: '#2563eb', buyer: '#0891b2', email: '#7c3aed', phone: '#db2777', address: '#d97706', ip: '#4b5563',
    bank_account: '#16a34a', device: '#9333ea', document: '#64748b', tax_id: '#b45309', card: '#0f766e',
  };

  /** Renders the graph of entity `id` into a new element (returned at once; filled when the answer comes). */
  function entityGraph(id, { depth = 2, limit = 60 } = {}) {
    const canvas = el('div', { class: 'graph-canvas', role: 'img', 'aria-label': 'entity graph around ' + id });
    const status = el('p', { class: 'muted graph-status' }, 'Loading the graph around ' + id + '...');
    const details = el('div', { class: 'graph-details' });
    const box = el('div', { class: 'graph' }, status, canvas, details);
    const path = '/api/entities/' + encodeURIComponent(id) + '/graph?depth=' + depth + '&limit=' + limit;
    window.Argus.json('GET', path).then((g) => {
      const nodes = Array.isArray(g.nodes) ? g.nodes : [];
      const edges = Array.isArray(g.edges) ? g.edges : [];
      status.textContent = nodes.length + ' entities, ' + edges.length + ' relations within ' + depth + ' hops'
        + (g.truncated ? ' (truncated at ' + limit + ')' : '') + '. Tap one for its details.';
      if (typeof window.cytoscape !== 'function') {
        canvas.appendChild(message('The graph library did not load.', 'error'));
        return;
      }
      const ids = new Set(nodes.map((n) => String(n.id)));
      const elements = nodes.map((n) => ({ group: 'nodes', data: {
        id: String(n.id), label: String(n.label || n.id).slice(0, 40), type: String(n.type || ''),
        colour: TYPE_COLOUR[n.type] || '#94a3b8', centre: n.hops === 0 ? 1 : 0, risk: Number(n.risk) || 0, raw: n } }))
        .concat(edges.filter((e) => ids.has(String(e.from)) && ids.has(String(e.to))).map((e) => ({ group: 'edges',
          data: { id: 'e:' + String(e.id), source: String(e.from), target: String(e.to), label: String(e.type || ''), raw: e } })));
      const cy = window.cytoscape({
        container: canvas,
        elements,
        wheelSensitivity: 0.3,
        style: [
          { selector: 'node', style: { 'background-color': 'data(colour)', label: 'data(label)', 'font-size': 9,
            color: '#1f2937', 'text-valign': 'bottom', 'text-margin-y': 3, width: 18, height: 18 } },
          { selector: 'node[centre = 1]', style: { width: 30, height: 30, 'border-width': 3, 'border-color': '#111827' } },
          { selector: 'node[risk > 0.5]', style: { 'border-width': 3, 'border-color': '#dc2626' } },
          { selector: 'edge', style: { width: 1.5, 'line-color': '#cbd5e1', 'curve-style': 'bezier', label: 'data(label)',
            'font-size': 7, color: '#64748b', 'target-arrow-shape': 'triangle', 'target-arrow-color': '#cbd5e1' } },
          { selector: ':selected', style: { 'line-color': '#2563eb', 'border-color': '#2563eb', 'border-width': 3 } },
        ],
        layout: { name: 'cose', animate: false, randomize: false, nodeRepulsion: 9000, idealEdgeLength: 70 },
      });
      canvas.cy = cy; // for the browser tests (a JS property, not markup)
      box.dataset.nodes = String(cy.nodes().length);
      box.dataset.edges = String(cy.edges().length);
      cy.on('tap', 'node, edge', (ev) => {
        const raw = ev.target.data('raw') || {};
        clear(details).appendChild(ev.target.isNode()
          ? facts([['entity', raw.id], ['type', raw.type], ['label', raw.label], ['risk', num(raw.risk)],
            ['hops', raw.hops], ['first seen', raw.firstSeen], ['last seen', raw.lastSeen], ['citation', raw.cite]])
          : facts([['relation', raw.id], ['type', raw.type], ['from', raw.from], ['to', raw.to], ['weight', num(raw.weight)],
            ['sources', raw.sources], ['citation', raw.cite]]));
      });
    }).catch((e) => {
      status.textContent = '';
      status.appendChild(message(e.status === 404 ? 'No entity ' + id + ' in the graph.'
        : 'The graph could not load: ' + e.message, e.status === 404 ? 'warn' : 'error'));
    });
    return box;
  }

  window.Console.entityGraph = entityGraph;
})();
