/* Argus search page. No build step, no dependencies. Everything that comes from the server or from documents is
 * inserted with textContent / createElement only; innerHTML is never used. */
(function () {
  'use strict';

  const RETRIEVERS = ['vector', 'keyword', 'trigram'];
  const $ = (id) => document.getElementById(id);

  /** el('div', {class: 'x', onclick: fn}, 'text', childNode, ...) - children are text (escaped) or nodes. */
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'class') node.className = v;
      else if (k.startsWith('on') && typeof v === 'function') node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? '' : String(v));
    }
    for (const c of children.flat()) {
      if (c === undefined || c === null || c === false) continue;
      node.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
    return node;
  }

  const fmt = (n, digits) => (typeof n === 'number' && isFinite(n) ? n.toFixed(digits) : '-');

  async function api(method, path, body, headers) {
    const opts = { method, headers: Object.assign({ Accept: 'application/json' }, headers || {}) };
    if (body !== undefined) {
      if (body instanceof FormData) opts.body = body;
      else { opts.body = JSON.stringify(body); opts.headers['Content-Type'] = 'application/json'; }
    }
    const resp = await window.Argus.fetch(path, opts); // sends the signed-in key (auth.js)
    let json = null;
    try { json = await resp.json(); } catch (e) { /* non-JSON body */ }
    if (!resp.ok) {
      const msg = json && json.error ? json.error + (json.code ? ' (' + json.code + ')' : '') : 'HTTP ' + resp.status;
      throw new Error(msg);
    }
    return { status: resp.status, json: json || {} };
  }

  // ---- tabs ---------------------------------------------------------------------------------------------
  function showTab(name) {
    document.querySelectorAll('.tab[data-tab]').forEach((t) => {
      const on = t.dataset.tab === name;
      t.classList.toggle('active', on);
      t.setAttribute('aria-selected', on ? 'true' : 'false');
    });
    document.querySelectorAll('.panel').forEach((p) => p.classList.toggle('active', p.id === 'tab-' + name));
    if (name === 'documents') loadDocuments();
  }
  document.querySelectorAll('.tab[data-tab]').forEach((t) => t.addEventListener('click', () => showTab(t.dataset.tab)));

  // ---- health -------------------------------------------------------------------------------------------
  async function health() {
    const h = $('health');
    try {
      const { json } = await api('GET', '/api/health');
      const s = json.store || {};
      const docs = s.documents !== undefined ? s.documents + ' docs' : '';
      const model = s.embeddingModel || s.model || '';
      const llm = json.llm && json.llm.enabled ? 'LLM ' + (json.llm.provider || 'on') : 'no LLM';
      h.textContent = [json.status || 'ready', s.type || s.store, docs, model, llm].filter(Boolean).join(' \u00b7 ');
      h.className = 'health ok';
    } catch (e) {
      h.textContent = 'unavailable';
      h.title = e.message;
      h.className = 'health down';
    }
  }

  // ---- filters: "key=value", "key=a|b", "key>=x", "key<y" lines -> the search filters object ----------
  function parseValue(raw) {
    const v = raw.trim();
    if (/^-?\d+(\.\d+)?$/.test(v)) return Number(v);
    if (v === 'true' || v === 'false') return v === 'true';
    return v;
  }

  function parseFilters(text) {
    const filters = {};
    const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
    for (const line of lines) {
      const m = line.match(/^([A-Za-z_][\w.-]*)\s*(>=|<=|>|<|=)\s*(.+)$/);
      if (!m) throw new Error('cannot read filter "' + line + '"; write key=value, key=a|b or key>=value');
      const [, key, op, raw] = m;
      if (op === '=') {
        filters[key] = raw.includes('|') ? raw.split('|').map(parseValue) : parseValue(raw);
      } else {
        const range = typeof filters[key] === 'object' && !Array.isArray(filters[key]) ? filters[key] : {};
        range[{ '>=': 'gte', '<=': 'lte', '>': 'gt', '<': 'lt' }[op]] = parseValue(raw);
        filters[key] = range;
      }
    }
    return filters;
  }

  function parseMetadata(text) {
    const meta = {};
    for (const line of text.split('\n').map((l) => l.trim()).filter(Boolean)) {
      const i = line.indexOf('=');
      if (i <= 0) throw new Error('cannot read metadata "' + line + '"; write key=value');
      meta[line.slice(0, i).trim()] = parseValue(line.slice(i + 1));
    }
    return meta;
  }

  // ---- namespaces: the pickers of search and documents, the suggestions of ingest ------------------------
  /** Fills the namespace pickers from GET /api/namespaces, keeping each picker's choice. */
  async function loadNamespaces() {
    let list = [];
    try {
      const { json } = await api('GET', '/api/namespaces');
      list = Array.isArray(json.namespaces) ? json.namespaces : [];
    } catch (e) { /* the pickers keep "all namespaces" and whatever they held */ }
    for (const id of ['namespace', 'doc-namespace']) {
      const select = $(id);
      const chosen = select.value;
      clear(select).appendChild(el('option', { value: '' }, 'all namespaces'));
      for (const n of list) {
        select.appendChild(el('option', { value: n.name }, n.name + ' (' + n.documents + (n.documents === 1 ? ' doc)' : ' docs)')));
      }
      choose(select, chosen);
    }
    const known = clear($('known-namespaces'));
    for (const n of list) known.appendChild(el('option', { value: n.name }));
  }

  /** Selects value in a picker, adding it when the picker does not list it (a deep link, a namespace still empty). */
  function choose(select, value) {
    if (value && !Array.from(select.options).some((o) => o.value === value)) {
      select.appendChild(el('option', { value }, value));
    }
    select.value = value || '';
  }

  // ---- search -------------------------------------------------------------------------------------------
  let lastQuery = '';
  let lastResults = [];
  let searches = 0;
  /** Chunks asked for per shown result when results are grouped by document (a document may hold several hits). */
  const GROUP_POOL = 4;
  const MAX_TOP_K = 100;

  $('search-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const status = $('search-status');
    status.className = 'status';
    const query = $('q').value.trim();
    if (!query) return;
    closeDocument(); // a document opened from the previous results does not belong beside the new ones
    // No retriever ticked: send none, so the service's default (and its trigram policy) applies.
    const retrievers = Array.from(document.querySelectorAll('input[name=retriever]:checked')).map((c) => c.value);
    let filters;
    try { filters = parseFilters($('filters').value); } catch (e) {
      status.className = 'status error';
      status.textContent = e.message;
      return;
    }
    const topK = Math.min(MAX_TOP_K, Math.max(1, Number($('topK').value) || 10));
    const grouped = $('group').checked;
    const body = {
      query,
      topK: grouped ? Math.min(MAX_TOP_K, topK * GROUP_POOL) : topK,
      expand: $('expand').value,
      mmr: $('mmr').checked,
      selfQuery: $('selfQuery').checked,
    };
    if (retrievers.length) body.retrievers = retrievers;
    if ($('fusion').value) body.fusion = $('fusion').value;
    const ns = $('namespace').value;
    if (ns) body.namespace = ns;
    if (Object.keys(filters).length) body.filters = filters;
    status.textContent = 'Searching\u2026';
    const started = performance.now();
    const mine = ++searches; // only the latest search may show its results
    try {
      const { json } = await api('POST', '/api/search', body);
      if (mine !== searches) return;
      lastQuery = json.cleanedQuery || query;
      lastResults = json.results || [];
      const url = new URL(window.location.href);
      url.searchParams.set('q', query);
      if (ns) url.searchParams.set('namespace', ns); else url.searchParams.delete('namespace');
      window.history.replaceState(null, '', url);
      const groups = grouped ? groupByDocument(lastResults, topK) : lastResults.map((r) => ({ best: r, more: [] }));
      renderStatus(json, performance.now() - started, groups, grouped);
      renderResults(groups);
    } catch (e) {
      if (mine !== searches) return;
      status.className = 'status error';
      status.textContent = 'Search failed: ' + e.message;
      clear($('results'));
    }
  });

  /**
   * Groups ranked chunks by document, in order of each document's best chunk: [{best, more: [other chunks]}], at
   * most topK documents. One long case document can no longer fill the first results with its chunks.
   */
  function groupByDocument(results, topK) {
    const byDoc = new Map();
    for (const r of results) {
      const g = byDoc.get(r.documentId);
      if (g) g.more.push(r);
      else if (byDoc.size < topK) byDoc.set(r.documentId, { best: r, more: [] });
    }
    return Array.from(byDoc.values());
  }

  function renderStatus(json, roundTripMs, groups, grouped) {
    const status = clear($('search-status'));
    const n = groups.length;
    const chunks = (json.results || []).length;
    status.appendChild(el('span', {}, grouped
      ? n + (n === 1 ? ' document' : ' documents') + ' (' + chunks + (chunks === 1 ? ' chunk' : ' chunks') + ')'
      : n + (n === 1 ? ' result' : ' results')));
    if (json.cached) status.appendChild(el('span', {}, '(cached)'));
    const t = json.timings || {};
    for (const [k, label] of [['embedMs', 'embed'], ['vectorMs', 'vector'], ['keywordMs', 'keyword'],
      ['trigramMs', 'trigram'], ['fusionMs', 'fusion'], ['totalMs', 'total']]) {
      if (typeof t[k] === 'number') status.appendChild(el('span', { class: 'timing' }, label + ' ' + fmt(t[k], 1) + ' ms'));
    }
    status.appendChild(el('span', { class: 'timing' }, 'round trip ' + fmt(roundTripMs, 0) + ' ms'));
    const f = json.filters || {};
    const fromQuery = Array.isArray(f.fromQuery) ? f.fromQuery : [];
    if (fromQuery.length) {
      status.appendChild(el('span', { class: 'from-query' }, 'filters from query: ',
        fromQuery.map((c) => el('span', {
          class: 'chip' + (c && c.applied === false ? ' overridden' : ''),
          title: (c && c.phrase ? 'read from "' + c.phrase + '"' : '') + (c && c.applied === false ? ' - overridden by the request' : ''),
        }, describeCondition(c)))));
    }
    if (f.relaxed) status.appendChild(el('span', {}, 'no match with those filters: searched without them'));
    if (json.cleanedQuery && json.cleanedQuery !== json.query) {
      status.appendChild(el('span', {}, 'searched for: ', el('em', {}, json.cleanedQuery)));
    }
  }

  const OPS = { eq: '=', in: 'in', gt: '>', gte: '\u2265', lt: '<', lte: '\u2264' };

  /** A condition of the reply ({key, op, value | values}) as text: "category = case", "date \u2265 2025-01-01". */
  function describeCondition(c) {
    if (typeof c === 'string') return c;
    if (c && typeof c === 'object' && (c.key !== undefined || c.field !== undefined)) {
      const value = c.value !== undefined ? c.value : c.values !== undefined ? c.values : '';
      const text = Array.isArray(value) ? value.map(String).join(', ')
        : typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
      return (c.key ?? c.field) + ' ' + (OPS[c.op] || c.op || '=') + ' ' + text;
    }
    return JSON.stringify(c);
  }

  function snippet(text, max) {
    const t = (text || '').replace(/\s+/g, ' ').trim();
    return t.length > max ? t.slice(0, max - 1) + '\u2026' : t;
  }

  function retrieverBadges(r) {
    const found = r.retrievers || {};
    return RETRIEVERS.map((name) => {
      const hit = found[name];
      if (!hit) return el('span', { class: 'badge absent', title: name + ' did not return this chunk' }, name + ' \u2013');
      return el('span', { class: 'badge ' + name, title: name + ' rank ' + hit.rank + ', score ' + hit.score },
        name + ' #' + hit.rank + ' \u00b7 ' + fmt(hit.score, 3));
    });
  }

  function renderResults(groups) {
    const list = clear($('results'));
    if (groups.length === 0) {
      list.appendChild(el('li', { class: 'card muted' }, 'No results. Try other words, fewer filters, or more retrievers.'));
      return;
    }
    groups.forEach(({ best: r, more }, i) => {
      const meta = r.metadata || {};
      const chips = ['category', 'date', 'risk', 'region'].filter((k) => meta[k] !== undefined)
        .map((k) => el('span', { class: 'chip', title: k }, String(meta[k])));
      const item = el('li', { class: 'result', tabindex: '0', 'data-index': i, 'data-document-id': r.documentId,
        'data-chunk-index': r.chunkIndex },
        el('div', { class: 'result-head' },
          el('span', { class: 'rank' }, (i + 1) + '.'),
          el('span', { class: 'result-title' }, r.title || r.documentId),
          el('span', { class: 'score', title: 'fused score' }, 'score ' + fmt(r.score, 4))),
        el('p', { class: 'snippet' }, snippet(r.text, 360)),
        el('div', { class: 'badges' }, retrieverBadges(r),
          el('span', { class: 'muted' }, 'chunk ' + ((r.chunkIndex ?? 0) + 1) + '/' + (r.chunkTotal ?? '?'))),
        el('div', { class: 'meta-line' }, chips, el('span', { class: 'mono' }, r.documentId)));
      const open = (chunkIndex) => {
        document.querySelectorAll('.result.selected').forEach((x) => x.classList.remove('selected'));
        item.classList.add('selected');
        openDocument(r.documentId, chunkIndex);
      };
      if (more.length) {
        item.appendChild(el('div', { class: 'more-hits' }, 'also matched in this document: ',
          more.map((m) => el('button', {
            type: 'button', class: 'link-button', title: 'score ' + fmt(m.score, 4),
            onclick: (e) => { e.stopPropagation(); open(m.chunkIndex); },
          }, 'chunk ' + ((m.chunkIndex ?? 0) + 1)))));
      }
      item.addEventListener('click', () => open(r.chunkIndex));
      item.addEventListener('keydown', (e) => { if (e.key === 'Enter' && e.target === item) open(r.chunkIndex); });
      list.appendChild(item);
    });
  }

  // ---- document view ------------------------------------------------------------------------------------
  /** Appends text to parent with query words wrapped in <mark>, using text nodes only. */
  function appendHighlighted(parent, text, query) {
    const words = Array.from(new Set((query || '').toLowerCase().split(/[^\p{L}\p{N}@.+-]+/u)
      .filter((w) => w.length >= 3))).sort((a, b) => b.length - a.length);
    if (words.length === 0) { parent.appendChild(document.createTextNode(text)); return; }
    const escaped = words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    const re = new RegExp('(' + escaped.join('|') + ')', 'giu');
    let last = 0;
    for (const m of text.matchAll(re)) {
      if (m.index > last) parent.appendChild(document.createTextNode(text.slice(last, m.index)));
      parent.appendChild(el('mark', {}, m[0]));
      last = m.index + m[0].length;
    }
    if (last < text.length) parent.appendChild(document.createTextNode(text.slice(last)));
  }

  /** The open document in the address (#doc=<id>&chunk=<n>), so the view can be shared and survives a reload. */
  function setDocumentHash(id, hitIndex) {
    const url = new URL(window.location.href);
    url.hash = id ? new URLSearchParams({ doc: id, chunk: String(hitIndex ?? -1) }).toString() : '';
    window.history.replaceState(null, '', url);
  }

  async function openDocument(id, hitIndex) {
    setDocumentHash(id, hitIndex);
    const view = clear($('docview'));
    view.classList.remove('hidden');
    $('docview').parentElement.classList.add('with-doc');
    view.appendChild(el('p', { class: 'muted' }, 'Loading ' + id + '\u2026'));
    try {
      const { json: doc } = await api('GET', '/api/documents/' + encodeURIComponent(id));
      clear(view);
      view.appendChild(el('button', { class: 'close', type: 'button', onclick: closeDocument, 'aria-label': 'close' }, '\u00d7'));
      view.appendChild(el('h2', {}, doc.title || doc.id));
      const meta = Object.assign({ id: doc.id, namespace: doc.namespace, source: doc.source }, doc.metadata || {});
      const dl = el('dl', { class: 'meta' });
      for (const [k, v] of Object.entries(meta)) {
        if (v === undefined || v === null || v === '') continue;
        dl.appendChild(el('dt', {}, k));
        dl.appendChild(el('dd', {}, Array.isArray(v) ? v.join(', ') : typeof v === 'object' ? JSON.stringify(v) : String(v)));
      }
      view.appendChild(dl);
      const chunks = Array.isArray(doc.chunks) ? doc.chunks : [];
      if (chunks.length === 0 && doc.text) {
        const p = el('div', { class: 'chunk' });
        appendHighlighted(p, doc.text, lastQuery);
        view.appendChild(p);
        return;
      }
      let hitNode = null;
      for (const c of chunks) {
        const isHit = c.index === hitIndex;
        const node = el('div', { class: 'chunk' + (isHit ? ' hit' : '') },
          el('span', { class: 'chunk-label' }, 'chunk ' + (c.index + 1) + ' of ' + (c.total ?? chunks.length) + (isHit ? ' \u00b7 matched' : '')));
        if (isHit) { appendHighlighted(node, c.text || '', lastQuery); hitNode = node; }
        else node.appendChild(document.createTextNode(c.text || ''));
        view.appendChild(node);
      }
      // Bring the hit into sight: inside the document view and, where the view sits below the results (narrow
      // screens), on the page.
      if (hitNode) hitNode.scrollIntoView({ block: 'center' });
      else view.scrollIntoView({ block: 'nearest' });
    } catch (e) {
      clear(view);
      view.appendChild(el('button', { class: 'close', type: 'button', onclick: closeDocument }, '\u00d7'));
      view.appendChild(el('p', { class: 'status error' }, 'Could not open ' + id + ': ' + e.message));
    }
  }

  function closeDocument() {
    if (new URLSearchParams(window.location.hash.slice(1)).get('doc')) setDocumentHash(null);
    clear($('docview')).classList.add('hidden');
    $('docview').parentElement.classList.remove('with-doc');
    document.querySelectorAll('.result.selected').forEach((x) => x.classList.remove('selected'));
  }

  // ---- ingest -------------------------------------------------------------------------------------------
  let jobStream = null;

  $('ingest-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const files = $('ing-files').files;
    const text = $('ing-text').value;
    const ns = $('ing-namespace').value.trim();
    const box = $('ingest-job');
    box.classList.remove('hidden');
    clear($('job-log'));
    let metadata;
    try { metadata = parseMetadata($('ing-metadata').value); } catch (e) { return showJobError(e.message); }
    let payload;
    if (files.length > 0) {
      payload = new FormData();
      if (ns) payload.append('namespace', ns);
      for (const f of files) payload.append('files', f, f.name);
    } else if (text.trim()) {
      payload = { title: $('ing-title').value.trim() || 'Pasted text', text, format: $('ing-format').value };
      const id = $('ing-id').value.trim();
      if (id) payload.id = id;
      if (ns) payload.namespace = ns;
      if (Object.keys(metadata).length) payload.metadata = metadata;
    } else {
      return showJobError('Paste some text or choose files.');
    }
    setJob({ jobId: '', status: 'queued', total: 0, processed: 0 });
    try {
      const { json } = await api('POST', '/api/documents', payload);
      setJob(json);
      (json.documents || []).forEach(logDocument);
      if (json.jobId && json.status !== 'completed' && json.status !== 'failed') followJob(json.jobId);
      else if (json.status === 'completed') knowledgeChanged();
    } catch (e) {
      showJobError(e.message);
    }
  });

  function showJobError(msg) {
    $('ingest-job').classList.remove('hidden');
    setJob({ status: 'failed' });
    $('job-log').appendChild(el('li', { class: 'failed' }, msg));
  }

  function setJob(job) {
    $('job-id').textContent = job.jobId || '';
    const st = $('job-status');
    st.textContent = job.status || '';
    st.className = 'pill ' + (job.status || '');
    const total = job.total || 0;
    const pct = total > 0 ? Math.round(100 * (job.processed || 0) / total) : (job.status === 'completed' ? 100 : 0);
    $('job-bar').style.width = pct + '%';
    document.querySelector('#ingest-job .progress').setAttribute('aria-valuenow', String(pct));
    const parts = [];
    if (total) parts.push((job.processed || 0) + ' of ' + total + ' documents');
    for (const k of ['created', 'replaced', 'unchanged', 'failed']) if (job[k]) parts.push(job[k] + ' ' + k);
    $('job-counts').textContent = parts.join(' \u00b7 ');
  }

  function logDocument(d) {
    const line = el('li', { class: d.outcome === 'failed' ? 'failed' : '' },
      el('span', { class: 'mono' }, d.id || '?'), ' \u2013 ', d.outcome || '',
      d.chunks !== undefined ? ' (' + d.chunks + ' chunks)' : '', d.error ? ': ' + d.error : '');
    $('job-log').appendChild(line);
  }

  /** Follows the job's SSE stream (read with fetch, so the key goes in a header); polls its status if the stream drops. */
  function followJob(jobId) {
    if (jobStream) jobStream.abort();
    const controller = new AbortController();
    jobStream = controller;
    let done = false;
    window.Argus.stream('/api/ingest/jobs/' + encodeURIComponent(jobId) + '/events', { signal: controller.signal }, (type, data) => {
      if (!data || typeof data !== 'object') return;
      if (type === 'progress') setJob(data);
      else if (type === 'document') logDocument(data);
      else if (type === 'done') {
        done = true;
        setJob(data);
        knowledgeChanged();
      }
    }).catch(() => { /* dropped: polled below */ }).then(() => {
      if (jobStream === controller) jobStream = null;
      // The server ends the stream after "done"; if it ended earlier, follow the job by polling its status.
      if (!done && !controller.signal.aborted) pollJob(jobId, 0);
    });
  }

  function pollJob(jobId, failures) {
    api('GET', '/api/ingest/jobs/' + encodeURIComponent(jobId)).then(({ json }) => {
      setJob(json);
      if (json.status === 'completed' || json.status === 'failed') { knowledgeChanged(); return; }
      window.setTimeout(() => pollJob(jobId, 0), 1000);
    }).catch((err) => {
      if (failures >= 4) {
        $('job-log').appendChild(el('li', { class: 'failed' }, 'lost track of job ' + jobId + ': ' + err.message));
        return;
      }
      window.setTimeout(() => pollJob(jobId, failures + 1), 1000 * (failures + 1));
    });
  }

  // ---- documents ----------------------------------------------------------------------------------------
  const PAGE = 20;
  let docOffset = 0;

  let docListing = 0;

  async function loadDocuments() {
    const mine = ++docListing; // a slower answer to an earlier listing must not overwrite this one
    const ns = $('doc-namespace').value;
    const params = new URLSearchParams({ offset: String(docOffset), limit: String(PAGE) });
    if (ns) params.set('namespace', ns);
    try {
      const { json } = await api('GET', '/api/documents?' + params.toString());
      if (mine !== docListing) return;
      const rows = clear($('doc-rows'));
      const docs = json.documents || [];
      const total = json.total || 0;
      if (docs.length === 0) rows.appendChild(el('tr', {}, el('td', { colspan: '7', class: 'muted' }, 'No documents.')));
      for (const d of docs) {
        const meta = d.metadata || {};
        const del = el('button', { class: 'danger', type: 'button' }, 'Delete');
        del.addEventListener('click', () => deleteDocument(d.id, del));
        const open = el('a', { href: '#', title: 'open' }, d.title || d.id);
        open.addEventListener('click', (e) => {
          e.preventDefault();
          showTab('search');
          openDocument(d.id, -1);
        });
        rows.appendChild(el('tr', {},
          el('td', {}, open), el('td', { class: 'mono' }, d.id), el('td', {}, d.namespace || ''),
          el('td', {}, meta.category !== undefined ? String(meta.category) : ''), el('td', {}, String(d.chunkCount ?? '')),
          el('td', { class: 'muted' }, (d.updatedAt || '').replace('T', ' ').slice(0, 16)), el('td', {}, del)));
      }
      $('doc-page').textContent = total ? (docOffset + 1) + '\u2013' + (docOffset + docs.length) + ' of ' + total : '';
      $('doc-prev').disabled = docOffset === 0;
      $('doc-next').disabled = docOffset + docs.length >= total;
    } catch (e) {
      if (mine !== docListing) return;
      clear($('doc-rows')).appendChild(el('tr', {}, el('td', { colspan: '7', class: 'status error' }, 'Could not list documents: ' + e.message)));
    }
  }

  async function deleteDocument(id, button) {
    if (!window.confirm('Delete document "' + id + '" and all its chunks?')) return;
    button.disabled = true;
    try {
      await api('DELETE', '/api/documents/' + encodeURIComponent(id));
      loadDocuments();
      knowledgeChanged();
    } catch (e) {
      button.disabled = false;
      window.alert('Delete failed: ' + e.message);
    }
  }

  $('doc-refresh').addEventListener('click', () => { docOffset = 0; loadNamespaces(); loadDocuments(); });
  $('doc-namespace').addEventListener('change', () => { docOffset = 0; loadDocuments(); });
  $('doc-prev').addEventListener('click', () => { docOffset = Math.max(0, docOffset - PAGE); loadDocuments(); });
  $('doc-next').addEventListener('click', () => { docOffset += PAGE; loadDocuments(); });

  /** Documents were added or deleted: the counts of the health line and of the namespace pickers changed. */
  function knowledgeChanged() {
    health();
    loadNamespaces();
  }

  health();
  loadNamespaces().then(() => {
    // A shareable search link: index.html?q=...&namespace=... runs the search on load.
    const params = new URLSearchParams(window.location.search);
    if (params.get('namespace')) choose($('namespace'), params.get('namespace'));
    const hash = new URLSearchParams(window.location.hash.slice(1));
    if (params.get('q')) {
      $('q').value = params.get('q');
      $('search-form').requestSubmit();
    }
    // A document link (e.g. from a chat citation): index.html#doc=<id>&chunk=<index> opens the document view.
    if (hash.get('tab')) showTab(hash.get('tab'));
    if (hash.get('doc')) openDocument(hash.get('doc'), Number(hash.get('chunk') ?? -1));
  });
})();
