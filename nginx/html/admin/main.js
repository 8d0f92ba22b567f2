// The owner's cabinet (/admin/): a desktop tool first (grouped side navigation, tables,
// forms that say what is wrong next to the field), still usable at 390 px inside Telegram.
// Same modules as the mini-app (shared/*: API client, Telegram bridge, i18n, formats,
// themes). A section is screens/NAME.js exporting default { title, render(view, ctx) →
// cleanup? } (admin/shell.js).
// The credential: Telegram init data ("tma …"); outside Telegram, the web cabinet's session
// (shared/session.js: restored from this browser, "Bearer …", rotated before it ends and
// once on a 401) through setWebCredential(). Who is asking, and so which sections and
// controls the page shows, comes from GET /api/admin/whoami: owner (everything), support
// (customers and support), viewer (every section, read-only); the server refuses the rest
// with 403 anyway. Without a credential, or when the server answers 401/403 to whoami, the
// page says "not allowed" and shows no admin data. No demo mode here.

import { ApiError, apiBase, createApi } from '../shared/api.js';
import { h } from '../shared/dom.js';
import { errorText as sharedErrorText } from '../shared/errors.js';
import { formatters } from '../shared/format.js';
import { loadTable, makeT, pickLanguage } from '../shared/i18n.js';
import { createSession } from '../shared/session.js';
import { createTelegram } from '../shared/telegram.js';
import { applyTelegramParams, paintShop, watchScheme } from '../shared/theme.js';
import { watchViewport } from '../shared/viewport.js';
import { createAdminShell } from './shell.js';

// The sections in the navigation's order, their group and the roles that may open them.
const OWNER_VIEWER = ['owner', 'viewer'];
const ALL = ['owner', 'support', 'viewer'];
const GROUPS = ['shop', 'money', 'setup', 'system'];
const SECTIONS = [
  { id: 'overview', group: 'shop', roles: OWNER_VIEWER, load: () => import('./screens/overview.js') },
  { id: 'customers', group: 'money', roles: ALL, load: () => import('./screens/customers.js') },
  { id: 'payments', group: 'money', roles: OWNER_VIEWER, load: () => import('./screens/payments.js') },
  { id: 'support', group: 'money', roles: ALL, load: () => import('./screens/support.js') },
  { id: 'broadcasts', group: 'money', roles: OWNER_VIEWER, load: () => import('./screens/broadcasts.js') },
  { id: 'plans', group: 'setup', roles: OWNER_VIEWER, load: () => import('./screens/plans.js') },
  { id: 'promo', group: 'setup', roles: OWNER_VIEWER, load: () => import('./screens/promo.js') },
  { id: 'look', group: 'setup', roles: OWNER_VIEWER, load: () => import('./screens/look.js') },
  { id: 'settings', group: 'setup', roles: OWNER_VIEWER, load: () => import('./screens/settings.js') },
  { id: 'maintenance', group: 'system', roles: OWNER_VIEWER, load: () => import('./screens/maintenance.js') },
  { id: 'audit', group: 'system', roles: OWNER_VIEWER, load: () => import('./screens/audit.js') },
];
const ROLES = ['owner', 'support', 'viewer'];

const params = new URLSearchParams(location.search);
const tg = createTelegram(window);

// The hook for the web cabinet's sign-in: a function returning "Bearer …" or null.
let webCredential = () => null;
export function setWebCredential(fn) { webCredential = fn; }
const credential = () => (tg.initData ? 'tma ' + tg.initData : webCredential());

