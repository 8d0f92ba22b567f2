// The plans (GET /api/admin/plans): a table, and the chosen plan's editor beside it
// (?edit=CODE, ?edit=+ for a new one): name, description, traffic and device limits,
// order, on sale or not (PUT /plans/{code}); its durations with their prices (PUT and
// DELETE /plans/{code}/durations/{days}).

import { h } from '../../../shared/dom.js';
import { FieldError, checkbox, field, formStatus, input, intOf, send, textarea } from '../../form.js';
import { currencyDigits, formatMinor, parseMoney } from '../../money.js';
import { confirmInPlace, guard } from '../../kit.js';
import { dataTable } from '../../table.js';

export function priceOf(ctx, f) {
  const digits = currencyDigits(ctx.currency);
  const minor = parseMoney(f.input.value, digits);
  if (minor === null) throw new FieldError(f, ctx.t('admin.form.money', { digits }));
  return minor;
}

const traffic = (ctx, gb) => (Number(gb) === 0 ? ctx.t('admin.plans.unlimited') : ctx.t('admin.plans.gb', { n: gb }));

function durationsText(ctx, p) {
  if (!p.durations || !p.durations.length) return h('span', { class: 'muted' }, ctx.t('admin.plans.noDurations'));
  return h('ul', { class: 'admin-lines' }, p.durations.map((d) =>
    h('li', {}, ctx.t('admin.plans.durationPrice', { days: d.days, price: ctx.fmt.money(d.price_minor, ctx.currency) }))));
}

function durationsCard(ctx, plan, reload) {
  const digits = currencyDigits(ctx.currency);
  const rows = (plan.durations || []).map((d) => {
    const priceF = field(ctx.t('admin.plans.priceFor', { days: d.days }), input({ inputmode: 'decimal', value: formatMinor(d.price_minor, digits) }), { names: ['price_minor'] });
    const monthsF = field(ctx.t('admin.plans.monthsFor', { days: d.days }), input({ inputmode: 'numeric', value: String(d.months) }), { names: ['months'] });
    const status = formStatus();
    const save = h('button', { class: 'btn btn-primary btn-small', type: 'submit' }, ctx.t('action.save'));
    const remove = h('button', { class: 'btn btn-ghost btn-small', type: 'button' }, ctx.t('admin.plans.removeDuration', { days: d.days }));
    const form = h('form', { class: 'admin-form' }, guard(ctx, h('fieldset', {},
      h('legend', { class: 'card-title' }, ctx.t('admin.plans.durationTitle', { days: d.days })),
      h('div', { class: 'admin-fields' }, priceF.el, monthsF.el), h('div', { class: 'btn-row' }, save, remove), status)));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      send(ctx, { fields: [priceF, monthsF], button: save, status, done: ctx.t('admin.form.saved') }, async () => {
        const body = { months: intOf(ctx, monthsF, { min: 1, max: 120 }), price_minor: priceOf(ctx, priceF) };
        await ctx.api.put(`/plans/${encodeURIComponent(plan.code)}/durations/${d.days}`, body);
        await reload(plan.code);
      });
    });
    remove.addEventListener('click', async () => {
      if (!await confirmInPlace(ctx, remove, ctx.t('admin.plans.removeAsk', { days: d.days }), ctx.t('admin.plans.removeYes'), true)) return;
      await send(ctx, { button: remove, status }, async () => {
        await ctx.api.del(`/plans/${encodeURIComponent(plan.code)}/durations/${d.days}`);
        ctx.success(ctx.t('admin.plans.removed', { days: d.days }));
        await reload(plan.code);
      });
    });
    return form;
  });
  // A new duration.
  const daysF = field(ctx.t('admin.plans.days'), input({ inputmode: 'numeric' }), { names: ['days'] });
  const monthsF = field(ctx.t('admin.plans.months'), input({ inputmode: 'numeric' }), { names: ['months'] });
  const priceF = field(ctx.t('admin.plans.price', { currency: ctx.currency }), input({ inputmode: 'decimal' }), { names: ['price_minor'] });
  const add = h('button', { class: 'btn btn-primary', type: 'submit' }, ctx.t('admin.plans.addDuration'));
  const status = formStatus();
  const addForm = h('form', { class: 'admin-form' }, guard(ctx, h('fieldset', {},
    h('legend', { class: 'card-title' }, ctx.t('admin.plans.newDuration')),
    h('div', { class: 'admin-fields' }, daysF.el, monthsF.el, priceF.el), h('div', {}, add), status)));
  addForm.addEventListener('submit', (e) => {
    e.preventDefault();
    send(ctx, { fields: [daysF, monthsF, priceF], button: add, status }, async () => {
      const days = intOf(ctx, daysF, { min: 1, max: 3650 });
      const body = { months: intOf(ctx, monthsF, { min: 1, max: 120 }), price_minor: priceOf(ctx, priceF) };
      await ctx.api.put(`/plans/${encodeURIComponent(plan.code)}/durations/${days}`, body);
      ctx.success(ctx.t('admin.form.saved'));
      await reload(plan.code);
    });
  });
  return h('section', { class: 'card', 'aria-labelledby': 'dur-title' },
    h('h2', { class: 'card-title', id: 'dur-title' }, ctx.t('admin.plans.durations', { name: plan.name })),
    rows.length ? rows : h('p', { class: 'muted' }, ctx.t('admin.plans.noDurations')), addForm);
}

