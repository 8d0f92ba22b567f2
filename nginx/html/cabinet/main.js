// The web cabinet at /cabinet/: the mini-app's shell and screens (app/shell.js,
// app/screens/*) in a plain browser, signed in with a web session (shared/session.js)
// instead of Telegram's init data. Signed out, the page is the sign-in screen
// (screens/signin.js); /cabinet/verify?token= (the verification mail's link) and
// /cabinet/oauth/callback (the providers' redirect) finish a sign-in (screens/finish.js).

import { ApiError, apiBase, createApi } from '../shared/api.js';
import { h, mount } from '../shared/dom.js';
import { errorText as sharedErrorText } from '../shared/errors.js';
import { formatters } from '../shared/format.js';
import { pickLanguage, translator } from '../shared/i18n.js';
import { createSession } from '../shared/session.js';
import { createTelegram } from '../shared/telegram.js';
import { applyTelegramParams, paintShop, watchScheme } from '../shared/theme.js';
import { createShell } from '../app/shell.js';

const params = new URLSearchParams(location.search);
const tg = createTelegram(window);   // outside Telegram: inTelegram false, links open in the browser
const session = createSession({ base: apiBase() });
const screenEl = document.getElementById('screen');

const ctx = { tg, demo: false, me: null, config: null, t: null, fmt: null, session, web: true };

const errorText = (err) => sharedErrorText(err, ctx.t);
ctx.errorText = errorText;

function setLanguage(t, currency) {
  ctx.t = t;
  document.documentElement.lang = t.lang;
  ctx.fmt = formatters(t, currency);
}

// The API with the Bearer credential; a 401 rotates the tokens once and asks again.
const raw = createApi({ credential: session.credential });
async function withRefresh(call) {
  try {
    return await call();
  } catch (e) {
    if (e instanceof ApiError && e.status === 401 && session.signedIn && await session.refresh()) return call();
    throw e;
  }
}
ctx.api = {
  get: (path) => withRefresh(() => raw.get(path)),
  post: (path, body, opts) => withRefresh(() => raw.post(path, body, opts)),
  del: (path) => withRefresh(() => raw.del(path)),
  newKey: raw.newKey,
};

ctx.fail = (err, { inline = null, toast = true } = {}) => {
  if (!(err instanceof ApiError)) console.error(err);
  if (err instanceof ApiError && err.status === 401) { session.logout(); return null; }
  if (err instanceof ApiError && err.status === 403 && ctx.shell) {
    return ctx.shell.showState({ kind: 'blocked', title: ctx.t('state.blocked.title'), text: ctx.t('cabinet.blocked.text') });
  }
  if (toast && ctx.toast) ctx.toast(errorText(err));
  if (inline) {
    inline.replaceChildren(h('div', { class: 'empty empty-error' },
      h('p', {}, errorText(err)),
      h('button', { class: 'btn', type: 'button', onclick: () => (ctx.shell ? ctx.shell.show(ctx.shell.current || 'home') : location.reload()) }, ctx.t('action.retry'))));
  }
  return null;
};
ctx.success = (text) => { if (text && ctx.toast) ctx.toast(text, 'success'); };

async function adoptMe(me) {
  ctx.me = me;
  // The page's language is the browser's (or ?lang=): a web account's stored language is
  // the server's default, not a choice (register takes no language).
  setLanguage(ctx.t, me.user.currency);
  await paintShop(me.app, { forcedTemplate: params.get('template') });
}
ctx.reloadMe = async () => { const me = await ctx.api.get('/me'); await adoptMe(me); return me; };

function logoutButton() {
  return h('button', {
    class: 'btn btn-small btn-logout', type: 'button',
    onclick: async (e) => { e.currentTarget.disabled = true; await session.logout(); },
  }, ctx.t('cabinet.logout'));
}

// Signed in: the mini-app's cabinet.
let started = false;
let signedOutCleanup = null;   // the sign-in screen's (stops polling for a Telegram sign-in)
async function startCabinet() {
  if (signedOutCleanup) { signedOutCleanup(); signedOutCleanup = null; }
  screenEl.setAttribute('aria-busy', 'true');
  if (!['/cabinet/', '/cabinet/index.html'].includes(location.pathname)) history.replaceState(null, '', '/cabinet/' + location.hash);
  let me;
  try {
    me = await ctx.api.get('/me');
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) { await session.logout(); return; }
    return ctx.fail(e, { inline: screenEl });
  }
  await adoptMe(me);
  mount(document.getElementById('topbar-extra'), logoutButton());
  if (!started) { started = true; await ctx.shell.start(); } else await ctx.shell.show('home');
}

// Signed out: the sign-in screen (or the verify / OAuth callback page).
async function showSignedOut() {
  document.getElementById('tabbar').hidden = true;
  mount(document.getElementById('topbar-extra'));
  ctx.me = null;
  const path = location.pathname.replace(/\/+$/, '');
  let mod;
  if (path === '/cabinet/verify' || path === '/cabinet/oauth/callback') mod = await import('./screens/finish.js');
  else mod = await import('./screens/signin.js');
  screenEl.setAttribute('aria-busy', 'true');
  try {
    const c = await mod.default.render(screenEl, ctx);
    signedOutCleanup = typeof c === 'function' ? c : null;
  } finally {
    screenEl.setAttribute('aria-busy', 'false');
  }
}

async function boot() {
  applyTelegramParams(tg.themeParams);   // outside Telegram: the browser's light or dark
  const guess = pickLanguage(params.get('lang') || navigator.language);
  const tablePromise = translator(guess);
  const configPromise = raw.get('/config').catch(() => null);
  setLanguage(await tablePromise, 'RUB');
  ctx.shell = createShell(ctx);
  ctx.toast = ctx.shell.toast;
  ctx.go = ctx.shell.go;
  const config = await configPromise;
  ctx.config = config;
  await paintShop(config, { forcedTemplate: params.get('template') });
  watchScheme(() => (ctx.me ? ctx.me.app.accent_color : config && config.accent_color), tg.themeParams, tg);

  // The verify and OAuth pages finish a sign-in even when another session is open here.
  const finishing = /^\/cabinet\/(verify|oauth\/callback)\/?$/.test(location.pathname);
  const signedIn = !finishing && await session.restore();
  if (signedIn === null) return ctx.shell.showOffline(() => location.reload());
  session.onChange((now) => {
    if (now && !ctx.me) startCabinet();
    else if (!now) { history.replaceState(null, '', '/cabinet/'); showSignedOut(); }
  });
  return signedIn ? startCabinet() : showSignedOut();
}

boot().catch((e) => {
  console.error(e);
  if (ctx.shell) ctx.shell.showOffline(() => location.reload());
});
