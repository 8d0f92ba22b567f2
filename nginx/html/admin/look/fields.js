// The Look form's fields: each one bound to a path of the edited look ("ui.blocks.2.url"),
// with its label, an optional hint and an error line next to it (aria-describedby, and
// aria-invalid while wrong). Typing changes the look at once and calls `changed()`; nothing
// is sent anywhere from here.

import { h } from '../../shared/dom.js';
import { fieldId } from './state.js';

function walk(obj, path) {
  const keys = path.split('.');
  const last = keys.pop();
  for (const k of keys) obj = obj[k];
  return [obj, last];
}
export function getPath(obj, path) { const [o, k] = walk(obj, path); return o[k]; }
export function setPath(obj, path, value) { const [o, k] = walk(obj, path); o[k] = value; }

export function createForm(ctx, getLook, changed) {
  const registry = new Map();   // path → {input, error}
  const t = ctx.t;

  function describe(id, hint) {
    const hintEl = hint ? h('p', { class: 'muted field-hint', id: id + '-hint' }, hint) : null;
    const error = h('p', { class: 'field-error', id: id + '-err' });
    return { hintEl, error, describedby: [hint ? id + '-hint' : null, id + '-err'].filter(Boolean).join(' ') };
  }
  function bind(path, input, error, read = (el) => el.value) {
    registry.set(path, { input, error });
    input.addEventListener('input', () => {
      setPath(getLook(), path, read(input));
      if (input.getAttribute('aria-invalid') === 'true') { input.removeAttribute('aria-invalid'); error.textContent = ''; }
      changed(path);
    });
  }

  // A one-line or multi-line text field. `max` sets maxlength (the server's limit).
  function text(path, label, { max, rows = 0, hint = null, placeholder = null, required = false, inputmode = null } = {}) {
    const id = fieldId(path);
    const d = describe(id, hint);
    const attrs = {
      id, class: rows ? 'textarea' : 'input', maxlength: max, 'aria-describedby': d.describedby, placeholder,
      required, inputmode, autocomplete: 'off', spellcheck: rows ? 'true' : 'false',
    };
    const input = rows ? h('textarea', { ...attrs, rows }) : h('input', { ...attrs, type: 'text' });
    input.value = getPath(getLook(), path) ?? '';
    bind(path, input, d.error);
    return h('div', { class: 'field' }, h('label', { for: id }, label), input, d.hintEl, d.error);
  }

  // A colour: the browser's picker and the HEX text (the text is what is stored; empty is
  // allowed where `allowEmpty`, meaning "the template's colour").
  function color(path, label, { hint = null, allowEmpty = true } = {}) {
    const id = fieldId(path);
    const d = describe(id, hint);
    const value = getPath(getLook(), path) || '';
    const hex = h('input', {
      id, class: 'input look-hex', type: 'text', maxlength: 7, placeholder: allowEmpty ? t('look.color.none') : '#2481cc',
      'aria-describedby': d.describedby, autocomplete: 'off', spellcheck: 'false',
    });
    hex.value = value;
    const picker = h('input', { class: 'look-picker', type: 'color', 'aria-label': t('look.color.picker', { field: label }) });
    // The picker follows the HEX text; with no colour it is shown faded (it cannot be empty).
    const sync = () => {
      const v = hex.value.trim();
      if (/^#[0-9a-f]{6}$/i.test(v)) picker.value = v.toLowerCase();
      else if (/^#[0-9a-f]{3}$/i.test(v)) picker.value = ('#' + [...v.slice(1)].map((c) => c + c).join('')).toLowerCase();
      picker.classList.toggle('look-picker-empty', !v);
    };
    sync();
    bind(path, hex, d.error);
    hex.addEventListener('input', sync);
    picker.addEventListener('input', () => { hex.value = picker.value; hex.dispatchEvent(new Event('input')); });
    return h('div', { class: 'field look-color' }, h('label', { for: id }, label),
      h('div', { class: 'look-color-row' }, picker, hex), d.hintEl, d.error);
  }

  // A <select> of [value, label] pairs.
  function select(path, label, options) {
    const id = fieldId(path);
    const d = describe(id, null);
    const input = h('select', { id, class: 'input', 'aria-describedby': d.describedby },
      options.map(([v, l]) => h('option', { value: v }, l)));
    input.value = getPath(getLook(), path);
    bind(path, input, d.error);
    return h('div', { class: 'field' }, h('label', { for: id }, label), input, d.error);
  }

  // A checkbox (true/false at the path).
  function check(path, label, { hint = null, disabled = false } = {}) {
    const id = fieldId(path);
    const d = describe(id, hint);
    const input = h('input', { id, type: 'checkbox', class: 'look-check', 'aria-describedby': d.describedby, disabled });
    input.checked = Boolean(getPath(getLook(), path));
    bind(path, input, d.error, (el) => el.checked);
    return h('div', { class: 'look-check-row' }, input, h('label', { for: id }, label), d.hintEl, d.error);
  }

  // Shows the problems next to their fields (clearing the others); returns the first
  // field that has one, or null. A path without a field of its own (a whole list) shows on
  // the nearest field whose path starts with it.
  function showErrors(list) {
    for (const [path, f] of registry) {
      if (!f.input.isConnected) { registry.delete(path); continue; }
      f.error.textContent = '';
      f.input.removeAttribute('aria-invalid');
    }
    let first = null;
    for (const p of list) {
      const f = registry.get(p.path) || [...registry.entries()].find(([k]) => k.startsWith(p.path + '.'))?.[1];
      if (!f) continue;
      if (!f.error.textContent) f.error.textContent = p.text || t(p.key, p.params);
      f.input.setAttribute('aria-invalid', 'true');
      if (!first) first = f.input;
    }
    return first;
  }

  return { text, color, select, check, showErrors, has: (path) => registry.has(path) };
}
