// Settings: every owner-level setting (GET /api/admin/settings) grouped by subject, each
// with its meaning, default, accepted values and where its value comes from; saved one by
// one (PUT /settings/{NAME}, a refusal shown next to the field) or put back to the default
// (DELETE). Secrets are write-only: the field is empty, says whether one is stored, and
// what is typed is sent, never shown back. A search (?q=) narrows the list.

import { h } from '../../shared/dom.js';
import { facts, confirmInPlace } from '../kit.js';
import { field, formStatus, input, select, send } from '../form.js';

const GROUPS = ['shop', 'trial', 'payments', 'referral', 'subscription', 'connection', 'maintenance', 'staff', 'other'];

// The control for a value: a choice when the accepted values are a short list.
function control(ctx, s) {
  if (s.secret) {
    return input({ type: 'password', autocomplete: 'new-password', spellcheck: 'false',
      placeholder: ctx.t(s.is_set ? 'admin.settings.secretSet' : 'admin.settings.secretUnset') });
  }
  // "expected true or false", "must be one of: plans, constructor"
  const valid = String(s.valid || '');
  const list = valid.match(/\bone of: (.+)$/);
  const choices = /\btrue or false$/.test(valid) ? ['true', 'false']
    : list ? list[1].split(',').map((x) => x.trim()).filter(Boolean) : null;
  if (choices && choices.includes(s.value)) return select(choices.map((c) => [c, c]), s.value);
  return input({ value: s.value ?? '', spellcheck: 'false', autocomplete: 'off' });
}

function sourceText(ctx, s) {
  const src = ctx.t.has('admin.settings.source.' + s.source) ? ctx.t('admin.settings.source.' + s.source) : s.source;
  return s.changed_by && s.changed_at ? ctx.t('admin.settings.changed', { source: src, who: s.changed_by, at: ctx.fmt.dateTime(s.changed_at) }) : src;
}

function settingRow(ctx, s, replace) {
  const ctl = control(ctx, s);
  const f = field(s.name, ctl, { names: [s.name, 'value'] });
  const label = f.el.querySelector('label');
  label.className = 'setting-name';
  const save = h('button', { class: 'btn btn-primary btn-small', type: 'submit', 'aria-label': ctx.t('admin.settings.saveNamed', { name: s.name }) }, ctx.t('action.save'));
  const reset = h('button', { class: 'btn btn-ghost btn-small', type: 'button', 'aria-label': ctx.t('admin.settings.resetNamed', { name: s.name }),
    disabled: s.source !== 'database' }, ctx.t('admin.settings.reset'));
  const status = formStatus();
  // The name (the field's label), its meaning and facts beside; the value and buttons.
  const form = h('form', { class: 'setting', 'data-setting': s.name },
    h('div', { class: 'setting-side' }, label,
      s.help ? h('p', { class: 'setting-help' }, s.help) : null,
      facts([
        [ctx.t('admin.settings.default'), s.secret ? null : (s.default === undefined ? null : (s.default === '' ? ctx.t('admin.settings.empty') : s.default))],
        [ctx.t('admin.settings.valid'), s.valid || null],
        [ctx.t('admin.settings.source'), sourceText(ctx, s)],
        [ctx.t('admin.settings.stored'), s.secret ? ctx.t(s.is_set ? 'admin.yes' : 'admin.no') : null],
      ])),
    h('fieldset', { class: 'setting-value', disabled: ctx.readOnly }, f.el, h('div', { class: 'btn-row' }, save, reset), status));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    send(ctx, { fields: [f], button: save, status }, async () => {
      const next = await ctx.api.put('/settings/' + encodeURIComponent(s.name), { value: f.input.value });
      ctx.success(ctx.t('admin.settings.saved', { name: s.name }));
      replace(s, next, form);
    });
  });
  reset.addEventListener('click', async () => {
    if (!await confirmInPlace(ctx, reset, ctx.t('admin.settings.resetAsk', { name: s.name }), ctx.t('admin.settings.resetYes'))) return;
    await send(ctx, { fields: [f], status }, async () => {
      const next = await ctx.api.del('/settings/' + encodeURIComponent(s.name));
      ctx.success(ctx.t('admin.settings.wasReset', { name: s.name }));
      replace(s, next, form);
    });
  });
  return form;
}

export default {
  title: 'admin.settings.title',
  async render(view, ctx) {
    view.append(h('div', { class: 'skeleton skeleton-card' }));
    const items = (await ctx.api.get('/settings')).items || [];
    const groupOf = (s) => (GROUPS.includes(s.group) ? s.group : 'other');
    const count = h('p', { class: 'muted', role: 'status' });
    const list = h('div', { class: 'admin-grid' });
    const replace = (old, next, form) => {
      const i = items.indexOf(old);
      if (i >= 0 && next && next.name) items[i] = { ...old, ...next };
      const fresh = settingRow(ctx, items[i], replace);
      form.replaceWith(fresh);
      fresh.querySelector('.btn-primary').focus();
    };
    const draw = (q) => {
      const needle = q.trim().toLowerCase();
      const shown = items.filter((s) => !needle || s.name.toLowerCase().includes(needle) || String(s.help || '').toLowerCase().includes(needle));
      count.textContent = ctx.t('admin.settings.count', { n: shown.length });
      list.replaceChildren(...GROUPS.map((g) => {
        const mine = shown.filter((s) => groupOf(s) === g);
        if (!mine.length) return null;
        return h('section', { class: 'card', 'aria-labelledby': 'set-' + g },
          h('h2', { class: 'card-title', id: 'set-' + g }, ctx.t('admin.settings.group.' + g)),
          mine.map((s) => settingRow(ctx, s, replace)));
      }).filter(Boolean));
    };
    const qF = field(ctx.t('admin.settings.search'), input({ type: 'search', value: ctx.params.get('q') || '', autocomplete: 'off' }));
    let timer = null;
    qF.input.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(() => { ctx.setParams({ q: qF.input.value.trim() }); draw(qF.input.value); }, 150);
    });
    view.replaceChildren(h('div', { class: 'admin-toolbar', role: 'search' }, qF.el), count, list);
    draw(qF.input.value);
    return () => clearTimeout(timer);
  },
};