const base = apiBase();
const session = tg.initData ? null : createSession({ base });
// With a web session a 401 rotates the tokens once and asks again (as the web cabinet does).
function withRefresh(api) {
  const again = async (call) => {
    try {
      return await call();
    } catch (e) {
      if (e instanceof ApiError && e.status === 401 && session && session.signedIn && await session.refresh()) return call();
      throw e;
    }
  };
  return {
    get: (path) => again(() => api.get(path)),
    post: (path, body, opts) => again(() => api.post(path, body, opts)),
    put: (path, body, opts) => again(() => api.put(path, body, opts)),
    del: (path) => again(() => api.del(path)),
    newKey: api.newKey,
  };
}
const ctx = {
  tg,
  demo: false,
  api: withRefresh(createApi({ base: base.replace(/\/cabinet$/, '/admin'), credential })),
  cabinet: withRefresh(createApi({ base, credential })),
  t: null,
  fmt: null,
  role: null,
  readOnly: true,
  currency: 'RUB',
};
const adminBase = base.replace(/\/cabinet$/, '/admin');

// A call whose answer is a file: a POST with a body (the promo codes' CSV: its text), or a
// GET without one (the customers' export: a Blob, never held as one string); the file name
// too, or an ApiError like every other call.
ctx.download = async (path, body) => {
  const get = body === undefined;
  const headers = get ? {} : { 'Content-Type': 'application/json' };
  const c = credential();
  if (c) headers.Authorization = c;
  let res;
  try {
    res = await fetch(adminBase + path, get ? { headers, cache: 'no-store' }
      : { method: 'POST', headers, body: JSON.stringify(body), cache: 'no-store' });
  } catch {
    throw new ApiError(0, null);
  }
  if (!res.ok) {
    const text = await res.text();
    let detail = null;
    try { detail = JSON.parse(text).detail; } catch { /* not JSON */ }
    throw new ApiError(res.status, typeof detail === 'string' ? detail : null);
  }
  const m = (res.headers.get('Content-Disposition') || '').match(/filename="?([^";]+)"?/);
  const file = { type: res.headers.get('Content-Type') || 'text/csv', name: m ? m[1] : null };
  try {
    if (get) file.blob = await res.blob(); else file.text = await res.text();
  } catch {
    throw new ApiError(0, null);   // the connection broke while the file came
  }
  return file;
};

function setLanguage(t) {
  ctx.t = t;
  document.documentElement.lang = t.lang;
  ctx.fmt = formatters(t);
}

const errorText = (err) => sharedErrorText(err, ctx.t);
ctx.errorText = errorText;

// The shell (navigation, sections, toasts, whole-page states) is made once the role is
// known; once the page says "not allowed" it shows no section any more.
let denied = false;
let shell = createAdminShell(ctx, { sections: [], groups: GROUPS, halted: () => true });
const showOffline = (retry) => shell.showOffline(retry);

// Not an admin (403), or no usable credential (401, none at all): no admin data stays on
// the page, and no further admin request is made.
function showDenied(kind) {
  denied = true;
  shell.showState({ kind: 'denied', title: ctx.t('admin.denied.title'),
    text: ctx.t(kind === 'expired' ? 'admin.denied.expired' : kind === 'none' ? 'admin.denied.none' : 'admin.denied.text'),
    // In a browser: the way to sign in (or back to the cabinet).
    action: session && kind !== 'forbidden' ? { label: ctx.t('admin.denied.signin'), onClick: () => location.assign('/cabinet/') } : null });
}

ctx.toast = (text, kind) => shell.toast(text, kind);
ctx.fail = (err, { inline = null, toast = true } = {}) => {
  if (!(err instanceof ApiError)) console.error(err);
  if (err instanceof ApiError && err.status === 401) return showDenied('expired');
  // Once the role is known a 403 is one refused action (the role may not do it), not the page.
  if (err instanceof ApiError && err.status === 403 && !ctx.role) return showDenied('forbidden');
  tg.haptic('error');
  if (toast) ctx.toast(errorText(err));
  if (inline) {
    inline.replaceChildren(h('div', { class: 'empty empty-error' },
      h('p', {}, errorText(err)),
      h('button', { class: 'btn', type: 'button', onclick: () => shell.go(shell.current || 'overview') }, ctx.t('action.retry'))));
  }
};
ctx.success = (text) => { tg.haptic('success'); if (text) ctx.toast(text, 'success'); };
ctx.go = (name, p) => shell.go(name, p);
ctx.setBadge = (id, n, label) => shell.setBadge(id, n, label);
ctx.setParams = (changes) => shell.setParams(changes);
Object.defineProperty(ctx, 'current', { get: () => shell.current });
Object.defineProperty(ctx, 'params', { get: () => shell.params });

