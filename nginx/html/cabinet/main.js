// The web cabinet at /cabinet/: the mini-app's shell and screens (app/shell.js,
// app/screens/*) in a plain browser, signed in with a web session (shared/session.js)
// instead of Telegram's init data. Signed out, the page is the sign-in screen
// (screens/signin.js); /cabinet/verify?token= (the verification mail's link) and
// /cabinet/oauth/callback (the providers' redirect) finish a sign-in (screens/finish.js);
// /cabinet/reset?token= (the "forgot password" mail's link) sets a new password (screens/reset.js).
// Online payments leave for the gateway's page in this tab and come back to
// /cabinet/?payment=<id> (screens/payment.js waits for the outcome; cabinet/pending.js).
// ?mock=1 is the demo: app/demo.js answers every call in the page, nothing reaches /api.

import { ApiError, apiBase, createApi } from '../shared/api.js';
import { h, mount, safeUrl } from '../shared/dom.js';
import { errorText as sharedErrorText } from '../shared/errors.js';
import { formatters } from '../shared/format.js';
import { pickLanguage, translator } from '../shared/i18n.js';
import { createSession } from '../shared/session.js';
import { createTelegram } from '../shared/telegram.js';
import { applyTelegramParams, paintShop, watchScheme } from '../shared/theme.js';
import { APP_ROUTES, createShell } from '../app/shell.js';
import { paymentParam, readPending, savePending } from './pending.js';

const params = new URLSearchParams(location.search);
const tg = createTelegram(window);   // outside Telegram: inTelegram false, links open in the browser
const session = createSession({ base: apiBase() });
const screenEl = document.getElementById('screen');

const demoMode = params.get('mock') === '1';
const ctx = { tg, demo: demoMode, me: null, config: null, t: null, fmt: null, session, web: true };

// The mini-app's routes plus the page a gateway sends the buyer back to.
const ROUTES = { ...APP_ROUTES, screens: { ...APP_ROUTES.screens, payment: () => import('./screens/payment.js') } };

// Set while a Telegram link waits for the bot: confirming it merges this web account into
// the Telegram one and ends this session (docs/decisions.md), so the sign-in page that
// follows explains instead of looking like an accident.
const TG_LINK_KEY = 'cabinet.telegram-link';

const errorText = (err) => sharedErrorText(err, ctx.t);
ctx.errorText = errorText;

function setLanguage(t, currency) {
  ctx.t = t;
  document.documentElement.lang = t.lang;
  ctx.fmt = formatters(t, currency);
}

// The API with the Bearer credential; a 401 rotates the tokens once and asks again.
let raw = createApi({ credential: session.credential });
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
  if (ctx.demo) return h('a', { class: 'btn btn-small btn-logout', href: '/cabinet/' }, ctx.t('cabinet.demo.signin'));
  return h('button', {
    class: 'btn btn-small btn-logout', type: 'button',
    onclick: async (e) => { e.currentTarget.disabled = true; sessionStorage.removeItem(TG_LINK_KEY); await session.logout(); },
  }, ctx.t('cabinet.logout'));
}

// An online payment of the checkout (app/purchase.js): remembered for the way back, then
// the gateway's page in this tab (same tab: no pop-up to be blocked, and the gateway's
// return URL brings the buyer here), or, for Stars, the waiting page with the invoice link.
ctx.onlinePayment = async ({ transaction_id: id, redirect_url: redirect, invoice_link: invoice, before }) => {
  const stars = Boolean(invoice);
  const url = safeUrl(stars ? invoice : redirect);
  const leave = !stars && !ctx.demo && Boolean(url);
  savePending({ id: Number(id), kind: stars ? 'stars' : 'gateway', url, before: before || null, away: leave });
  // The waiting page first (what Back from the gateway shows), then the gateway's page;
  // Stars and the demo's gateway (no real payment page) stay on the waiting page.
  await ROUTES.screens.payment();   // loaded before leaving: no module load cut short
  ctx.go('payment');
  if (leave) location.assign(url);
};

// Is the signed-in account one of the shop's admins? The admin API says (ADMIN_IDS are
// Telegram ids, so an account without Telegram is asked nothing); once a sign-in.
let adminCheck = null;
ctx.isAdmin = () => {
  if (ctx.demo) return Promise.resolve(false);
  if (!adminCheck) {
    adminCheck = (async () => {
      const linked = await ctx.api.get('/linked');
      if (!linked || !linked.telegram) return false;
      const admin = createApi({ base: apiBase().replace(/\/cabinet$/, '/admin'), credential: session.credential });
      await withRefresh(() => admin.get('/maintenance'));
      return true;
    })().catch(() => false);
  }
  return adminCheck;
};

