// The promo codes' two forms: a new code (POST /api/admin/promo-codes) and a batch of
// one-use gift codes (POST /promo-codes/batch → CSV, saved as a file by the browser).

import { h } from '../../shared/dom.js';
import { FieldError, field, formStatus, input, intOf, select, send } from '../form.js';
import { guard } from '../kit.js';
import { currencyDigits, parseMoney } from '../money.js';

// The value typed for a reward type: money in currency units, else a whole number.
export function valueOf(ctx, type, f) {
  if (type === 'balance') {
    const digits = currencyDigits(ctx.currency);
    const minor = parseMoney(f.input.value, digits);
    if (minor === null || minor === 0) throw new FieldError(f, ctx.t('admin.form.money', { digits }));
    return minor;
  }
  return intOf(ctx, f, type === 'discount' ? { min: 1, max: 100 } : { min: 1, max: 3650 });
}

// The reward type's select and its value field, whose label
// follows the type.
export function rewardFields(ctx, plans, idPrefix) {
  const types = ['balance', 'days', 'subscription', 'discount'];
  const typeF = field(ctx.t('admin.promo.reward'), select(types.map((t) => [t, ctx.t('admin.promo.reward.' + t)]), 'balance', { id: idPrefix + '-type' }), { names: ['reward_type'] });
  const valueF = field(ctx.t('admin.promo.value.balance', { currency: ctx.currency }), input({ inputmode: 'decimal', id: idPrefix + '-value', autocomplete: 'off' }), { names: ['value'] });
  const planF = field(ctx.t('admin.promo.plan'), select([['', ctx.t('admin.promo.anyPlan')], ...plans.map((p) => [p.code, p.name])], '', { id: idPrefix + '-plan' }), { names: ['plan_code'] });
  const label = valueF.el.querySelector('label');
  const sync = () => {
    const t = typeF.input.value;
    label.textContent = ctx.t('admin.promo.value.' + t, { currency: ctx.currency });
    valueF.input.inputMode = t === 'balance' ? 'decimal' : 'numeric';
    planF.el.hidden = !(t === 'subscription' || t === 'discount');
  };
  typeF.input.addEventListener('change', sync);
  sync();
  return { typeF, valueF, planF };
}

