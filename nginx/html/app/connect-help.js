// Helpers of the connect screen (screens/connect.js): which platform the customer is on,
// the store link for it, the /dl page that opens a client's import link, and copying text.

export const PLATFORMS = ['ios', 'android', 'macos', 'windows', 'linux'];

// Telegram says ios/android/android_x/macos/tdesktop/weba/webk/web/unknown; for desktop and
// web the operating system comes from the browser.
export function detectPlatform(tgPlatform, nav = navigator) {
  const p = String(tgPlatform || '').toLowerCase();
  if (p === 'ios') return 'ios';
  if (p.startsWith('android')) return 'android';
  if (p === 'macos') return 'macos';
  const ua = nav.userAgent || '';
  if (/iPhone|iPad|iPod/.test(ua)) return 'ios';
  if (/Android/.test(ua)) return 'android';
  if (/Macintosh|Mac OS X/.test(ua)) return nav.maxTouchPoints > 1 ? 'ios' : 'macos';
  if (/Windows/.test(ua)) return 'windows';
  if (/Linux|X11|CrOS/.test(ua)) return 'linux';
  return null;
}

export function storeLink(app, platform) {
  const stores = (app && app.stores) || {};
  const url = stores[platform] || stores.default;
  return typeof url === 'string' && /^https:\/\//.test(url) ? url : null;
}

// /dl lives beside the API (SPEC-GAPS "GET /dl"), on the API's origin when the page sets one.
export function dlUrl(deepLink, win = window) {
  const base = typeof win.__CABINET_API_BASE__ === 'string' && /^https?:\/\//.test(win.__CABINET_API_BASE__)
    ? win.__CABINET_API_BASE__ : win.location.origin;
  return new URL('/dl?to=' + encodeURIComponent(deepLink), base).href;
}

// navigator.clipboard where allowed, else the old select-and-copy on the given input.
export async function copyText(text, input) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch { /* fall back below */ }
  if (!input) return false;
  input.focus();
  input.select();
  try { return document.execCommand('copy'); } catch { return false; }
}
