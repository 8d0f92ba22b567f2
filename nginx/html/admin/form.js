// Form pieces for the admin's sections: a field with its label, hint and an inline error
// next to it (aria-invalid, aria-describedby), the server's refusal mapped onto the field
// it names (a 422's detail starts with the field's name: "price_minor must be …"), and
// one way to send a form (button busy, errors cleared, shown where they belong).

import { ApiError } from '../shared/api.js';
import { h } from '../shared/dom.js';

let seq = 0;
const nextId = (p) => `${p}-${++seq}`;

// An error found before sending (a price that is not an amount): shown on `field`.
export class FieldError extends Error {
  constructor(field, text) { super(text); this.field = field; }
}

export const input = (attrs = {}) => h('input', { class: 'input', type: 'text', ...attrs });
export const textarea = (attrs = {}) => h('textarea', { class: 'textarea', rows: 3, ...attrs });
export function select(options, value, attrs = {}) {
  return h('select', { class: 'select', ...attrs },
    options.map(([v, text]) => h('option', { value: v, selected: String(v) === String(value) }, text)));
}

// field(label, control, { hint, names: ['price_minor'], wide }) → { el, input, names, error(text) }
export function field(label, control, { hint = null, names = [], wide = false } = {}) {
  const id = control.id || nextId('f');
  control.id = id;
  const err = h('p', { class: 'field-error', id: id + '-err' });
  const hintEl = hint ? h('p', { class: 'muted field-hint', id: id + '-hint' }, hint) : null;
  control.setAttribute('aria-describedby', (hintEl ? id + '-hint ' : '') + id + '-err');
  const el = h('div', { class: wide ? 'field field-wide' : 'field' }, h('label', { for: id }, label), control, hintEl, err);
  return {
    el, input: control, names,
    error(text) {
      err.textContent = text || '';
      if (text) control.setAttribute('aria-invalid', 'true'); else control.removeAttribute('aria-invalid');
    },
  };
}

// A checkbox with its label around it.
export function checkbox(label, checked, attrs = {}) {
  const box = h('input', { type: 'checkbox', checked: Boolean(checked), ...attrs });
  return { el: h('label', { class: 'check' }, box, h('span', {}, label)), input: box };
}

// The field a refusal names ("price_minor must be …", "STARS_RATE_RUB: expected …"), or null.
export function fieldFor(err, fields) {
  if (!(err instanceof ApiError) || !err.detail || ![400, 409, 422].includes(err.status)) return null;
  const m = err.detail.match(/^([A-Za-z_][\w.]*)/);
  return m ? fields.find((f) => f.names.includes(m[1])) || null : null;
}

// A line under a form for what belongs to no field ("saved", or a refusal of the whole).
export function formStatus() {
  return h('p', { class: 'admin-form-status', role: 'status', 'aria-live': 'polite' });
}

// Runs `fn` with `button` busy. Errors go next to their field (FieldError, or a 4xx naming
// one), else into `status` (or a toast); 401 ends the page as everywhere. → true when done.
export async function send(ctx, { fields = [], button = null, status = null, done = null }, fn) {
  for (const f of fields) f.error('');
  if (status) { status.textContent = ''; delete status.dataset.kind; }
  if (button) button.disabled = true;
  try {
    await fn();
    if (status && done) { status.textContent = done; status.dataset.kind = 'ok'; }
    if (done) ctx.success(done);
    return true;
  } catch (e) {
    if (e instanceof FieldError) {
      e.field.error(e.message);
      e.field.input.focus();
      return false;
    }
    if (e instanceof ApiError && e.status === 401) { ctx.fail(e); return false; }
    const f = fieldFor(e, fields);
    if (f) {
      f.error(ctx.errorText(e));
      f.input.focus();
    } else if (status && e instanceof ApiError && e.status >= 400 && e.status < 500) {
      status.textContent = ctx.errorText(e);
      status.dataset.kind = 'error';
    } else {
      ctx.fail(e);
    }
    return false;
  } finally {
    if (button) button.disabled = false;
  }
}

// Required whole number in [min, max] from an input, or a FieldError on `f`.
export function intOf(ctx, f, { min = 0, max = 1e9, optional = false } = {}) {
  const s = f.input.value.trim();
  if (s === '' && optional) return null;
  if (!/^\d+$/.test(s) || Number(s) < min || Number(s) > max) {
    throw new FieldError(f, ctx.t('admin.form.int', { min, max }));
  }
  return Number(s);
}

// The Idempotency-Key of one form that changes something once (a customer action, a
// refund): one key per submitted form, kept while the same values are sent again after
// the answer was lost (no answer, 500, 504), so the retry does nothing twice; a new key as
// soon as the values change or an answer came.
export function keyKeeper(ctx) {
  let key = null;
  let sig = null;
  return {
    take(body) {
      const s = JSON.stringify(body);
      if (!key || s !== sig) { key = ctx.api.newKey(); sig = s; }
      return key;
    },
    // An answer that may never have arrived (no answer at all, 500, 504) keeps the key.
    settle(err) {
      if (err instanceof ApiError && (err.status === 0 || err.status === 500 || err.status === 504)) return;
      key = null;
      sig = null;
    },
  };
}
