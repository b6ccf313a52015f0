/* The console's router: #page/arg... in the address picks a page registered in Console.pages; a page renders into a
 * fresh container and may return a cleanup function. The key change (sign in / out) re-renders the current page. */
(function () {
  'use strict';
  const { el, clear, message, destroyCharts } = window.UI;
  const view = document.getElementById('view');
  let cleanup = null;
  let rendering = 0;

  function parse() {
    const raw = window.location.hash.replace(/^#/, '');
    const parts = raw.split('/').map((p) => { try { return decodeURIComponent(p); } catch (e) { return p; } });
    return { name: parts[0] || 'decisions', args: parts.slice(1) };
  }

  async function render() {
    const { name, args } = parse();
    const page = window.Console.pages[name];
    const mine = ++rendering;
    if (typeof cleanup === 'function') { try { cleanup(); } catch (e) { /* ignore */ } }
    cleanup = null;
    destroyCharts();
    document.querySelectorAll('.nav a[data-page]').forEach((a) => {
      const on = a.dataset.page === (page && page.nav ? page.nav : name);
      a.classList.toggle('active', on);
      if (on) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
    });
    const root = el('div', { class: 'page page-' + (page ? name : 'unknown') });
    clear(view).appendChild(root);
    if (!page) {
      root.appendChild(message('No page "' + name + '".', 'error'));
      return;
    }
    document.title = 'Argus - ' + page.title;
    try {
      const result = await page.render(root, args);
      if (mine === rendering) cleanup = result || null;
      else if (typeof result === 'function') result();
    } catch (e) {
      if (mine === rendering) root.appendChild(message(page.title + ' could not load: ' + e.message, 'error'));
    }
  }

  window.Console.go = (hash) => {
    if (window.location.hash === hash) render(); else window.location.hash = hash;
  };
  window.addEventListener('hashchange', render);
  window.Argus.onKeyChange(render);
  render();
})();
