// The mini-app boots: Telegram bridge → language table and /config in parallel (the shell
// is painted before the credential check) → /me → the first screen. A returning customer's
// home is drawn at once from the copy kept at the last opening (app/home-copy.js), and /me
// brings it up to date in place. In demo mode (?mock=1,
// or outside Telegram with no init data; SPEC rule 3) the API is answered by demo.js, which
// is loaded only then, and no request reaches /api at all. Init data in the address of a
// plain browser tab is used only after "continue as @name?" (app/consent.js).

import { ApiError, apiBase, createApi } from '../shared/api.js';
import { h } from '../shared/dom.js';
import { errorText as sharedErrorText } from '../shared/errors.js';
import { formatters } from '../shared/format.js';
import { firstTranslator, pickLanguage } from '../shared/i18n.js';
import { createTelegram } from '../shared/telegram.js';
import { applyTelegramParams, paintShop, screensCss, watchScheme } from '../shared/theme.js';
import { watchViewport } from '../shared/viewport.js';
import { forgetHome, keepHome, keptHome } from './home-copy.js';
import { createShell } from './shell.js';

const params = new URLSearchParams(location.search);
const tg = createTelegram(window);
// Init data from the address of a plain browser tab waits for the user's yes (app/consent.js).
const pending = params.get('mock') === '1' ? null : tg.pendingLaunch;
const demoMode = !pending && (params.get('mock') === '1' || !tg.initData);

const ctx = {
  tg,
  demo: demoMode,
  me: null,
  config: null,
  t: null,
  fmt: null,
};

const errorText = (err) => sharedErrorText(err, ctx.t);

// Every failure in one place: 401 and 403 take the whole page, the rest is a toast in the
// user's language (plus, for a screen that could not load, a retry in its place).
ctx.fail = (err, { inline = null, toast = true } = {}) => {
  if (!(err instanceof ApiError)) console.error(err);
  if (err instanceof ApiError && (err.status === 401 || err.status === 403)) forgetHome();
  if (err instanceof ApiError && err.status === 401) return showUnauthorized();
  if (err instanceof ApiError && err.status === 403) return showBlocked();
  tg.haptic('error');
  if (toast) ctx.toast(errorText(err));
  if (inline) {
    inline.replaceChildren(h('div', { class: 'empty empty-error' },
      h('p', {}, errorText(err)),
      h('button', { class: 'btn', type: 'button', onclick: () => ctx.shell.show(ctx.shell.current || 'home') }, ctx.t('action.retry'))));
  }
};
ctx.errorText = errorText;
ctx.success = (text) => { tg.haptic('success'); if (text) ctx.toast(text, 'success'); };

function showUnauthorized() {
  ctx.shell.showState({ kind: 'unauthorized', title: ctx.t('state.unauthorized.title'), text: ctx.t('state.unauthorized.text') });
}
function showBlocked() {
  ctx.shell.showState({ kind: 'blocked', title: ctx.t('state.blocked.title'), text: ctx.t('state.blocked.text') });
}

function setLanguage(t, currency) {
  ctx.t = t;
  document.documentElement.lang = t.lang;
  ctx.fmt = formatters(t, currency);
}

function showMaintenance(config) {
  const m = config && config.maintenance;
  ctx.shell.setNotice('maintenance', m && m.active
    ? h('div', { class: 'notice notice-maintenance', role: 'note' },
      h('strong', {}, ctx.t('notice.maintenance.title')), ' ',
      h('span', {}, m.message || ctx.t('notice.maintenance.text')))
    : null);
}

// The page's inline script asks for /config and /me before config.js has run, at the API
// base of the last opening (this origin's when none is kept): config.js's base, kept.
function rememberApiBase() {
  try {
    if (apiBase() === '/api/cabinet') localStorage.removeItem('cabinet.apiBase');
    else localStorage.setItem('cabinet.apiBase', apiBase());
  } catch { /* storage off: the early requests go to this origin */ }
}

// The copy of home kept on the device is this Telegram user's at this API base.
const telegramId = () => tg.initUser && tg.initUser.id;

