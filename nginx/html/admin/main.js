// The admin screens (/admin/): the shop's maintenance switch, backups, host actions and the
// audit log, for ADMIN_IDS only. Same modules as the mini-app (shared/*: API client,
// Telegram bridge, i18n, formats, themes) and the same screen contract as app/shell.js:
//   screens/NAME.js exports default { title, tab, render(view, ctx) → cleanup? }
// The credential: Telegram init data ("tma …"); a web session's "Bearer …" comes later
// through setWebCredential() (the web cabinet's session module), nothing else changes.
// Without a credential, or when the server answers 401/403, the page says "not allowed"
// and shows no admin data. There is no demo mode here.

import { ApiError, apiBase, createApi } from '../shared/api.js';
import { h, mount } from '../shared/dom.js';
import { errorText as sharedErrorText } from '../shared/errors.js';
import { formatters } from '../shared/format.js';
import { pickLanguage, translator } from '../shared/i18n.js';
import { createTelegram } from '../shared/telegram.js';
import { applyAccent, applyTelegramParams, applyTemplate, watchScheme } from '../shared/theme.js';
import { watchViewport } from '../shared/viewport.js';

const SCREENS = {
  maintenance: () => import('./screens/maintenance.js'),
  audit: () => import('./screens/audit.js'),
};
const TABS = [
  { id: 'maintenance', icon: 'M14.7 6.3a4 4 0 0 0-5.4 5.4L3 18l3 3 6.3-6.3a4 4 0 0 0 5.4-5.4l-2.5 2.5-2.4-.6-.6-2.4z' },
  { id: 'audit', icon: 'M6 3h9l4 4v14H6zM9 9h7M9 13h7M9 17h5' },
];

const params = new URLSearchParams(location.search);
const tg = createTelegram(window);

// The hook for the web cabinet's sign-in: a function returning "Bearer …" or null.
let webCredential = () => null;
export function setWebCredential(fn) { webCredential = fn; }
const credential = () => (tg.initData ? 'tma ' + tg.initData : webCredential());

const base = apiBase();
const ctx = {
  tg,
  demo: false,
  api: createApi({ base: base.replace(/\/cabinet$/, '/admin'), credential }),
  cabinet: createApi({ base, credential }),
  t: null,
  fmt: null,
};

function setLanguage(t) {
  ctx.t = t;
  document.documentElement.lang = t.lang;
  ctx.fmt = formatters(t);
}

const errorText = (err) => sharedErrorText(err, ctx.t);
ctx.errorText = errorText;

// The shell: tabs, the screen, toasts and whole-page states (as app/shell.js does).
const screenEl = document.getElementById('screen');
const tabbar = document.getElementById('tabbar');
const toasts = document.getElementById('toasts');
let cleanup = null;
let current = null;
let seqNo = 0;
let denied = false;

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

function renderTabs(active) {
  tabbar.hidden = false;
  tabbar.setAttribute('aria-label', ctx.t('admin.nav.label'));
  mount(tabbar, h('ul', { class: 'tabs' }, TABS.map((tab) => h('li', {},
    h('a', { class: 'tab', href: '#/' + tab.id, 'aria-current': tab.id === active ? 'page' : false },
      icon(tab.icon), h('span', { class: 'tab-label' }, ctx.t('admin.nav.' + tab.id)))))));
}

function stopScreen() {
  if (cleanup) { try { cleanup(); } catch (e) { console.error(e); } cleanup = null; }
}

async function show(name) {
  if (denied) return;
  const seq = ++seqNo;
  stopScreen();
  screenEl.setAttribute('aria-busy', 'true');
  let mod;
  try {
    mod = (await SCREENS[name]()).default;
  } catch (e) {
    console.error(e);
    if (seq === seqNo) showOffline(() => show(name));
    return;
  }
  if (seq !== seqNo || denied) return;
  current = name;
  document.documentElement.dataset.screen = 'admin-' + name;
  renderTabs(mod.tab || name);
  const view = h('section', { class: 'view view-admin view-' + name, 'aria-labelledby': 'view-title' });
  mount(screenEl, h('div', { class: 'view-head' }, h('h1', { class: 'view-title', id: 'view-title' }, ctx.t(mod.title))), view);
  try {
    const c = await mod.render(view, ctx);
    if (seq === seqNo) cleanup = typeof c === 'function' ? c : null;
    else if (typeof c === 'function') c();
  } catch (e) {
    if (seq === seqNo) ctx.fail(e, { inline: view });
  } finally {
    if (seq === seqNo) screenEl.setAttribute('aria-busy', 'false');
  }
}

