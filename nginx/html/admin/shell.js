// The owner's cabinet's chrome: the grouped side navigation (folded into a menu button
// under 1024 px), the section and its filters in the URL (#/promo?status=active&q=gift, so a
// view can be shared and Back works), the content area, toasts and whole-page states.
// A section is a module exporting default { title: 'i18n key', render(view, ctx) → cleanup? },
// loaded when first opened.

import { h, mount } from '../shared/dom.js';
import { noticeBoard, showPageState, toaster } from '../shared/page-notes.js';

// "#/promo?status=active" → { name: 'promo', params }; Telegram's own fragment parameters
// (tgWebAppData=…, appended when a link opens the page inside Telegram) are not ours.
export function parseRoute(hash = location.hash) {
  const m = String(hash).split(/[&?]tgWebApp/)[0].match(/^#\/([a-z-]+)(?:\?(.*))?$/);
  return { name: m ? m[1] : null, params: new URLSearchParams(m && m[2] ? m[2] : '') };
}

export function routeHash(name, params) {
  const qs = params ? params.toString() : '';
  return '#/' + name + (qs ? '?' + qs : '');
}

// sections: [{ id, group, load: () => import(…) }] (already those the
// role may open); groups: ['shop', …] in order.
export function createAdminShell(ctx, { sections, groups, halted = () => false }) {
  const screenEl = document.getElementById('screen');
  const nav = document.getElementById('admin-nav');
  const menu = document.getElementById('menu');
  const shellEl = document.getElementById('shell');
  const toasts = document.getElementById('toasts');
  const notices = document.getElementById('notices');
  const toast = toaster(toasts);
  const setNotice = noticeBoard(notices);
  const byId = new Map(sections.map((s) => [s.id, s]));
  const home = sections[0] && sections[0].id;
  let cleanup = null;
  let current = null;
  let params = new URLSearchParams();
  let seq = 0;
  let started = false;

  const setOpen = (open) => {
    shellEl.dataset.nav = open ? 'open' : 'closed';
    menu.setAttribute('aria-expanded', String(open));
  };

  // "Find": a section by its name, else the settings whose name or meaning has the text.
  function finder() {
    const box = h('input', { class: 'input', type: 'search', id: 'admin-find', autocomplete: 'off', spellcheck: 'false' });
    const form = h('form', { class: 'admin-find', role: 'search' },
      h('label', { for: 'admin-find', class: 'visually-hidden' }, ctx.t('admin.find.label')), box);
    box.placeholder = ctx.t('admin.find.placeholder');
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const q = box.value.trim();
      if (!q) return;
      const needle = q.toLowerCase();
      const hit = sections.find((s) => ctx.t('admin.nav.' + s.id).toLowerCase().startsWith(needle));
      if (hit) go(hit.id);
      else if (byId.has('settings')) go('settings', new URLSearchParams({ q }));
      else return;
      box.value = '';
    });
    return form;
  }

  function renderNav() {
    nav.setAttribute('aria-label', ctx.t('admin.nav.label'));
    mount(nav, h('div', { class: 'admin-nav-inner' }, finder(), groups.map((g) => {
      const items = sections.filter((s) => s.group === g);
      if (!items.length) return null;
      return h('div', { class: 'admin-nav-group' },
        h('h2', { class: 'admin-nav-title', id: 'nav-' + g }, ctx.t('admin.group.' + g)),
        h('ul', { class: 'admin-nav-list', 'aria-labelledby': 'nav-' + g }, items.map((s) => h('li', {},
          h('a', { class: 'admin-nav-link', href: '#/' + s.id, 'data-section': s.id },
            h('span', {}, ctx.t('admin.nav.' + s.id)))))));
    })));
    for (const [id, b] of badges) setBadge(id, b.n, b.label);
    nav.hidden = false;
    menu.hidden = false;
    menu.textContent = ctx.t('admin.menu');
  }

  // A count on a section's link (the unread tickets): shown as a badge, read out as `label`;
  // 0 takes it away. Kept across a new drawing of the navigation.
  const badges = new Map();
  function setBadge(id, n, label) {
    badges.set(id, { n, label });
    const a = nav.querySelector(`a[data-section="${id}"]`);
    if (!a) return;
    const old = a.querySelector('.admin-nav-count');
    if (old) old.remove();
    if (n > 0) a.append(h('span', { class: 'admin-nav-count' }, h('span', { 'aria-hidden': 'true' }, String(n)),
      h('span', { class: 'visually-hidden' }, ' ' + label)));
  }

  function markCurrent(name) {
    for (const a of nav.querySelectorAll('a[data-section]')) {
      if (a.dataset.section === name) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
    }
  }

  async function load(section) {
    return (await section.load()).default;
  }

  async function show(route) {
    if (halted()) return;
    const section = byId.get(route.name);
    if (!section) { location.replace(routeHash(home)); return; }
    const mine = ++seq;
    if (cleanup) { try { cleanup(); } catch (e) { console.error(e); } cleanup = null; }
    params = route.params;
    setOpen(false);
    screenEl.setAttribute('aria-busy', 'true');
    let mod;
    try {
      mod = await load(section);
    } catch (e) {
      console.error(e);
      if (mine === seq) showOffline(() => show(route));
      return;
    }
    if (mine !== seq || halted()) return;
    current = section.id;
    document.documentElement.dataset.screen = section.id;
    markCurrent(section.id);
    const heading = h('h1', { class: 'view-title', id: 'view-title', tabindex: '-1' }, ctx.t(mod.title));
    const view = h('section', { class: `view view-admin view-${section.id}`, 'aria-labelledby': 'view-title' });
    mount(screenEl, h('div', { class: 'view-head' }, heading,
      ctx.readOnly ? h('span', { class: 'badge badge-pending admin-ro' }, ctx.t('admin.readOnly.badge')) : null), view);
    if (started) heading.focus();
    started = true;
    try {
      const c = await mod.render(view, ctx);
      if (mine === seq) cleanup = typeof c === 'function' ? c : null;
      else if (typeof c === 'function') c();
    } catch (e) {
      if (mine === seq) ctx.fail(e, { inline: view });
    } finally {
      if (mine === seq) screenEl.setAttribute('aria-busy', 'false');
    }
  }

  function go(name, p = null) {
    const hash = routeHash(name, p);
    if (hash === location.hash) show(parseRoute(hash)); else location.hash = hash;
  }

  // The current view's filters into the URL without a new history entry or a re-render:
  // setParams({ q: 'gift', cursor: null }) (null/'' removes a key).
  function setParams(changes) {
    for (const [k, v] of Object.entries(changes)) {
      if (v === null || v === undefined || v === '') params.delete(k); else params.set(k, String(v));
    }
    history.replaceState(history.state, '', routeHash(current, params));
  }


  // A whole-page state (not allowed, offline): no navigation, no section.
  function showState({ kind, title, text, action }) {
    if (cleanup) { try { cleanup(); } catch { /* ignore */ } cleanup = null; }
    current = null;
    nav.hidden = true;
    menu.hidden = true;
    setNotice('readonly', null);
    showPageState(screenEl, { kind, title, text, action });
  }

  function showOffline(retry) {
    showState({ kind: 'offline', title: ctx.t('state.offline.title'), text: ctx.t('state.offline.text'),
      action: { label: ctx.t('action.retry'), onClick: retry } });
  }

  function start() {
    renderNav();
    setOpen(false);
    menu.addEventListener('click', () => setOpen(shellEl.dataset.nav !== 'open'));
    document.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && shellEl.dataset.nav === 'open') { setOpen(false); menu.focus(); }
    });
    window.addEventListener('hashchange', () => show(parseRoute()));
    return show(parseRoute());
  }

  return {
    start, show, go, toast, setNotice, showState, showOffline, setParams, setBadge,
    get current() { return current; },
    get params() { return params; },
  };
}