// Signed in: the mini-app's cabinet.
let started = false;
let signedOutCleanup = null;   // the sign-in screen's (stops polling for a Telegram sign-in)
async function startCabinet() {
  if (signedOutCleanup) { signedOutCleanup(); signedOutCleanup = null; }
  screenEl.setAttribute('aria-busy', 'true');
  sessionStorage.removeItem(TG_LINK_KEY);
  adminCheck = null;   // asked again for whoever signed in now
  // Back from a gateway: /cabinet/?payment=<id> (or whatever it appended, when this tab
  // left for it) opens the payment's page, and the query leaves the address bar.
  const back = paymentParam();
  const pending = readPending();
  let hash = location.hash;
  if (back) {
    savePending(pending && pending.id === back ? { ...pending, away: false } : { id: back, kind: 'gateway', url: null, before: null, away: false });
    hash = '#/payment';
  } else if (pending && pending.away) {
    savePending({ ...pending, away: false });
    hash = '#/payment';
  }
  let keep = '';
  if (ctx.demo) {   // ?mock=1 (and the demo's other switches) stay
    const q = new URLSearchParams(location.search);
    q.delete('payment');
    keep = '?' + q.toString();
  }
  if (!['/cabinet/', '/cabinet/index.html'].includes(location.pathname) || back || hash !== location.hash) {
    history.replaceState(null, '', '/cabinet/' + keep + hash);
  }
  let me;
  try {
    me = await ctx.api.get('/me');
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) { await session.logout(); return; }
    return ctx.fail(e, { inline: screenEl });
  }
  await adoptMe(me);
  mount(document.getElementById('topbar-extra'), logoutButton());
  if (ctx.demo) ctx.shell.setNotice('demo', h('div', { class: 'notice notice-demo', role: 'note' }, ctx.t('notice.demo')));
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
  else if (path === '/cabinet/reset') mod = await import('./screens/reset.js');
  else if (path === '/cabinet/buy') mod = await import('./screens/buy.js');
  else mod = await import('./screens/signin.js');
  screenEl.setAttribute('aria-busy', 'true');
  try {
    const merged = Number(sessionStorage.getItem(TG_LINK_KEY)) > Date.now();
    sessionStorage.removeItem(TG_LINK_KEY);
    const c = await mod.default.render(screenEl, ctx, { merged });
    signedOutCleanup = typeof c === 'function' ? c : null;
  } finally {
    screenEl.setAttribute('aria-busy', 'false');
  }
}

async function boot() {
  applyTelegramParams(tg.themeParams);   // outside Telegram: the browser's light or dark
  const guess = pickLanguage(params.get('lang') || navigator.language);
  if (demoMode) {
    const demo = (await import('../app/demo.js')).createDemo({ lang: guess, web: true });
    raw = createApi({ transport: demo.transport });
  }
  const tablePromise = translator(guess);
  const configPromise = raw.get('/config').catch(() => null);
  setLanguage(await tablePromise, 'RUB');
  ctx.shell = createShell(ctx, ROUTES);
  ctx.toast = ctx.shell.toast;
  ctx.go = ctx.shell.go;
  const config = await configPromise;
  ctx.config = config;
  await paintShop(config, { forcedTemplate: params.get('template') });
  watchScheme(() => (ctx.me ? ctx.me.app.accent_color : config && config.accent_color), tg.themeParams, tg);

  if (demoMode) return startCabinet();

  // The verify and OAuth pages finish a sign-in even when another session is open here;
  // an OAuth link (started signed in, screens/linked.js) is finished with that session.
  const finishing = /^\/cabinet\/(verify|reset|oauth\/callback)\/?$/.test(location.pathname);
  const linking = finishing && location.pathname.startsWith('/cabinet/oauth/') && sessionStorage.getItem('cabinet.oauth.link') === '1';
  const signedIn = (!finishing || linking) && await session.restore();
  if (signedIn === null) return ctx.shell.showOffline(() => location.reload());
  // Signed in, out, or as someone else: another tab's sign-in (one session per browser)
  // reaches this one as new tokens. A tab that kept showing the first account would
  // act as the second (its balance, its purchases) under the first one's screens.
  session.onChange((now) => {
    if (now && !ctx.me) startCabinet();
    else if (now && session.user && session.user.id !== ctx.me.user.id) {
      const name = session.user.email || ctx.t('cabinet.verify.switch.unnamed');
      startCabinet().then(() => ctx.toast(ctx.t('cabinet.session.switched', { name }), 'info'));
    } else if (!now) { history.replaceState(null, '', '/cabinet/'); showSignedOut(); }
  });
  return signedIn && !finishing ? startCabinet() : showSignedOut();
}

// Back from the gateway's page with the browser's Back button: the page may come from the
// back-forward cache, with the plans screen still on it.
window.addEventListener('pageshow', (e) => {
  const p = readPending();
  if (e.persisted && p && p.away && ctx.me && ctx.shell) { savePending({ ...p, away: false }); ctx.go('payment'); }
});

boot().catch((e) => {
  console.error(e);
  if (ctx.shell) ctx.shell.showOffline(() => location.reload());
});