function showState({ kind, title, text, action }) {
  stopScreen();
  seqNo++;
  current = null;
  tabbar.hidden = true;
  document.documentElement.dataset.screen = 'state-' + kind;
  mount(screenEl, h('section', { class: 'state state-' + kind, role: 'alert' },
    h('div', { class: 'state-mark', 'aria-hidden': 'true' }),
    h('h1', { class: 'view-title' }, title),
    h('p', { class: 'state-text' }, text),
    action ? h('button', { class: 'btn btn-primary', type: 'button', onclick: action.onClick }, action.label) : null));
  screenEl.setAttribute('aria-busy', 'false');
}

function showOffline(retry) {
  showState({ kind: 'offline', title: ctx.t('state.offline.title'), text: ctx.t('state.offline.text'),
    action: { label: ctx.t('action.retry'), onClick: retry } });
}

// Not an admin (403), or no usable credential (401, none at all): no admin data stays on
// the page, and no further admin request is made.
function showDenied(kind) {
  denied = true;
  showState({ kind: 'denied', title: ctx.t('admin.denied.title'),
    text: ctx.t(kind === 'expired' ? 'admin.denied.expired' : kind === 'none' ? 'admin.denied.none' : 'admin.denied.text') });
}

ctx.toast = (text, kind = 'error') => {
  const el = h('div', { class: 'toast toast-' + kind }, text);
  toasts.append(el);
  setTimeout(() => el.remove(), kind === 'error' ? 6000 : 3500);
};
ctx.fail = (err, { inline = null, toast = true } = {}) => {
  if (!(err instanceof ApiError)) console.error(err);
  if (err instanceof ApiError && err.status === 401) return showDenied('expired');
  if (err instanceof ApiError && err.status === 403) return showDenied('forbidden');
  tg.haptic('error');
  if (toast) ctx.toast(errorText(err));
  if (inline) {
    inline.replaceChildren(h('div', { class: 'empty empty-error' },
      h('p', {}, errorText(err)),
      h('button', { class: 'btn', type: 'button', onclick: () => show(current || 'maintenance') }, ctx.t('action.retry'))));
  }
};
ctx.success = (text) => { tg.haptic('success'); if (text) ctx.toast(text, 'success'); };
ctx.go = (name) => { if ('#/' + name === location.hash) show(name); else location.hash = '#/' + name; };
Object.defineProperty(ctx, 'current', { get: () => current });

function routeFromHash() {
  const m = location.hash.match(/^#\/([a-z]+)/);
  return m && SCREENS[m[1]] ? m[1] : 'maintenance';
}

async function boot() {
  applyTelegramParams(tg.themeParams);
  watchViewport(tg);
  const lang = pickLanguage(params.get('lang') || (tg.initUser && tg.initUser.language_code) || navigator.language);
  setLanguage(await translator(lang));
  const hasCredential = Boolean(credential());
  // The shop's look (template, accent): /config needs the same credential as the app.
  const config = hasCredential ? await ctx.cabinet.get('/config').catch(() => null) : null;
  const template = params.get('template') || (config && config.template);
  await applyTemplate(template);
  applyAccent(config && config.accent_color);
  watchScheme(() => config && config.accent_color, tg.themeParams, tg);
  const title = ctx.t('admin.title') + (config && config.title ? ' · ' + config.title : '');
  document.getElementById('title').textContent = title;
  document.title = title;
  tg.ready();
  if (!hasCredential) return showDenied('none');
  window.addEventListener('hashchange', () => show(routeFromHash()));
  await show(routeFromHash());
}

boot().catch((e) => {
  console.error(e);
  showOffline(() => location.reload());
});
