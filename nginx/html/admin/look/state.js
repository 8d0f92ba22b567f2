// The Look section's data, with no DOM: the owner's look read from GET /api/admin/app-config,
// checked as the server checks it (SPEC-GAPS "app.ui", domain/landing.cpp), and turned back
// into the PUT /api/admin/app-config/{name} values that changed. The same cleaned `ui` goes
// to the preview frames, so what the preview shows is what Save would store.

import { safeColor, safeUrl } from '../../shared/dom.js';
import { TEMPLATES } from '../../shared/theme.js';

export { TEMPLATES };
export const SECTIONS = ['status', 'plans', 'referral', 'proxy', 'custom'];
export const BUTTONS = ['renew', 'share', 'open_app', 'get_link', 'connect_proxy', 'trial'];
export const SCREENS = ['home', 'connect', 'account'];
export const STYLES = ['primary', 'ghost'];
export const LIMITS = {
  title: 64, greeting: 500, buttonText: 32, blockTitle: 64, blockText: 1000, icon: 8, label: 32, url: 512,
  headline: 120, subheadline: 300, featureTitle: 60, featureText: 200, q: 160, a: 600,
  blocks: 16, extras: 16, features: 8, faq: 8, scaleMin: 85, scaleMax: 115,
};

const str = (v) => (typeof v === 'string' ? v : '');
const len = (s) => [...s].length;   // characters, as the server counts them (UTF-8 code points)
const cut = (s, n) => [...str(s)].slice(0, n).join('');
const parse = (text, fallback) => { try { return JSON.parse(text); } catch { return fallback; } };
const arr = (v) => (Array.isArray(v) ? v.filter((x) => x && typeof x === 'object') : []);
// A link as the server keeps it (domain/app_ui.cpp): dom.js's schemes and length, and no
// spaces or control characters.
export const isLink = (u) => Boolean(safeUrl(u)) && !/[\u0000-\u0020\u007f]/.test(u);
let seq = 0;
export const newId = (prefix) => prefix + Date.now().toString(36) + (seq++).toString(36);

// GET /app-config's {items: [{name, value}]} → the editable look (plain objects, all text).
export function lookFromConfig(items) {
  const v = Object.fromEntries((items || []).map((i) => [i.name, i.value]));
  const ui = parse(v.ui || '{}', {}) || {};
  const order = (Array.isArray(ui.sections) ? ui.sections : []).filter((s) => SECTIONS.includes(s));
  for (const s of SECTIONS) if (!order.includes(s)) order.push(s);
  const buttons = {};
  for (const k of BUTTONS) {
    const b = (ui.buttons && typeof ui.buttons === 'object' && ui.buttons[k]) || {};
    buttons[k] = { text: str(b.text), color: str(b.color) };
  }
  const scale = Number(ui.scale);
  return {
    template: TEMPLATES.includes(v.template) ? v.template : 'a',
    title: str(v.title),
    greeting: str(v.greeting),
    accent_color: str(v.accent_color),
    ui: {
      scale: Number.isInteger(scale) && scale >= LIMITS.scaleMin && scale <= LIMITS.scaleMax ? scale : 100,
      show_support: ui.show_support !== false,   // the account menu's support entry (no field yet: kept as stored)
      sections: order,
      hidden: (Array.isArray(ui.hidden) ? ui.hidden : []).filter((s) => SECTIONS.includes(s) && s !== 'status'),
      buttons,
      blocks: arr(ui.blocks).map((b) => ({
        id: str(b.id) || newId('b'), screen: SCREENS.includes(b.screen) ? b.screen : 'home', title: str(b.title),
        text: str(b.text), icon: str(b.icon), url: str(b.url), button_label: str(b.button_label), color: str(b.color),
      })),
      buttons_extra: arr(ui.buttons_extra).map((b) => ({
        id: str(b.id) || newId('x'), screen: SCREENS.includes(b.screen) ? b.screen : 'home', label: str(b.label),
        url: str(b.url), color: str(b.color), style: STYLES.includes(b.style) ? b.style : 'primary',
      })),
    },
    landing: {
      enabled: v['landing.enabled'] !== 'false',
      headline: str(v['landing.headline']),
      subheadline: str(v['landing.subheadline']),
      cta_target: v['landing.cta_target'] === 'bot' ? 'bot' : 'web',
      features: arr(parse(v['landing.features'] || '[]', [])).map((f) => ({ title: str(f.title), text: str(f.text), icon: str(f.icon) })),
      faq: arr(parse(v['landing.faq'] || '[]', [])).map((f) => ({ q: str(f.q), a: str(f.a) })),
    },
    hasUi: 'ui' in v,   // false while the server has no `ui` item (an older back end)
  };
}