// The role's face: who is signed in, and for a viewer the note that nothing can be changed.
function showWho(who) {
  const extra = document.getElementById('topbar-extra');
  extra.replaceChildren(h('p', { class: 'admin-who-text' },
    who.first_name ? h('span', { class: 'admin-who-name' }, who.first_name) : null,
    h('span', { class: 'badge admin-role' }, ctx.t('admin.role.' + who.role))));
  if (ctx.readOnly) {
    shell.setNotice('readonly', h('p', { class: 'notice admin-readonly', role: 'note' }, ctx.t('admin.readOnly.note')));
  }
}


// The admin's own strings (admin/i18n/<lang>.json, which customers never download) over the
// shared table; both are fetched at once.
async function adminTranslator(lang) {
  const own = fetch(new URL(`./i18n/${lang}.json`, import.meta.url)).then((r) => {
    if (!r.ok) throw new Error(`admin i18n ${lang}: ${r.status}`);
    return r.json();
  });
  const [table, shared] = await Promise.all([own, loadTable(lang)]);
  return makeT(lang, table, shared);
}

async function boot() {
  applyTelegramParams(tg.themeParams);
  watchViewport(tg);
  const lang = pickLanguage(params.get('lang') || (tg.initUser && tg.initUser.language_code) || navigator.language);
  const strings = adminTranslator(lang);
  if (session) {
    setLanguage(await strings);
    // Signed in to the web cabinet in this browser? (null: the API could not be reached)
    const signedIn = await session.restore();
    if (signedIn === null) return showOffline(() => location.reload());
    if (signedIn) setWebCredential(session.credential);
    // Signed out in another tab: no admin data stays on this one.
    session.onChange((now) => { if (!now) showDenied('expired'); });
  }
  const hasCredential = Boolean(credential());
  // The shop's look (template, accent: /config needs the same credential as the app) and
  // who is asking, at once and while the strings load.
  const asked = hasCredential
    ? Promise.all([ctx.cabinet.get('/config').catch(() => null), ctx.api.get('/whoami').catch((e) => e)])
    : Promise.resolve([null, null]);
  setLanguage(await strings);
  const [config, who] = await asked;
  await paintShop(config, {
    forcedTemplate: params.get('template'),
    title: ctx.t('admin.title') + (config && config.title ? ' · ' + config.title : ''),
  });
  watchScheme(() => config && config.accent_color, tg.themeParams, tg);
  tg.ready();
  if (!hasCredential) return showDenied('none');
  if (who instanceof ApiError && (who.status === 401 || who.status === 403)) return showDenied(who.status === 401 ? 'expired' : 'forbidden');
  if (who instanceof Error) throw who;
  if (!who || !ROLES.includes(who.role)) return showDenied('forbidden');
  ctx.role = who.role;
  ctx.readOnly = who.role === 'viewer';
  ctx.who = who;
  shell = createAdminShell(ctx, {
    sections: SECTIONS.filter((s) => s.roles.includes(who.role)), groups: GROUPS, halted: () => denied,
  });
  showWho(who);
  await shell.start();
  watchSupportCount();
}

// The navigation's count of unread support tickets, fresh every 30 s while the page is seen
// (the support screen refreshes it every 10 s while open).
function watchSupportCount() {
  if (!SECTIONS.some((s) => s.id === 'support' && s.roles.includes(ctx.role))) return;
  const tick = () => {
    if (denied || document.hidden) return;
    ctx.api.get('/support/counts')
      .then((c) => ctx.setBadge('support', c.unread, ctx.t('support.inbox.unreadCount', { n: c.unread })), () => {});
  };
  tick();
  setInterval(tick, 30000);
}

boot().catch((e) => {
  console.error(e);
  showOffline(() => location.reload());
});