function editorCard(ctx, plan, reload) {
  const creating = !plan;
  const p = plan || { code: '', name: '', description: '', traffic_limit_gb: 0, device_limit: 3, sort_order: 100, is_active: true };
  const codeF = field(ctx.t('admin.plans.code'), input({ value: p.code, autocomplete: 'off', spellcheck: 'false', maxlength: 64 }),
    { names: ['code'], hint: ctx.t('admin.plans.codeHint') });
  const nameF = field(ctx.t('admin.plans.name'), input({ value: p.name, maxlength: 128 }), { names: ['name'] });
  const descF = field(ctx.t('admin.plans.description'), textarea({ maxlength: 2000 }), { names: ['description'], wide: true });
  descF.input.value = p.description || '';
  const trafficF = field(ctx.t('admin.plans.traffic'), input({ inputmode: 'numeric', value: String(p.traffic_limit_gb) }),
    { names: ['traffic_limit_gb'], hint: ctx.t('admin.plans.trafficHint') });
  const devicesF = field(ctx.t('admin.plans.devices'), input({ inputmode: 'numeric', value: String(p.device_limit) }), { names: ['device_limit'] });
  const orderF = field(ctx.t('admin.plans.order'), input({ inputmode: 'numeric', value: String(p.sort_order) }),
    { names: ['sort_order'], hint: ctx.t('admin.plans.orderHint') });
  const active = checkbox(ctx.t('admin.plans.active'), p.is_active);
  const save = h('button', { class: 'btn btn-primary', type: 'submit' }, ctx.t(creating ? 'admin.plans.create' : 'action.save'));
  const status = formStatus();
  const fields = [codeF, nameF, descF, trafficF, devicesF, orderF];
  const form = h('form', { class: 'admin-form' }, guard(ctx, h('fieldset', {},
    h('div', { class: 'admin-fields' }, creating ? codeF.el : null, nameF.el, descF.el, trafficF.el, devicesF.el, orderF.el),
    active.el, h('div', {}, save), status)));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    send(ctx, { fields, button: save, status, done: creating ? null : ctx.t('admin.form.saved') }, async () => {
      const code = creating ? codeF.input.value.trim() : p.code;
      if (creating && !/^[A-Za-z0-9_-]{1,64}$/.test(code)) throw new FieldError(codeF, ctx.t('admin.plans.codeHint'));
      if (!nameF.input.value.trim()) throw new FieldError(nameF, ctx.t('admin.form.required'));
      const body = {
        name: nameF.input.value.trim(), description: descF.input.value,
        traffic_limit_gb: intOf(ctx, trafficF, { min: 0, max: 100000 }), device_limit: intOf(ctx, devicesF, { min: 1, max: 100 }),
        sort_order: intOf(ctx, orderF, { min: 0, max: 100000 }), is_active: active.input.checked,
      };
      await ctx.api.put('/plans/' + encodeURIComponent(code), body);
      if (creating) ctx.success(ctx.t('admin.plans.created', { name: body.name }));
      await reload(code, !creating);
    });
  });
  return h('section', { class: 'card', 'aria-labelledby': 'plan-title' },
    h('h2', { class: 'card-title', id: 'plan-title' }, creating ? ctx.t('admin.plans.new') : ctx.t('admin.plans.edit', { name: p.name })),
    creating ? null : h('p', { class: 'muted' }, ctx.t('admin.plans.codeIs'), ' ', h('code', { class: 'atable-code' }, p.code)), form);
}

