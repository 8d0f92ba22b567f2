// The owner's customisation (`me.app.ui`, SPEC-GAPS "app.ui"): button texts and colours,
// the order and visibility of the home sections, and the owner's own blocks and extra
// buttons per screen. The server validated it; the page still treats every field as text
// and re-checks links and colours (dom.js safeUrl/safeColor).

import { h, safeColor, safeUrl } from '../shared/dom.js';

const ui = (ctx) => (ctx.me && ctx.me.app && typeof ctx.me.app.ui === 'object' && ctx.me.app.ui) || {};

// The owner's text for one of renew/share/open_app/get_link/connect_proxy/trial, else ours.
export function buttonLabel(ctx, key, fallbackKey) {
  const b = ui(ctx).buttons && ui(ctx).buttons[key];
  const text = b && typeof b.text === 'string' ? b.text.trim().slice(0, 32) : '';
  return text || ctx.t(fallbackKey);
}

// Applies the owner's colour to a button (CSSOM, allowed by the CSP).
export function colorButton(ctx, key, el) {
  const b = ui(ctx).buttons && ui(ctx).buttons[key];
  const c = b && safeColor(b.color);
  if (c) el.style.setProperty('--btn-bg', c);
  return el;
}

const SECTIONS = ['status', 'plans', 'referral', 'proxy', 'custom'];
export function homeSections(ctx) {
  const u = ui(ctx);
  const order = Array.isArray(u.sections) ? u.sections.filter((s) => SECTIONS.includes(s)) : [];
  for (const s of SECTIONS) if (!order.includes(s)) order.push(s);
  const hidden = new Set(Array.isArray(u.hidden) ? u.hidden : []);
  hidden.delete('status');   // the subscription state is never hidden
  return order.filter((s) => !hidden.has(s));
}

function open(ctx, url) {
  if (url.startsWith('https://t.me/') || url.startsWith('tg://')) ctx.tg.openTelegramLink(url.replace(/^tg:\/\/resolve\?domain=/, 'https://t.me/'));
  else ctx.tg.openLink(url);
}

// The owner's blocks and extra buttons for a screen (home, connect, account).
export function ownerBlocks(ctx, screen) {
  const u = ui(ctx);
  const blocks = (Array.isArray(u.blocks) ? u.blocks : [])
    .filter((b) => b && (b.screen || 'home') === screen)
    .map((b) => {
      const url = safeUrl(b.url);
      const el = h('article', { class: 'card owner-block' },
        b.icon ? h('span', { class: 'owner-icon', 'aria-hidden': 'true' }, String(b.icon).slice(0, 8)) : null,
        b.title ? h('h2', { class: 'card-title' }, String(b.title).slice(0, 64)) : null,
        b.text ? h('p', { class: 'owner-text' }, String(b.text).slice(0, 1000)) : null,
        url && b.button_label ? h('button', { class: 'btn', type: 'button', onclick: () => open(ctx, url) }, String(b.button_label).slice(0, 32)) : null);
      const c = safeColor(b.color);
      if (c) el.style.setProperty('--block-accent', c);
      return el;
    });
  const extras = (Array.isArray(u.buttons_extra) ? u.buttons_extra : [])
    .filter((b) => b && (b.screen || 'home') === screen && b.label && safeUrl(b.url))
    .map((b) => {
      const el = h('button', { class: b.style === 'ghost' ? 'btn btn-ghost' : 'btn btn-primary', type: 'button', onclick: () => open(ctx, safeUrl(b.url)) },
        String(b.label).slice(0, 32));
      const c = safeColor(b.color);
      if (c) el.style.setProperty('--btn-bg', c);
      return el;
    });
  if (!blocks.length && !extras.length) return null;
  return h('div', { class: 'owner-area' }, blocks, extras.length ? h('div', { class: 'btn-row' }, extras) : null);
}
