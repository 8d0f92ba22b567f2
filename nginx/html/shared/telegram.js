// A small bridge to the Telegram Mini App host, over Telegram's documented protocol, so
// that no script is loaded from Telegram's servers (FRONTEND.md). Outside Telegram every
// call is a harmless no-op and `inTelegram` is false.
//
// Out: postEvent(type, data) through window.TelegramWebviewProxy (mobile), window.external
// .notify (desktop) or parent.postMessage (Telegram Web, where we are in an iframe).
// In: window.Telegram.WebView.receiveEvent(type, data), or a message from the parent frame.
// Launch parameters come in the URL fragment (#tgWebAppData=…&tgWebAppPlatform=…); they are
// kept in sessionStorage because the router then uses the fragment for its own routes.

const STORE = 'cabinet.tg.launch';
// The init data this tab's user agreed to use outside Telegram ("continue as @name?").
const CONSENT = 'cabinet.tg.consent';

function readLaunchParams(win) {
  const fromHash = new URLSearchParams(win.location.hash.replace(/^#/, ''));
  if (fromHash.has('tgWebAppData') || fromHash.has('tgWebAppPlatform')) {
    const p = {};
    for (const k of ['tgWebAppData', 'tgWebAppPlatform', 'tgWebAppVersion', 'tgWebAppThemeParams', 'tgWebAppStartParam']) {
      if (fromHash.has(k)) p[k] = fromHash.get(k);
    }
    try { win.sessionStorage.setItem(STORE, JSON.stringify(p)); } catch { /* private mode */ }
    return p;
  }
  try { return JSON.parse(win.sessionStorage.getItem(STORE) || 'null') || {}; } catch { return {}; }
}

function parseJson(s) {
  try { return JSON.parse(s); } catch { return null; }
}

function parseUrl(url) {
  try { return new URL(url); } catch { return null; }
}

// A frame of a page of our own origin (the owner's live previews in /admin/) is never
// inside Telegram, which frames the app from its own origin only: it must not take the
// admin's launch parameters from the shared sessionStorage nor post to the host (a preview
// would repaint the admin's header and show its own Main Button).
function framedBySelf(win) {
  if (win.parent === win) return false;
  try { return win.parent.location.origin === win.location.origin; } catch { return false; }
}

export function createTelegram(win = window) {
  const preview = framedBySelf(win);
  const launch = preview ? {} : readLaunchParams(win);
  const official = !preview && win.Telegram && win.Telegram.WebApp;   // a shop may load Telegram's own script
  const inIframe = win.parent !== win && !preview;
  const host = preview ? null : win.TelegramWebviewProxy ? 'proxy'
    : (win.external && 'notify' in win.external) ? 'external'
      : inIframe ? 'iframe' : null;
  // Init data that came in the address (the fragment, or this tab's copy of it) is anyone's
  // to write: a link someone else made would sign this browser into their account. Inside
  // a Telegram client (its bridge is there; nginx lets only Telegram's web client frame us)
  // it is Telegram's and used as it is; in a plain browser the page asks first, and the
  // answer holds for this tab (app/consent.js).
  const fromAddress = (official && official.initData) ? '' : (launch.tgWebAppData || '');
  const consented = (() => { try { return win.sessionStorage.getItem(CONSENT) === fromAddress; } catch { return false; } })();
  const unconfirmed = Boolean(fromAddress) && !host && !consented;
  const initData = unconfirmed ? '' : ((official && official.initData) || launch.tgWebAppData || '');
  const inTelegram = Boolean(initData) || Boolean(launch.tgWebAppPlatform && host);
  const listeners = new Map();

  function postEvent(type, data = {}) {
    if (!inTelegram) return false;
    try {
      if (win.TelegramWebviewProxy) win.TelegramWebviewProxy.postEvent(type, JSON.stringify(data));
      else if (win.external && 'notify' in win.external) win.external.notify(JSON.stringify({ eventType: type, eventData: data }));
      else if (inIframe) win.parent.postMessage(JSON.stringify({ eventType: type, eventData: data }), 'https://web.telegram.org');
      else return false;
      return true;
    } catch {
      return false;
    }
  }

  function receive(type, data) {
    for (const fn of listeners.get(type) || []) {
      try { fn(data || {}); } catch (e) { console.error(e); }
    }
  }
  win.Telegram = win.Telegram || {};
  win.Telegram.WebView = win.Telegram.WebView || {};
  const previous = win.Telegram.WebView.receiveEvent;
  win.Telegram.WebView.receiveEvent = (type, data) => {
    receive(type, data);
    if (typeof previous === 'function') previous(type, data);
  };
  if (inIframe) {
    win.addEventListener('message', (e) => {
      if (e.source !== win.parent) return;
      const m = typeof e.data === 'string' ? parseJson(e.data) : null;
      if (m && m.eventType) receive(m.eventType, m.eventData);
    });
  }

  function on(type, fn) {
    if (!listeners.has(type)) listeners.set(type, new Set());
    listeners.get(type).add(fn);
    return () => listeners.get(type).delete(fn);
  }

  const themeParams = parseJson(launch.tgWebAppThemeParams || '') || (official && official.themeParams) || {};

  // The user Telegram says opened us (unverified: only for the language before /me answers,
  // and for the question below).
  const userOf = (data) => {
    const u = new URLSearchParams(data).get('user');
    return (u && parseJson(u)) || null;
  };
  const initUser = userOf(initData || fromAddress);

  // Outside Telegram, init data from the address waits for the user's yes: `accept` keeps
  // it for this tab and reloads signed in; `decline` forgets it and reloads without it.
  const pendingLaunch = unconfirmed ? {
    user: userOf(fromAddress) || {},
    accept() {
      try { win.sessionStorage.setItem(CONSENT, fromAddress); } catch { /* private mode: asked again */ }
      win.location.reload();
    },
    decline() {
      try { win.sessionStorage.removeItem(STORE); win.sessionStorage.removeItem(CONSENT); } catch { /* ignore */ }
      win.location.replace(win.location.pathname + win.location.search);
    },
  } : null;

  // Main button: one handler at a time, set by the current screen.
  let mainHandler = null;
  on('main_button_pressed', () => mainHandler && mainHandler());
  let backHandler = null;
  on('back_button_pressed', () => backHandler && backHandler());

  const pendingInvoices = new Map();
  on('invoice_closed', (d) => {
    const done = pendingInvoices.get(d.slug);
    if (done) { pendingInvoices.delete(d.slug); done(d.status || 'failed'); }
  });

  return {
    inTelegram,
    initData,
    initUser,
    pendingLaunch,
    platform: launch.tgWebAppPlatform || (official && official.platform) || 'unknown',
    version: launch.tgWebAppVersion || '',
    startParam: launch.tgWebAppStartParam || new URLSearchParams(initData).get('start_param') || '',
    themeParams,
    on,
    postEvent,
    ready() {
      postEvent('web_app_ready');
      postEvent('web_app_expand');
      postEvent('web_app_request_theme');
      postEvent('web_app_request_viewport');
      postEvent('web_app_request_safe_area');
      postEvent('web_app_request_content_safe_area');
      if (inIframe) postEvent('iframe_ready', { reload_supported: true });
    },
    setColors(header, background) {
      if (header) postEvent('web_app_set_header_color', { color: header });
      if (background) postEvent('web_app_set_background_color', { color: background });
    },
    mainButton: {
      show({ text, onClick, color, textColor, active = true, progress = false }) {
        mainHandler = onClick;
        postEvent('web_app_setup_main_button', {
          is_visible: true, is_active: active, is_progress_visible: progress, text,
          ...(color ? { color } : {}), ...(textColor ? { text_color: textColor } : {}),
        });
      },
      hide() {
        mainHandler = null;
        postEvent('web_app_setup_main_button', { is_visible: false });
      },
    },
    backButton: {
      show(onClick) { backHandler = onClick; postEvent('web_app_setup_back_button', { is_visible: true }); },
      hide() { backHandler = null; postEvent('web_app_setup_back_button', { is_visible: false }); },
    },
    haptic(kind) {   // 'success' | 'error' | 'warning' | 'light'
      if (kind === 'light') postEvent('web_app_trigger_haptic_feedback', { type: 'impact', impact_style: 'light' });
      else postEvent('web_app_trigger_haptic_feedback', { type: 'notification', notification_type: kind });
    },
    // Resolves with Telegram's status: 'paid' | 'cancelled' | 'failed' | 'pending'.
    // An invoice on a web page rather than Telegram's (the local stack's Stars sandbox,
    // tests/fakes/sandbox.mjs) opens as a link and is 'pending' until the server says paid.
    openInvoice(url) {
      let u;
      try { u = new URL(url); } catch { return Promise.reject(new Error('invoice link is invalid')); }
      if ((u.protocol === 'https:' || u.protocol === 'http:') && u.hostname !== 't.me') {
        if (!postEvent('web_app_open_link', { url: u.href })) win.open(u.href, '_blank', 'noopener');
        return Promise.resolve('pending');
      }
      const m = u.protocol === 'https:' && u.hostname === 't.me' && u.pathname.match(/^\/(\$|invoice\/)([A-Za-z0-9\-_=]+)$/);
      if (!m) return Promise.reject(new Error('invoice link is invalid'));
      const slug = m[2];
      return new Promise((resolve) => {
        pendingInvoices.set(slug, resolve);
        if (!postEvent('web_app_open_invoice', { slug })) {
          pendingInvoices.delete(slug);
          win.open(url, '_blank', 'noopener');
          resolve('pending');
        }
      });
    },
    // As Telegram's own SDK checks them: openLink takes http(s) pages only, openTelegramLink
    // t.me links only. A link from an answer (a gateway's redirect_url, an owner's button)
    // with another scheme, javascript: above all, is refused (false), never opened.
    openLink(url) {
      const u = parseUrl(url);
      if (!u || (u.protocol !== 'https:' && u.protocol !== 'http:')) return false;
      if (!postEvent('web_app_open_link', { url: u.href })) win.open(u.href, '_blank', 'noopener');
      return true;
    },
    openTelegramLink(url) {
      const u = parseUrl(url);
      if (!u || u.protocol !== 'https:' || u.hostname !== 't.me') return false;
      if (!postEvent('web_app_open_tg_link', { path_full: u.pathname + u.search })) win.open(u.href, '_blank', 'noopener');
      return true;
    },
  };
}
