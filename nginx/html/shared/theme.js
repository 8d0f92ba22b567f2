// Paints a page: the template's stylesheet (themes/<a..h>.css beside base.css), the colour
// scheme, Telegram's themeParams as CSS variables, the owner's accent colour (made readable:
// text on it and text in it keep a 4.5:1 contrast) and `ui.scale`.

import { safeColor } from './dom.js';

export const TEMPLATES = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];

function rgb(hex) {
  let h = hex.replace('#', '');
  if (h.length === 3) h = [...h].map((c) => c + c).join('');
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16));
}
function toHex([r, g, b]) {
  return '#' + [r, g, b].map((v) => Math.round(Math.min(255, Math.max(0, v))).toString(16).padStart(2, '0')).join('');
}
function luminance([r, g, b]) {
  const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
}
export function contrast(a, b) {
  const [x, y] = [luminance(rgb(a)), luminance(rgb(b))].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}
// The colour moved towards black (or white) until it reads at 4.5:1 on every one of `bgs`
// (all light or all dark: the page's background and its surfaces).
export function readableOn(color, ...bgs) {
  const towards = luminance(rgb(bgs[0])) > 0.4 ? 0 : 255;
  let c = rgb(color);
  const enough = () => bgs.every((bg) => contrast(toHex(c), bg) >= 4.5);
  for (let i = 0; i < 24 && !enough(); i++) c = c.map((v) => v + (towards - v) * 0.15);
  return toHex(c);
}
// A colour variable of the painted page as the browser resolves it (rgb()).
function resolve(variable) {
  const probe = document.createElement('span');
  probe.style.color = `var(${variable})`;
  document.body.append(probe);
  const c = getComputedStyle(probe).color;
  probe.remove();
  return c;
}
function cssColorToHex(css) {
  const m = css.match(/rgba?\((\d+),\s*(\d+),\s*(\d+)/);
  return m ? toHex([+m[1], +m[2], +m[3]]) : null;
}

// Telegram's bg_color decides the scheme inside Telegram; elsewhere the system's.
export function colorScheme(themeParams) {
  const bg = safeColor(themeParams && themeParams.bg_color);
  if (bg) return luminance(rgb(bg)) < 0.3 ? 'dark' : 'light';
  return window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export function applyTelegramParams(themeParams = {}) {
  const root = document.documentElement;
  for (const [k, v] of Object.entries(themeParams)) {
    if (safeColor(v)) root.style.setProperty('--tg-' + k.replace(/_/g, '-'), v);
  }
  root.dataset.scheme = colorScheme(themeParams);
  root.dataset.telegram = Object.keys(themeParams).length ? 'themed' : 'plain';
}

// Loads themes/<template>.css (once), then resolves: the accent is fitted to the painted
// background, which only the loaded theme knows.
export function applyTemplate(template) {
  const t = TEMPLATES.includes(template) ? template : 'a';
  const root = document.documentElement;
  root.dataset.template = t;
  const href = new URL(`../themes/${t}.css`, import.meta.url).href;
  let link = document.getElementById('theme-css');
  if (link && link.href === href) return Promise.resolve(t);
  const next = stylesheet(href);
  next.id = 'theme-css';
  const done = loaded(next).then(() => t);
  if (link) link.replaceWith(next); else document.head.append(next);
  return done;
}

function stylesheet(href) {
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = href;
  return link;
}
// Resolves once the stylesheet has loaded, or failed (the page then shows it unstyled
// rather than wait for ever).
function loaded(link) {
  return new Promise((resolve) => {
    link.addEventListener('load', () => resolve());
    link.addEventListener('error', () => resolve());
  });
}

// The other screens' stylesheet (themes/screens.css), which the mini-app's page leaves
// off its first screen: added once, right after base.css (so the template, after it,
// still restyles it); resolves when it has loaded (or failed: a screen then shows plain).
// A page that links it already (the web cabinet, the admin) resolves at once.
let screens = null;
export function screensCss() {
  if (screens) return screens;
  const href = new URL('../themes/screens.css', import.meta.url).href;
  let link = [...document.querySelectorAll('link[rel="stylesheet"]')].find((l) => l.href === href);
  if (link && link.sheet) return (screens = Promise.resolve());
  if (!link) {
    link = stylesheet(href);
    const base = [...document.querySelectorAll('link[rel="stylesheet"]')].find((l) => l.href.endsWith('/themes/base.css'));
    if (base) base.after(link); else document.head.prepend(link);
  }
  screens = loaded(link);
  return screens;
}

// Telegram's own header and the area around the page take the template's background, so
// the app does not sit in a frame of another colour (set once watchScheme has the bridge).
let bridge = null;
function paintTelegram() {
  const bg = cssColorToHex(getComputedStyle(document.body).backgroundColor);
  if (bridge && bg) bridge.setColors(bg, bg);
}

export function applyAccent(accent) {
  const root = document.documentElement;
  const color = safeColor(accent);
  paintTelegram();
  if (!color) {
    for (const v of ['--accent', '--on-accent', '--accent-text']) root.style.removeProperty(v);
    return;
  }
  // Accent text sits on the page and on the template's surfaces (cards, grey fills): it is
  // fitted to each of them, not to the page alone.
  const grounds = [getComputedStyle(document.body).backgroundColor, resolve('--surface'), resolve('--surface-2')]
    .map(cssColorToHex).filter(Boolean);
  if (!grounds.length) grounds.push('#ffffff');
  // White text on the owner's colour where it reads (darkening the fill a little if that
  // is all it takes), else black.
  let fill = color;
  let onFill = '#ffffff';
  if (contrast(fill, onFill) < 4.5) {
    const darker = readableOn(color, '#ffffff');
    if (contrast(darker, color) < 1.35) fill = darker; else onFill = '#000000';
  }
  root.style.setProperty('--accent', fill);
  root.style.setProperty('--on-accent', onFill);
  let text = color;
  for (let i = 0; i < 3; i++) for (const g of grounds) text = readableOn(text, g);
  root.style.setProperty('--accent-text', text);
}

export function applyScale(ui) {
  const scale = Number(ui && ui.scale);
  if (Number.isFinite(scale) && scale >= 85 && scale <= 115) {
    document.documentElement.style.setProperty('--ui-scale', String(scale / 100));
  }
}

// Re-fits the accent whenever the scheme changes (system switch or Telegram's theme_changed).
export function watchScheme(getAccent, themeParams, tg) {
  bridge = tg && typeof tg.setColors === 'function' ? tg : null;
  paintTelegram();
  const refit = (params) => {
    applyTelegramParams(params);
    applyAccent(getAccent());
  };
  if (window.matchMedia) {
    window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => refit(themeParams));
  }
  if (tg) tg.on('theme_changed', (d) => refit(d.theme_params || {}));
}

// The shop's look on a page, from /config or /me's `app`: the title (or the page's own),
// the template (unless ?template= forces one for a preview), the accent and ui.scale.
// Painting again with the same template keeps the loaded stylesheet.
export async function paintShop(look, { forcedTemplate = null, title = null } = {}) {
  const text = title || (look && look.title) || 'Cabinet';
  document.getElementById('title').textContent = text;
  document.title = text;
  await applyTemplate(forcedTemplate || (look && look.template));
  applyAccent(look && look.accent_color);
  if (look && look.ui) applyScale(look.ui);
}
