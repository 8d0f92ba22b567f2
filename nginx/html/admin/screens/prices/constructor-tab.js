// The constructor (GET /api/admin/constructor): the periods a customer may build a
// subscription of (days, months, price) and the traffic packs (GB, 0 = unlimited, price).
// A row's price is changed in place (PUT), a row taken off sale (DELETE) or put back (PUT).

import { h } from '../../../shared/dom.js';
import { field, formStatus, input, intOf, send } from '../../form.js';
import { confirmInPlace, guard } from '../../kit.js';
import { currencyDigits, formatMinor } from '../../money.js';
import { dataTable } from '../../table.js';
import { priceOf } from './plans-tab.js';

export default async function constructorTab(body, ctx) {
  const digits = currencyDigits(ctx.currency);
  let data = { periods: [], packs: [] };
  const packName = (gb) => (Number(gb) === 0 ? ctx.t('admin.plans.unlimited') : ctx.t('admin.plans.gb', { n: gb }));
  const periodName = (days) => ctx.t('admin.ctor.days', { n: days });

  // One row's price form and its off/on button; `path` is /constructor/periods/30 or /packs/50.
  function rowCells(kind, item, label) {
    const path = `/constructor/${kind}/${kind === 'periods' ? item.days : item.gb}`;
    const priceF = field(ctx.t('admin.ctor.priceOf', { item: label }), input({ inputmode: 'decimal', value: formatMinor(item.price_minor, digits), size: 8 }), { names: ['price_minor'] });
    const save = h('button', { class: 'btn btn-ghost btn-small', type: 'submit' }, ctx.t('action.save'));
    const form = h('form', { class: 'admin-form' }, guard(ctx, h('fieldset', {}, priceF.el, h('div', {}, save))));
    const bodyOf = () => (kind === 'periods' ? { months: item.months, price_minor: priceOf(ctx, priceF) } : { price_minor: priceOf(ctx, priceF) });
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      send(ctx, { fields: [priceF], button: save, done: ctx.t('admin.form.saved') }, async () => { await ctx.api.put(path, bodyOf()); await reload(); });
    });
    const toggle = h('button', { class: 'btn btn-ghost btn-small', type: 'button', disabled: ctx.readOnly,
      'aria-label': ctx.t(item.is_active ? 'admin.ctor.offNamed' : 'admin.ctor.onNamed', { item: label }) },
    ctx.t(item.is_active ? 'admin.ctor.off' : 'admin.ctor.on'));
    toggle.addEventListener('click', async () => {
      if (item.is_active && !await confirmInPlace(ctx, toggle, ctx.t('admin.ctor.offAsk', { item: label }), ctx.t('admin.ctor.offYes'), true)) return;
      await send(ctx, { fields: [priceF], button: toggle, done: ctx.t(item.is_active ? 'admin.ctor.wentOff' : 'admin.ctor.wentOn', { item: label }) }, async () => {
        if (item.is_active) await ctx.api.del(path); else await ctx.api.put(path, bodyOf());
        await reload();
      });
    });
    return { form, toggle };
  }

  const state = (x) => h('span', { class: 'badge ' + (x.is_active ? 'badge-active' : 'badge-disabled') }, ctx.t(x.is_active ? 'admin.plans.on' : 'admin.plans.off'));
  const cache = new WeakMap();
  const cells = (kind, x, label) => { if (!cache.has(x)) cache.set(x, rowCells(kind, x, label)); return cache.get(x); };
  const periods = dataTable(ctx, {
    label: ctx.t('admin.ctor.periods'), empty: ctx.t('admin.ctor.noPeriods'),
    columns: [
      { key: 'days', label: ctx.t('admin.ctor.period'), sortable: true, cell: (p) => periodName(p.days) },
      { key: 'months', label: ctx.t('admin.plans.months'), sortable: true, num: true },
      { key: 'price_minor', label: ctx.t('admin.ctor.price'), sortable: true, cell: (p) => cells('periods', p, periodName(p.days)).form },
      { key: 'is_active', label: ctx.t('admin.plans.status'), sortable: true, cell: state },
      { key: 'act', label: ctx.t('admin.table.actions'), listLabel: false, cell: (p) => cells('periods', p, periodName(p.days)).toggle },
    ],
  });
  const packs = dataTable(ctx, {
    label: ctx.t('admin.ctor.packs'), empty: ctx.t('admin.ctor.noPacks'),
    columns: [
      { key: 'gb', label: ctx.t('admin.ctor.pack'), sortable: true, cell: (p) => packName(p.gb) },
      { key: 'price_minor', label: ctx.t('admin.ctor.price'), sortable: true, cell: (p) => cells('packs', p, packName(p.gb)).form },
      { key: 'is_active', label: ctx.t('admin.plans.status'), sortable: true, cell: state },
      { key: 'act', label: ctx.t('admin.table.actions'), listLabel: false, cell: (p) => cells('packs', p, packName(p.gb)).toggle },
    ],
  });
  async function reload() {
    data = await ctx.api.get('/constructor');
    periods.setRows(data.periods || []);
    packs.setRows(data.packs || []);
  }

  function addForm(kind) {
    const amountF = kind === 'periods'
      ? field(ctx.t('admin.plans.days'), input({ inputmode: 'numeric' }), { names: ['days'] })
      : field(ctx.t('admin.ctor.gb'), input({ inputmode: 'numeric' }), { names: ['gb'], hint: ctx.t('admin.ctor.gbHint') });
    const monthsF = kind === 'periods' ? field(ctx.t('admin.plans.months'), input({ inputmode: 'numeric' }), { names: ['months'] }) : null;
    const priceF = field(ctx.t('admin.plans.price', { currency: ctx.currency }), input({ inputmode: 'decimal' }), { names: ['price_minor'] });
    const add = h('button', { class: 'btn btn-primary', type: 'submit' }, ctx.t(kind === 'periods' ? 'admin.ctor.addPeriod' : 'admin.ctor.addPack'));
    const status = formStatus();
    const fields = [amountF, monthsF, priceF].filter(Boolean);
    const form = h('form', { class: 'admin-form' }, guard(ctx, h('fieldset', {},
      h('legend', { class: 'card-title' }, ctx.t(kind === 'periods' ? 'admin.ctor.newPeriod' : 'admin.ctor.newPack')),
      h('div', { class: 'admin-fields' }, fields.map((f) => f.el)), h('div', {}, add), status)));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      send(ctx, { fields, button: add, status, done: ctx.t('admin.form.saved') }, async () => {
        const amount = intOf(ctx, amountF, { min: kind === 'periods' ? 1 : 0, max: kind === 'periods' ? 3650 : 100000 });
        const b = kind === 'periods' ? { months: intOf(ctx, monthsF, { min: 1, max: 120 }), price_minor: priceOf(ctx, priceF) } : { price_minor: priceOf(ctx, priceF) };
        await ctx.api.put(`/constructor/${kind}/${amount}`, b);
        for (const f of fields) f.input.value = '';
        await reload();
      });
    });
    return form;
  }

  body.replaceChildren(h('div', { class: 'admin-grid admin-grid-2' },
    h('section', { class: 'card', 'aria-labelledby': 'ctor-periods' },
      h('h2', { class: 'card-title', id: 'ctor-periods' }, ctx.t('admin.ctor.periods')), periods.el, addForm('periods')),
    h('section', { class: 'card', 'aria-labelledby': 'ctor-packs' },
      h('h2', { class: 'card-title', id: 'ctor-packs' }, ctx.t('admin.ctor.packs')), packs.el, addForm('packs'))));
  await reload();
}