export default async function plansTab(body, ctx) {
  let plans = [];
  let editing = ctx.params.get('edit');
  const side = h('div', { class: 'admin-grid' });
  const table = dataTable(ctx, {
    label: ctx.t('admin.plans.list'), sortParam: 'sort', rowKey: (p) => p.code, selected: () => editing,
    empty: ctx.t('admin.plans.empty'),
    columns: [
      { key: 'name', label: ctx.t('admin.plans.name'), sortable: true,
        cell: (p) => h('div', {}, h('strong', {}, p.name), h('br'), h('span', { class: 'atable-code muted' }, p.code)) },
      { key: 'durations', label: ctx.t('admin.plans.prices'), cell: (p) => durationsText(ctx, p) },
      { key: 'traffic_limit_gb', label: ctx.t('admin.plans.trafficShort'), sortable: true, num: true, cell: (p) => traffic(ctx, p.traffic_limit_gb) },
      { key: 'device_limit', label: ctx.t('admin.plans.devices'), sortable: true, num: true },
      { key: 'sort_order', label: ctx.t('admin.plans.order'), sortable: true, num: true },
      { key: 'is_active', label: ctx.t('admin.plans.status'), sortable: true,
        cell: (p) => h('span', { class: 'badge ' + (p.is_active ? 'badge-active' : 'badge-disabled') }, ctx.t(p.is_active ? 'admin.plans.on' : 'admin.plans.off')) },
      { key: 'edit', label: ctx.t('admin.table.actions'), listLabel: false,
        cell: (p) => h('button', { class: 'btn btn-ghost btn-small', type: 'button', 'aria-label': ctx.t(ctx.readOnly ? 'admin.plans.viewNamed' : 'admin.plans.editNamed', { name: p.name }),
          onclick: () => open(p.code, true) }, ctx.t(ctx.readOnly ? 'admin.plans.view' : 'admin.plans.editShort')) },
    ],
  });
  const create = h('button', { class: 'btn btn-primary', type: 'button', disabled: ctx.readOnly }, ctx.t('admin.plans.new'));
  create.addEventListener('click', () => open('+', true));

  function open(code, focus) {
    editing = code;
    ctx.setParams({ edit: code });
    table.refresh();
    const plan = plans.find((p) => p.code === code);
    side.replaceChildren(...(code === '+' ? [editorCard(ctx, null, reload)]
      : plan ? [editorCard(ctx, plan, reload), durationsCard(ctx, plan, reload)] : []));
    split.classList.toggle('admin-split-solo', !side.childElementCount);
    if (focus && side.querySelector('h2')) {
      const t = side.querySelector('h2');
      t.tabIndex = -1;
      t.focus();
    }
  }
  async function reload(code = editing, keepFocus = false) {
    plans = (await ctx.api.get('/plans')).items || [];
    table.setRows(plans);
    const active = document.activeElement;
    open(code, false);
    if (keepFocus && active && !active.isConnected) side.querySelector('h2')?.focus();
  }
  const split = h('div', { class: 'admin-split' }, table.el, side);
  body.replaceChildren(h('div', { class: 'admin-toolbar' }, create), split);
  await reload(editing);
}
