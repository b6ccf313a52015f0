/* Argus sign-in, shared by every page (load it before the page's own script). The key an analyst signs in with is kept
 * in this tab's sessionStorage and sent as "Authorization: Bearer <key>" on every request the pages make: JSON calls
 * through Argus.fetch / Argus.json and Server-Sent Events through Argus.stream, which reads the event stream with
 * fetch (EventSource cannot send headers, and a key in a URL would end up in logs and history). A 401 opens the
 * sign-in dialog. Nothing from the server is inserted as HTML. */
(function () {
  'use strict';

  const STORE = 'argus.key';
  const listeners = [];
  let dialog = null;

  function key() {
    try { return window.sessionStorage.getItem(STORE) || ''; } catch (e) { return ''; }
  }

  function setKey(value) {
    try {
      if (value) window.sessionStorage.setItem(STORE, value);
      else window.sessionStorage.removeItem(STORE);
    } catch (e) { /* storage disabled: the key lives as long as the page */ }
    memoryKey = value || '';
    listeners.forEach((fn) => { try { fn(); } catch (e) { /* a listener's own problem */ } });
  }
  let memoryKey = '';

  function currentKey() {
    return key() || memoryKey;
  }

  /** Same-origin only: the key is never sent to another site. */
  function sameOrigin(url) {
    try { return new URL(url, window.location.href).origin === window.location.origin; } catch (e) { return false; }
  }

  /** fetch with the key; a 401 asks for a key (the caller still gets the 401 answer). */
  async function authFetch(url, init) {
    const opts = Object.assign({}, init || {});
    const headers = new Headers(opts.headers || {});
    const k = currentKey();
    if (k && sameOrigin(url)) headers.set('Authorization', 'Bearer ' + k);
    opts.headers = headers;
    const resp = await window.fetch(url, opts);
    if (resp.status === 401) signIn('This request needs a key' + (k ? ' (the one given was refused)' : '') + '.');
    return resp;
  }

  /** An error carrying the server's {error, code} and the HTTP status. */
  class ApiError extends Error {
    constructor(status, message, code) {
      super(message);
      this.status = status;
      this.code = code || null;
    }
  }

  /** JSON in, JSON out; a non-2xx answer throws an ApiError with the server's message. */
  async function json(method, path, body) {
    const init = { method, headers: { Accept: 'application/json' } };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers['Content-Type'] = 'application/json';
    }
    const resp = await authFetch(path, init);
    let data = null;
    try { data = await resp.json(); } catch (e) { /* not JSON */ }
    if (!resp.ok) {
      const msg = data && data.error ? data.error + (data.code ? ' (' + data.code + ')' : '') : 'HTTP ' + resp.status;
      throw new ApiError(resp.status, msg, data && data.code);
    }
    return data || {};
  }

  /**
   * Reads a Server-Sent Events answer with fetch, calling onEvent(type, data, id) per event (data parsed as JSON when it
   * is JSON). Resolves with the response once the stream ends; throws an ApiError on a non-2xx answer.
   * init.signal (an AbortController's) stops it.
   */
  async function stream(url, init, onEvent) {
    const opts = Object.assign({}, init || {});
    opts.headers = Object.assign({ Accept: 'text/event-stream' }, opts.headers || {});
    const resp = await authFetch(url, opts);
    if (!resp.ok) {
      let data = null;
      try { data = await resp.json(); } catch (e) { /* not JSON */ }
      throw new ApiError(resp.status, data && data.error ? data.error : 'HTTP ' + resp.status, data && data.code);
    }
    if (!resp.body) return resp;
    const reader = resp.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    let type = 'message';
    let data = [];
    let id = null;
    const dispatch = () => {
      if (data.length) {
        const text = data.join('\n');
        let value = text;
        try { value = JSON.parse(text); } catch (e) { /* plain text */ }
        onEvent(type, value, id);
      }
      type = 'message';
      data = [];
    };
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let nl;
      while ((nl = buffer.search(/\r?\n/)) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + (buffer[nl] === '\r' ? 2 : 1));
        if (line === '') { dispatch(); continue; }
        if (line.startsWith(':')) continue; // heartbeat comment
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        let v = colon < 0 ? '' : line.slice(colon + 1);
        if (v.startsWith(' ')) v = v.slice(1);
        if (field === 'event') type = v;
        else if (field === 'data') data.push(v);
        else if (field === 'id') id = v;
      }
    }
    dispatch();
    return resp;
  }

  // ---- the sign-in dialog (built with createElement; shown on a 401 or from the header's button) -------------
  function make(tag, attrs, text) {
    const n = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) n.setAttribute(k, v);
    if (text !== undefined) n.textContent = text;
    return n;
  }

  function buildDialog() {
    const d = make('dialog', { id: 'argus-signin', class: 'signin', 'aria-labelledby': 'argus-signin-title' });
    const form = make('form', { method: 'dialog' });
    form.appendChild(make('h2', { id: 'argus-signin-title' }, 'Sign in to Argus'));
    const why = make('p', { class: 'signin-why' });
    form.appendChild(why);
    const label = make('label', { for: 'argus-key' }, 'API key');
    const input = make('input', { id: 'argus-key', type: 'password', autocomplete: 'off', spellcheck: 'false',
      maxlength: '4096', placeholder: 'argus_...', required: '' });
    form.appendChild(label);
    form.appendChild(input);
    form.appendChild(make('p', { class: 'signin-hint' },
      'Printed once at first start as "admin key: ...", or made with "argus keys create --role analyst". '
      + 'Kept in this tab only (sessionStorage).'));
    const row = make('div', { class: 'signin-actions' });
    const cancel = make('button', { type: 'button', value: 'cancel' }, 'Cancel');
    const ok = make('button', { type: 'submit', class: 'primary', id: 'argus-signin-submit' }, 'Sign in');
    row.appendChild(cancel);
    row.appendChild(ok);
    form.appendChild(row);
    d.appendChild(form);
    cancel.addEventListener('click', () => d.close());
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const v = input.value.trim();
      if (!v) return;
      input.value = '';
      d.close();
      setKey(v);
    });
    document.body.appendChild(d);
    return { d, why, input };
  }

  function signIn(reason) {
    if (!document.body) return;
    if (!dialog) dialog = buildDialog();
    dialog.why.textContent = reason || 'Give the API key to use.';
    if (!dialog.d.open) {
      if (typeof dialog.d.showModal === 'function') dialog.d.showModal();
      else dialog.d.setAttribute('open', '');
    }
    dialog.input.focus();
  }

  function signOut() {
    setKey('');
  }

  /** Who the service takes the caller for: {id, role, permissions, namespaces}, or null when it refuses. */
  async function whoami() {
    try { return await json('GET', '/api/auth/whoami'); } catch (e) { return null; }
  }

  /**
   * Fills a header element with the caller's identity and a Sign in / Sign out button; kept current as the key changes.
   */
  function mountBadge(container) {
    const who = make('span', { class: 'who', id: 'argus-who' }, '...');
    const button = make('button', { type: 'button', class: 'signin-button', id: 'argus-signin-button' }, 'Sign in');
    container.appendChild(who);
    container.appendChild(button);
    button.addEventListener('click', () => { if (currentKey()) signOut(); else signIn(); });
    const refresh = async () => {
      button.textContent = currentKey() ? 'Sign out' : 'Sign in';
      const me = await whoami();
      who.textContent = me ? (me.id || '?') + ' \u00b7 ' + (me.role || '?') : 'not signed in';
      who.title = me && Array.isArray(me.permissions) ? 'may: ' + me.permissions.join(', ') : '';
    };
    listeners.push(refresh);
    refresh();
  }

  window.Argus = {
    key: currentKey, setKey, signIn, signOut, whoami, mountBadge, onKeyChange: (fn) => listeners.push(fn),
    fetch: authFetch, json, stream, ApiError,
  };
  // Every page with an #account spot in its header shows who is signed in there.
  const spot = document.getElementById('account');
  if (spot) mountBadge(spot);
})();