function isoOrNull(ctx, f) {
  if (!f.input.value) return null;
  const d = new Date(f.input.value);
  if (Number.isNaN(d.getTime())) throw new FieldError(f, ctx.t('admin.sales.when'));
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function save(text, name, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = h('a', { href: url, download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

export function promoForms(ctx, plans, { created }) {
  // A new code.
  const r = rewardFields(ctx, plans, 'pc');
  const codeF = field(ctx.t('admin.promo.code'), input({ maxlength: 64, autocomplete: 'off', spellcheck: 'false' }),
    { names: ['code'], hint: ctx.t('admin.promo.codeHint') });
  const usesF = field(ctx.t('admin.promo.maxUses'), input({ inputmode: 'numeric' }), { names: ['max_uses'], hint: ctx.t('admin.promo.maxUsesHint') });
  const fromF = field(ctx.t('admin.promo.validFrom'), input({ type: 'datetime-local' }), { names: ['valid_from'] });
  const untilF = field(ctx.t('admin.promo.validUntil'), input({ type: 'datetime-local' }), { names: ['valid_until'] });
  const fields = [codeF, r.typeF, r.valueF, r.planF, usesF, fromF, untilF];
  const add = h('button', { class: 'btn btn-primary', type: 'submit' }, ctx.t('admin.promo.create'));
  const status = formStatus();
  const form = h('form', { class: 'admin-form' }, guard(ctx, h('fieldset', {},
    h('div', { class: 'admin-fields' }, fields.map((f) => f.el)), h('div', {}, add), status)));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    send(ctx, { fields, button: add, status }, async () => {
      const code = codeF.input.value.trim();
      if (!/^[A-Za-z0-9_-]{3,64}$/.test(code)) throw new FieldError(codeF, ctx.t('admin.promo.codeHint'));
      const type = r.typeF.input.value;
      const body = { code, reward_type: type, value: valueOf(ctx, type, r.valueF) };
      if (!r.planF.el.hidden && r.planF.input.value) body.plan_code = r.planF.input.value;
      if (type === 'subscription' && !body.plan_code) throw new FieldError(r.planF, ctx.t('admin.promo.planNeeded'));
      const maxUses = intOf(ctx, usesF, { min: 1, max: 10000000, optional: true });
      if (maxUses !== null) body.max_uses = maxUses;
      const from = isoOrNull(ctx, fromF);
      const until = isoOrNull(ctx, untilF);
      if (from) body.valid_from = from;
      if (until) body.valid_until = until;
      const c = await ctx.api.post('/promo-codes', body);
      ctx.success(ctx.t('admin.promo.createdOne', { code: c.code }));
      codeF.input.value = '';
      r.valueF.input.value = '';
      usesF.input.value = '';
      await created();
    });
  });
  const create = h('section', { class: 'card', 'aria-labelledby': 'promo-new' },
    h('h2', { class: 'card-title', id: 'promo-new' }, ctx.t('admin.promo.new')), form);

  // A batch of gift codes.
  const b = rewardFields(ctx, plans, 'pb');
  const countF = field(ctx.t('admin.promo.count'), input({ inputmode: 'numeric', value: '10' }), { names: ['count'] });
  const prefixF = field(ctx.t('admin.promo.prefix'), input({ maxlength: 16, autocomplete: 'off', spellcheck: 'false' }), { names: ['prefix'], hint: ctx.t('admin.promo.prefixHint') });
  const bUntilF = field(ctx.t('admin.promo.validUntil'), input({ type: 'datetime-local' }), { names: ['valid_until'] });
  const bFields = [countF, b.typeF, b.valueF, b.planF, prefixF, bUntilF];
  const make = h('button', { class: 'btn btn-primary', type: 'submit' }, ctx.t('admin.promo.batchRun'));
  const bStatus = formStatus();
  const bForm = h('form', { class: 'admin-form' }, guard(ctx, h('fieldset', {},
    h('div', { class: 'admin-fields' }, bFields.map((f) => f.el)), h('div', {}, make), bStatus)));
  bForm.addEventListener('submit', (e) => {
    e.preventDefault();
    send(ctx, { fields: bFields, button: make, status: bStatus }, async () => {
      const type = b.typeF.input.value;
      const body = { count: intOf(ctx, countF, { min: 1, max: 10000 }), reward_type: type, value: valueOf(ctx, type, b.valueF) };
      if (!b.planF.el.hidden && b.planF.input.value) body.plan_code = b.planF.input.value;
      if (type === 'subscription' && !body.plan_code) throw new FieldError(b.planF, ctx.t('admin.promo.planNeeded'));
      const prefix = prefixF.input.value.trim();
      if (prefix && !/^[A-Za-z0-9_-]{1,16}$/.test(prefix)) throw new FieldError(prefixF, ctx.t('admin.promo.prefixHint'));
      if (prefix) body.prefix = prefix;
      const until = isoOrNull(ctx, bUntilF);
      if (until) body.valid_until = until;
      const file = await ctx.download('/promo-codes/batch', body);
      const name = file.name || `gift-codes-${new Date().toISOString().slice(0, 10)}.csv`;
      save(file.text, name, file.type);
      const lines = file.text.split(/\r?\n/).filter(Boolean).length - 1;
      bStatus.textContent = ctx.t('admin.promo.batchDone', { n: lines, file: name });
      bStatus.dataset.kind = 'ok';
      ctx.success();
      await created();
    });
  });
  const batch = h('section', { class: 'card', 'aria-labelledby': 'promo-batch' },
    h('h2', { class: 'card-title', id: 'promo-batch' }, ctx.t('admin.promo.batch')),
    h('p', { class: 'muted' }, ctx.t('admin.promo.batchHint')), bForm);
  return { create, batch };
}