async function boot() {
  applyTelegramParams(tg.themeParams);
  watchViewport(tg);
  const kept = demoMode || pending ? null : keptHome(telegramId(), apiBase());
  const guess = pickLanguage(params.get('lang') || (kept && kept.user.language) || (tg.initUser && tg.initUser.language_code) || navigator.language);
  const demo = demoMode ? (await import('./demo.js')).createDemo({ lang: guess }) : null;
  ctx.api = createApi({
    credential: () => (tg.initData ? 'tma ' + tg.initData : null),
    transport: demo ? demo.transport : null,
  });
  if (!demo) rememberApiBase();
  const tablePromise = firstTranslator(guess);
  const configPromise = ctx.api.get('/config').catch(() => null);
  const mePromise = pending ? null : ctx.api.get('/me').catch((e) => e);

  setLanguage(await tablePromise, kept ? kept.user.currency : 'RUB');
  ctx.shell = createShell(ctx);
  ctx.toast = ctx.shell.toast;
  ctx.go = ctx.shell.go;

  // Home from the kept copy, before /config and /me have answered. Until /me has, any
  // other screen waits for it (ctx.fresh: true once ctx.me is /me's, false when /me failed
  // and the page says why), and so does what a tap on home would do (screens/home.js).
  let freshened = null;
  if (kept) {
    ctx.me = kept;
    ctx.fresh = new Promise((resolve) => { freshened = resolve; });
    await paintShop(kept.app, { forcedTemplate: params.get('template') });
    watchScheme(() => ctx.me.app.accent_color, tg.themeParams, tg);
    tg.ready();
    await ctx.shell.start();
  }

  const config = await configPromise;
  ctx.config = config;
  if (!kept) {
    await paintShop(config, { forcedTemplate: params.get('template') });
    watchScheme(() => (ctx.me ? ctx.me.app.accent_color : config && config.accent_color), tg.themeParams, tg);
    tg.ready();
  }
  showMaintenance(config);
  if (pending) return (await import('./consent.js')).askToContinue(ctx, pending);

  const me = await mePromise;
  if (me instanceof Error) {
    if (freshened) freshened(false);
    if (me instanceof ApiError && me.offline) return ctx.shell.showOffline(() => location.reload());
    ctx.fail(me);
    // The kept home is not left standing as if it were up to date.
    if (kept && !(me instanceof ApiError && (me.status === 401 || me.status === 403))) ctx.shell.showOffline(() => location.reload());
    return;
  }
  const language = ctx.t.lang;
  await adoptMe(me);
  if (freshened) {
    // Another language redraws the whole screen (its title, the tabs); else home brings
    // itself up to date in place when ctx.fresh resolves.
    if (ctx.t.lang !== language && ctx.shell.current) ctx.shell.show(ctx.shell.current);
    freshened(true);
  } else {
    if (demo) ctx.shell.setNotice('demo', h('div', { class: 'notice notice-demo', role: 'note' }, ctx.t('notice.demo')));
    await ctx.shell.start();
  }
  // The rest of the strings and styles, now that home is shown (the shell waits for them
  // before another screen).
  ctx.t.whole().catch(() => {});
  screensCss();
  // The owner's Look section frames the demo and sends it the unsaved look (app/preview.js).
  if (demo && window.parent !== window) (await import('./preview.js')).listenForLook(ctx);
}

// /me decides the language, currency and the owner's look (the template may have changed
// since /config was cached); called again after every purchase or activation. What home
// shows of it is kept for the next opening (app/home-copy.js).
async function adoptMe(me) {
  ctx.me = me;
  if (!ctx.demo) keepHome(telegramId(), apiBase(), me);
  const lang = pickLanguage(me.user.language);
  if (lang !== ctx.t.lang) {
    const t = await firstTranslator(lang);
    if (ctx.shell.current) await t.whole();   // a screen is shown: it may need any string
    setLanguage(t, me.user.currency);
  } else {
    setLanguage(ctx.t, me.user.currency);
  }
  await paintShop(me.app, { forcedTemplate: params.get('template') });
}

ctx.reloadMe = async () => {
  const me = await ctx.api.get('/me');
  await adoptMe(me);
  return me;
};

boot().catch((e) => {
  console.error(e);
  if (ctx.shell) ctx.shell.showOffline(() => location.reload());
});
