// The admin screens (/admin/): the shop's maintenance switch, backups, host actions and the
// audit log, for ADMIN_IDS only. Same modules as the mini-app (shared/*: API client,
// Telegram bridge, i18n, formats, themes) and the same screen contract as app/shell.js:
//   screens/NAME.js exports default { title, tab, render(view, ctx) → cleanup? }
// The credential: Telegram init data ("tma …"); outside Telegram, the web cabinet's session
// (shared/session.js: restored from this browser, "Bearer …", rotated before it ends and
// once on a 401) through setWebCredential(). An admin signed in on the web is an account
// whose Telegram id is in ADMIN_IDS. Without a credential, or when the server answers
// 401/403, the page says "not allowed" and shows no admin data. No demo mode here.

import { ApiError, apiBase, createApi } from '../shared/api.js';
import { h } from '../shared/dom.js';
import { errorText as sharedErrorText } from '../shared/errors.js';
import { formatters } from '../shared/format.js';
import { loadTable, makeT, pickLanguage } from '../shared/i18n.js';
import { createSession } from '../shared/session.js';
import { createTelegram } from '../shared/telegram.js';
import { applyTelegramParams, paintShop, watchScheme } from '../shared/theme.js';
import { watchViewport } from '../shared/viewport.js';
import { createShell } from '../app/shell.js';

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
};

function setLanguage(t) {
  ctx.t = t;
  document.documentElement.lang = t.lang;
  ctx.fmt = formatters(t);
}

const errorText = (err) => sharedErrorText(err, ctx.t);
ctx.errorText = errorText;

// The mini-app's shell (tabs, screens, toasts, whole-page states) with the admin's routes;
// once the page says "not allowed" it shows no screen any more.
let denied = false;
const shell = createShell(ctx, {
  screens: SCREENS, tabs: TABS, home: 'maintenance', navKey: 'admin.nav', viewClass: 'view-admin', halted: () => denied,
});
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

ctx.toast = shell.toast;
ctx.fail = (err, { inline = null, toast = true } = {}) => {
  if (!(err instanceof ApiError)) console.error(err);
  if (err instanceof ApiError && err.status === 401) return showDenied('expired');
  if (err instanceof ApiError && err.status === 403) return showDenied('forbidden');
  tg.haptic('error');
  if (toast) ctx.toast(errorText(err));
  if (inline) {
    inline.replaceChildren(h('div', { class: 'empty empty-error' },
      h('p', {}, errorText(err)),
      h('button', { class: 'btn', type: 'button', onclick: () => shell.show(shell.current || 'maintenance') }, ctx.t('action.retry'))));
  }
};
ctx.success = (text) => { tg.haptic('success'); if (text) ctx.toast(text, 'success'); };
ctx.go = shell.go;
Object.defineProperty(ctx, 'current', { get: () => shell.current });

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
  setLanguage(await adminTranslator(lang));
  if (session) {
    // Signed in to the web cabinet in this browser? (null: the API could not be reached)
    const signedIn = await session.restore();
    if (signedIn === null) return showOffline(() => location.reload());
    if (signedIn) setWebCredential(session.credential);
    // Signed out in another tab: no admin data stays on this one.
    session.onChange((now) => { if (!now) showDenied('expired'); });
  }
  const hasCredential = Boolean(credential());
  // The shop's look (template, accent): /config needs the same credential as the app.
  const config = hasCredential ? await ctx.cabinet.get('/config').catch(() => null) : null;
  await paintShop(config, {
    forcedTemplate: params.get('template'),
    title: ctx.t('admin.title') + (config && config.title ? ' · ' + config.title : ''),
  });
  watchScheme(() => config && config.accent_color, tg.themeParams, tg);
  tg.ready();
  if (!hasCredential) return showDenied('none');
  await shell.start();
}

boot().catch((e) => {
  console.error(e);
  showOffline(() => location.reload());
});
