// The mini-app's chrome around the screens: the router (hash routes #/name), the tab bar,
// the title, Telegram's Back and Main buttons, toasts and the notices (maintenance,
// offline). A screen is a module in screens/ exporting default
//   { title: 'i18n key', tab: 'home'|'plans'|'connect'|'account', parent?: 'route',
//     render(view, ctx) → optional cleanup function }
// loaded on first visit, so a customer downloads only the screens they open.

import { h, mount } from '../shared/dom.js';
import { noticeBoard, showPageState, toaster } from '../shared/page-notes.js';
import { screensCss } from '../shared/theme.js';

export const SCREENS = {
  home: () => import('./screens/home.js'),
  plans: () => import('./screens/plans.js'),
  connect: () => import('./screens/connect.js'),
  account: () => import('./screens/account.js'),
  devices: () => import('./screens/devices.js'),
  traffic: () => import('./screens/traffic.js'),
  payments: () => import('./screens/payments.js'),
  referral: () => import('./screens/referral.js'),
  promo: () => import('./screens/promo.js'),
  support: () => import('./screens/support.js'),
  linked: () => import('./screens/linked.js'),
};

const TABS = [
  { id: 'home', icon: 'M3 11 12 4l9 7v9a1 1 0 0 1-1 1h-5v-6H9v6H4a1 1 0 0 1-1-1z' },
  { id: 'plans', icon: 'M4 6h16v12H4zM4 10h16M8 15h3' },
  { id: 'connect', icon: 'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zm0 0c3 3 3 15 0 18m0-18c-3 3-3 15 0 18M3 12h18' },
  { id: 'account', icon: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zm-8 9c0-4 4-6 8-6s8 2 8 6' },
];

function icon(d) {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('class', 'icon');
  const p = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  p.setAttribute('d', d);
  svg.append(p);
  return svg;
}

// A screen that fails to load after a deploy (the window still runs the old release, and
// nginx serves only the current one): the entry page names another release, so reload,
// once per new release (a second failure is an outage, not a deploy: no reload loop).
async function reloadForNewRelease() {
  const ours = import.meta.url.match(/\/static\/([0-9a-f]{12})\//);
  if (!ours) return false;
  try {
    const html = await (await fetch(location.pathname, { cache: 'no-store' })).text();
    const now = html.match(/\/static\/([0-9a-f]{12})\//);
    if (!now || now[1] === ours[1] || sessionStorage.getItem('cabinet.reloaded-for') === now[1]) return false;
    sessionStorage.setItem('cabinet.reloaded-for', now[1]);
    location.reload();
    return true;
  } catch {
    return false;
  }
}

// The mini-app's routes. Another page (admin/) gives createShell its own: its screens, its
// tabs, the first screen, the i18n prefix of the tab labels, an extra class for its views,
// and `halted()`, true once the page must show no screen any more (admin: not allowed).
export const APP_ROUTES = { screens: SCREENS, tabs: TABS, home: 'home', navKey: 'nav', viewClass: '', halted: () => false };

export function routeFromHash(hash = location.hash, routes = APP_ROUTES) {
  const m = hash.match(/^#\/([a-z]+)/);
  return m && routes.screens[m[1]] ? m[1] : routes.home;
}

export function createShell(ctx, routes = APP_ROUTES) {
  const screenEl = document.getElementById('screen');
  const tabbar = document.getElementById('tabbar');
  const toasts = document.getElementById('toasts');
  const notices = document.getElementById('notices');
  const toast = toaster(toasts);
  const setNotice = noticeBoard(notices);
  let cleanup = null;
  let current = null;
  let renderSeq = 0;

  function renderTabs(active) {
    tabbar.hidden = false;
    tabbar.setAttribute('aria-label', ctx.t(routes.navKey + '.label'));
    mount(tabbar, h('ul', { class: 'tabs' }, routes.tabs.map((tab) => h('li', {},
      h('a', {
        class: 'tab', href: '#/' + tab.id, 'data-tab': tab.id,
        'aria-current': tab.id === active ? 'page' : false,
      }, icon(tab.icon), h('span', { class: 'tab-label' }, ctx.t(routes.navKey + '.' + tab.id)))))));
  }

  async function show(name) {
    if (routes.halted()) return;
    const seq = ++renderSeq;
    if (cleanup) { try { cleanup(); } catch (e) { console.error(e); } cleanup = null; }
    ctx.tg.mainButton.hide();
    screenEl.setAttribute('aria-busy', 'true');
    let mod;
    let fresh = true;
    try {
      // The mini-app starts with the first screen's strings only (shared/i18n.js
      // firstTranslator): any other screen waits for the whole table too, and, while home
      // shows the copy kept on the device, for /me (ctx.fresh, app/main.js; false: /me
      // failed and the page shows why instead).
      // The same for the other screens' stylesheet (shared/theme.js screensCss).
      const other = name !== routes.home;
      const strings = other && ctx.t.whole ? ctx.t.whole() : null;
      [mod, , , fresh] = await Promise.all([routes.screens[name](), strings, other ? screensCss() : null, other ? ctx.fresh : true]);
      mod = mod.default;
    } catch (e) {
      if (await reloadForNewRelease()) return;
      console.error(e);
      if (seq === renderSeq) showOffline(() => show(name));
      return;
    }
    if (seq !== renderSeq || routes.halted() || fresh === false) return;
    current = name;
    document.documentElement.dataset.screen = name;
    renderTabs(mod.tab || name);
    const view = h('section', { class: `view view-${name} ${routes.viewClass}`.trim(), 'aria-labelledby': 'view-title' });
    const heading = h('h1', { class: 'view-title', id: 'view-title' }, ctx.t(mod.title));
    const top = mod.parent
      ? h('div', { class: 'view-head' },
        h('a', { class: 'back-link', href: '#/' + mod.parent }, h('span', { 'aria-hidden': 'true' }, '‹ '), ctx.t('nav.back')),
        heading)
      : h('div', { class: 'view-head' }, heading);
    mount(screenEl, top, view);
    if (mod.parent) ctx.tg.backButton.show(() => go(mod.parent)); else ctx.tg.backButton.hide();
    try {
      const c = await mod.render(view, ctx);
      if (seq === renderSeq) cleanup = typeof c === 'function' ? c : null;
      else if (typeof c === 'function') c();
    } catch (e) {
      if (seq === renderSeq) ctx.fail(e, { inline: view });
    } finally {
      if (seq === renderSeq) screenEl.setAttribute('aria-busy', 'false');
    }
  }

  function go(name) {
    if ('#/' + name === location.hash) show(name);
    else location.hash = '#/' + name;
  }


  // A whole-page state (401, 403, offline): replaces the screen, hides the tabs.
  function showState({ kind, title, text, action, secondary }) {
    if (cleanup) { try { cleanup(); } catch { /* ignore */ } cleanup = null; }
    current = null;
    tabbar.hidden = true;
    ctx.tg.backButton.hide();
    ctx.tg.mainButton.hide();
    showPageState(screenEl, { kind, title, text, action, secondary });
  }

  function showOffline(retry) {
    showState({
      kind: 'offline', title: ctx.t('state.offline.title'), text: ctx.t('state.offline.text'),
      action: { label: ctx.t('action.retry'), onClick: retry },
    });
  }

  function start() {
    window.addEventListener('hashchange', () => show(routeFromHash(location.hash, routes)));
    return show(routeFromHash(location.hash, routes));
  }

  return { start, show, go, toast, setNotice, showState, showOffline, get current() { return current; } };
}