export const clone = (look) => structuredClone(look);

// The `ui` object as the server stores it (SPEC-GAPS "app.ui"): empty button overrides left
// out, colours and links only when valid, limits applied.
export function uiForSave(look) {
  const u = look.ui;
  const buttons = {};
  for (const k of BUTTONS) {
    const b = u.buttons[k];
    const text = cut(b.text.trim(), LIMITS.buttonText);
    const color = safeColor(b.color.trim());
    if (text || color) buttons[k] = { text, color: color || null };
  }
  const blocks = u.blocks.slice(0, LIMITS.blocks).map((b) => ({
    id: b.id, screen: b.screen, title: cut(b.title.trim(), LIMITS.blockTitle), text: cut(b.text.trim(), LIMITS.blockText),
    icon: cut(b.icon.trim(), LIMITS.icon), url: isLink(b.url.trim()) ? b.url.trim() : '', button_label: cut(b.button_label.trim(), LIMITS.label),
    color: safeColor(b.color.trim()) || null,
  })).filter((b) => b.title || b.text || b.button_label);
  const extras = u.buttons_extra.slice(0, LIMITS.extras).map((b) => ({
    id: b.id, screen: b.screen, label: cut(b.label.trim(), LIMITS.label), url: isLink(b.url.trim()) ? b.url.trim() : '',
    color: safeColor(b.color.trim()) || null, style: b.style,
  })).filter((b) => b.label && b.url);
  return { scale: u.scale, show_support: u.show_support !== false, sections: [...u.sections], hidden: [...u.hidden], buttons, blocks,
    buttons_extra: extras };
}

// What the mini-app needs to paint the look (the preview frames' message).
export function appLook(look) {
  return {
    template: look.template, title: look.title.trim(), greeting: look.greeting,
    accent_color: safeColor(look.accent_color.trim()), ui: uiForSave(look),
  };
}

function landingValues(l) {
  const features = l.features.map((f) => {
    const item = { title: f.title.trim(), text: f.text.trim() };
    if (f.icon.trim()) item.icon = f.icon.trim();
    return item;
  });
  return {
    'landing.enabled': l.enabled ? 'true' : 'false',
    'landing.headline': l.headline.trim(),
    'landing.subheadline': l.subheadline.trim(),
    'landing.cta_target': l.cta_target,
    'landing.features': JSON.stringify(features),
    'landing.faq': JSON.stringify(l.faq.map((f) => ({ q: f.q.trim(), a: f.a.trim() }))),
  };
}

// Every app-config value the look stands for, in the order Save sends them.
export function configValues(look) {
  const out = {
    template: look.template, title: look.title.trim(), greeting: look.greeting, accent_color: look.accent_color.trim(),
  };
  if (look.hasUi) out.ui = JSON.stringify(uiForSave(look));
  return { ...out, ...landingValues(look.landing) };
}

// [[name, value]] for the values that differ from the saved look.
export function changes(saved, look) {
  const before = configValues(saved);
  // An empty accent means "the template's own colours", which only a never-set accent gives.
  return Object.entries(configValues(look)).filter(([k, v]) => before[k] !== v && !(k === 'accent_color' && !v));
}

