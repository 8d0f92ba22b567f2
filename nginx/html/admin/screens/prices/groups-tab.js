// Promo groups (GET /api/admin/promo-groups): each group's discount for its members,
// changed in place or a new group made (PUT /promo-groups/{name} {discount_pct}).

import { h } from '../../../shared/dom.js';
import { FieldError, field, formStatus, input, intOf, send } from '../../form.js';
import { guard } from '../../kit.js';
import { dataTable } from '../../table.js';

export default async function groupsTab(body, ctx) {
  const put = (name, pct) => ctx.api.put('/promo-groups/' + encodeURIComponent(name), { discount_pct: pct });
  const table = dataTable(ctx, {
    label: ctx.t('admin.groups.list'), sortParam: 'sort', empty: ctx.t('admin.groups.empty'), rowKey: (g) => g.name,
    columns: [
      { key: 'name', label: ctx.t('admin.groups.name'), sortable: true },
      { key: 'members', label: ctx.t('admin.groups.members'), sortable: true, num: true, cell: (g) => ctx.fmt.number(g.members || 0) },
      { key: 'discount_pct', label: ctx.t('admin.groups.discount'), sortable: true, cell: (g) => {
        const f = field(ctx.t('admin.groups.discountOf', { name: g.name }), input({ inputmode: 'numeric', value: String(g.discount_pct), size: 4 }), { names: ['discount_pct'] });
        const save = h('button', { class: 'btn btn-ghost btn-small', type: 'submit' }, ctx.t('action.save'));
        const form = h('form', { class: 'admin-form' }, guard(ctx, h('fieldset', {}, f.el, h('div', {}, save))));
        form.addEventListener('submit', (e) => {
          e.preventDefault();
          send(ctx, { fields: [f], button: save, done: ctx.t('admin.groups.saved', { name: g.name }) },
            () => put(g.name, intOf(ctx, f, { min: 0, max: 100 })));
        });
        return form;
      } },
    ],
  });
  async function reload() { table.setRows((await ctx.api.get('/promo-groups')).items || []); }

  const nameF = field(ctx.t('admin.groups.name'), input({ maxlength: 64, autocomplete: 'off' }), { names: ['name'] });
  const pctF = field(ctx.t('admin.groups.discount'), input({ inputmode: 'numeric' }), { names: ['discount_pct'] });
  const save = h('button', { class: 'btn btn-primary', type: 'submit' }, ctx.t('admin.groups.create'));
  const status = formStatus();
  const form = h('form', { class: 'admin-form' }, guard(ctx, h('fieldset', {},
    h('div', { class: 'admin-fields' }, nameF.el, pctF.el), h('div', {}, save), status)));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    send(ctx, { fields: [nameF, pctF], button: save, status }, async () => {
      const name = nameF.input.value.trim();
      if (!name) throw new FieldError(nameF, ctx.t('admin.form.required'));
      await put(name, intOf(ctx, pctF, { min: 0, max: 100 }));
      ctx.success(ctx.t('admin.groups.saved', { name }));
      nameF.input.value = '';
      pctF.input.value = '';
      await reload();
    });
  });
  body.replaceChildren(h('div', { class: 'admin-grid' }, table.el,
    h('section', { class: 'card', 'aria-labelledby': 'group-new' },
      h('h2', { class: 'card-title', id: 'group-new' }, ctx.t('admin.groups.new')),
      h('p', { class: 'muted' }, ctx.t('admin.groups.hint')), form)));
  await reload();
}
