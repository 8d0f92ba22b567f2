// A tiny DOM helper: elements are built from data as text nodes and attributes, never as
// HTML strings, so nothing a user or the owner typed can become markup or script.
//
//   h('button', { class: 'btn', onclick: fn, 'aria-label': 'Close' }, 'text', child, [more])
//
// Attributes: `class`, any `aria-*`/`data-*`/plain attribute (false/null/undefined leave it
// out, true sets it empty), `on<event>` handlers. Children: strings and numbers become text,
// arrays are flattened, null/false are skipped.

export function h(tag, attrs = {}, ...children) {
  const el = tag.includes(':')
    ? document.createElementNS('http://www.w3.org/2000/svg', tag.slice(4))   // 'svg:rect'
    : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === false || v === null || v === undefined) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// Replaces everything inside `el` with `children`.
export function mount(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

// SVG element helper: s('rect', {x: 1}) === h('svg:rect', {x: 1}).
export const s = (tag, attrs, ...children) => h('svg:' + tag, attrs, ...children);

// A link is followed only when its scheme is one we trust (SPEC-GAPS `app.ui`): anything
// else (javascript:, data:, …) yields null and the caller leaves the link out.
const SAFE_LINK = /^(https?:\/\/|tg:\/\/|mailto:)/i;
export function safeUrl(url) {
  return typeof url === 'string' && url.length <= 512 && SAFE_LINK.test(url) ? url : null;
}

// A colour from the owner's settings is used only when it is #RGB or #RRGGBB.
export function safeColor(c) {
  return typeof c === 'string' && /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i.test(c) ? c : null;
}