// The owner's mistakes, each named by its field's path (the form's ids follow it):
// [{path, key, params}], key being an i18n key "look.err.*". Nothing is sent while any is left.
export function problems(look, saved = null) {
  const out = [];
  const add = (path, key, params = {}) => out.push({ path, key, params });
  const text = (path, v, max, required = false) => {
    const t = v.trim();
    if (required && !t) add(path, 'look.err.required');
    else if (len(t) > max) add(path, 'look.err.long', { n: max });
  };
  const color = (path, v) => { if (v.trim() && !safeColor(v.trim())) add(path, 'look.err.color'); };
  const link = (path, v, required) => {
    const t = v.trim();
    if (!t) { if (required) add(path, 'look.err.urlRequired'); } else if (!isLink(t)) add(path, 'look.err.url');
  };
  text('title', look.title, LIMITS.title, true);
  text('greeting', look.greeting, LIMITS.greeting);
  // The server stores #RRGGBB and cannot forget an accent once set (no empty value).
  const accent = look.accent_color.trim();
  if (accent && !/^#[0-9a-f]{6}$/i.test(accent)) add('accent_color', 'look.err.accent');
  else if (!accent && saved && saved.accent_color.trim()) add('accent_color', 'look.err.accentKeep');
  const u = look.ui;
  if (!Number.isInteger(u.scale) || u.scale < LIMITS.scaleMin || u.scale > LIMITS.scaleMax) add('ui.scale', 'look.err.scale');
  for (const k of BUTTONS) {
    text(`ui.buttons.${k}.text`, u.buttons[k].text, LIMITS.buttonText);
    color(`ui.buttons.${k}.color`, u.buttons[k].color);
  }
  if (u.blocks.length > LIMITS.blocks) add('ui.blocks', 'look.err.tooMany', { n: LIMITS.blocks });
  u.blocks.forEach((b, i) => {
    const p = `ui.blocks.${i}`;
    if (!b.title.trim() && !b.text.trim() && !b.button_label.trim()) add(p + '.title', 'look.err.blockEmpty');
    text(p + '.title', b.title, LIMITS.blockTitle);
    text(p + '.text', b.text, LIMITS.blockText);
    text(p + '.icon', b.icon, LIMITS.icon);
    text(p + '.button_label', b.button_label, LIMITS.label);
    link(p + '.url', b.url, Boolean(b.button_label.trim()));
    color(p + '.color', b.color);
  });
  if (u.buttons_extra.length > LIMITS.extras) add('ui.buttons_extra', 'look.err.tooMany', { n: LIMITS.extras });
  u.buttons_extra.forEach((b, i) => {
    const p = `ui.buttons_extra.${i}`;
    text(p + '.label', b.label, LIMITS.label, true);
    link(p + '.url', b.url, true);
    color(p + '.color', b.color);
  });
  const l = look.landing;
  text('landing.headline', l.headline, LIMITS.headline, true);
  text('landing.subheadline', l.subheadline, LIMITS.subheadline);
  if (l.features.length > LIMITS.features) add('landing.features', 'look.err.tooMany', { n: LIMITS.features });
  l.features.forEach((f, i) => {
    text(`landing.features.${i}.title`, f.title, LIMITS.featureTitle, true);
    text(`landing.features.${i}.text`, f.text, LIMITS.featureText, true);
    text(`landing.features.${i}.icon`, f.icon, LIMITS.icon);
  });
  if (l.faq.length > LIMITS.faq) add('landing.faq', 'look.err.tooMany', { n: LIMITS.faq });
  l.faq.forEach((f, i) => {
    text(`landing.faq.${i}.q`, f.q, LIMITS.q, true);
    text(`landing.faq.${i}.a`, f.a, LIMITS.a, true);
  });
  return out;
}

// A server's 422 detail starts with the field's name ("landing.features[1].title must be…"):
// the form path it names, or null.
export function pathOfDetail(detail) {
  const m = /^([a-z_]+(?:\.[a-z_]+|\[\d+\])*)/i.exec(String(detail || ''));
  return m ? m[1].replace(/\[(\d+)\]/g, '.$1') : null;
}

// A field's id in the form (paths have dots; ids keep them readable and unique).
export const fieldId = (path) => 'look-' + path.replace(/[^a-z0-9_]+/gi, '-');
