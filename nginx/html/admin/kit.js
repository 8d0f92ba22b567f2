// Small pieces the admin screens share: a definition list of facts, an inline confirmation
// (asked in place of the button, focus moved into it) and an audit payload as plain text.

import { h } from '../shared/dom.js';

// [[label, value], …] → <dl>; a null/undefined value is left out.
export function facts(rows, cls = '') {
  return h('dl', { class: ('admin-facts ' + cls).trim() }, rows.filter((r) => r && r[1] !== null && r[1] !== undefined)
    .map(([k, v]) => h('div', { class: 'admin-fact' }, h('dt', {}, k), h('dd', {}, v))));
}

// Replaces `button` by "question [yes] [cancel]"; resolves true on yes, false on cancel
// (the button is then put back and focused).
export function confirmInPlace(ctx, button, question, yesLabel, danger = false) {
  return new Promise((resolve) => {
    const yes = h('button', { class: danger ? 'btn btn-danger' : 'btn btn-primary', type: 'button' }, yesLabel);
    const no = h('button', { class: 'btn btn-ghost', type: 'button' }, ctx.t('action.cancel'));
    const box = h('div', { class: 'admin-confirm', role: 'group', 'aria-label': question },
      h('p', {}, question), h('div', { class: 'btn-row' }, yes, no));
    button.replaceWith(box);
    yes.focus();
    no.addEventListener('click', () => { box.replaceWith(button); button.focus(); resolve(false); });
    yes.addEventListener('click', () => { box.replaceWith(button); button.focus(); resolve(true); });
  });
}

// An audit payload as "key: value" lines (nested values as compact JSON), never markup.
export function payloadText(payload) {
  if (payload === null || payload === undefined) return '';
  if (typeof payload !== 'object') return String(payload);
  return Object.entries(payload).map(([k, v]) =>
    `${k}: ${v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v)}`).join('\n');
}

// The shop's currency (the guests' catalogue says it), asked once a page; 'RUB' when unknown.
export async function shopCurrency(ctx) {
  if (!ctx.currencyKnown) {
    ctx.currencyKnown = ctx.cabinet.get('/public/plans').then((p) => p && p.currency, () => null)
      .then((c) => { if (c) ctx.currency = c; return ctx.currency; });
  }
  return ctx.currencyKnown;
}

// The section's own tabs (?tab=…): links, so Back and a shared URL work.
export function subNav(ctx, label, tabs, current, make) {
  return h('nav', { 'aria-label': label }, h('ul', { class: 'admin-sub' }, tabs.map((id) => h('li', {},
    h('a', { href: make(id), 'aria-current': id === current ? 'page' : false }, ctx.t('admin.sub.' + id))))));
}

// A read-only viewer's forms: every control inside is disabled (the server refuses anyway).
export function guard(ctx, fieldset) {
  if (ctx.readOnly) fieldset.disabled = true;
  return fieldset;
}

// A downloaded file saved under its name (a Blob through an object URL, never one string).
export function saveBlob(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = h('a', { href: url, download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}
