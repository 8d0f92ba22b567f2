// Asks for /config and /me the moment the page starts, while the app's modules are still
// on their way: main.js's API client (shared/api.js) takes these answers instead of asking
// again, which saves a round trip on every opening (docs/benchmarks.md, "Front end"). A
// classic script named right after config.js (which may set the API base): it runs as soon
// as it is there, not once the page is parsed and every module is ready.
//
// The rules are main.js's: nothing in demo mode (?mock=1, or no init data), so a demo page
// never reaches /api; the init data is found where shared/telegram.js finds it (Telegram's
// own script, the #tgWebAppData= fragment, or the copy it keeps in sessionStorage), and
// in a plain browser used only once the user agreed to it. An
// answer is used only for the same base URL and credential, so a difference here costs a
// request, never a wrong answer. In demo mode it starts loading the demo data (demo.js),
// which main.js imports only then.
(() => {
  const initData = () => {
    const official = window.Telegram && window.Telegram.WebApp && window.Telegram.WebApp.initData;
    if (official) return official;
    const fromHash = new URLSearchParams(location.hash.replace(/^#/, ''));
    if (fromHash.has('tgWebAppData') || fromHash.has('tgWebAppPlatform')) return fromHash.get('tgWebAppData') || '';
    try { return (JSON.parse(sessionStorage.getItem('cabinet.tg.launch') || 'null') || {}).tgWebAppData || ''; } catch { return ''; }
  };

  // As shared/telegram.js decides: init data from the address is used in a plain browser
  // (no Telegram bridge) only once this tab's user said yes to it (app/consent.js).
  const unconfirmed = (data) => {
    if (!data || (window.Telegram && window.Telegram.WebApp && window.Telegram.WebApp.initData)) return false;
    const bridge = window.TelegramWebviewProxy || (window.external && 'notify' in window.external) || window.parent !== window;
    if (bridge) return false;
    try { return sessionStorage.getItem('cabinet.tg.consent') !== data; } catch { return true; }
  };
  const found = initData();
  const init = unconfirmed(found) ? '' : found;

  // The language table the page will need, chosen by the server's rule (SPEC-GAPS: "en"
  // when language_code starts with en, else "ru"; shared/i18n.js pickLanguage) from the
  // init data's user, ?lang= or the browser: only that one table is downloaded.
  const code = (() => {
    const q = new URLSearchParams(location.search).get('lang');
    if (q) return q;
    try { return JSON.parse(new URLSearchParams(init).get('user') || 'null').language_code; } catch { return ''; }
  })() || navigator.language;
  const lang = String(code || '').toLowerCase().startsWith('en') ? 'en' : 'ru';
  const table = document.createElement('link');
  table.rel = 'preload';
  table.as = 'fetch';
  table.crossOrigin = 'anonymous';
  table.href = new URL(`../shared/i18n/${lang}.json`, document.currentScript.src).href;
  document.head.append(table);
  if (init && new URLSearchParams(location.search).get('mock') !== '1') {
    const b = window.__CABINET_API_BASE__;
    const base = (typeof b === 'string' && /^https?:\/\//.test(b) ? b.replace(/\/+$/, '') : '') + '/api/cabinet';
    const credential = 'tma ' + init;
    const get = (path) => fetch(base + path, { headers: { Authorization: credential }, credentials: 'same-origin', cache: 'no-store' })
      .catch(() => null);
    window.__cabinetEarly = { base, credential, answers: { '/config': get('/config'), '/me': get('/me') } };
  } else if (!found) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = new URL('./demo.js', document.currentScript.src).href;
    document.head.append(link);
  }
})();
