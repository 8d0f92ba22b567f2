// Sales (GET /api/admin/sales): every sale, past, running and to come; a new one with its
// percent and from/until (PUT /sales/{name}), and "end now" (POST /sales/{name}/end).
// Times are typed in the owner's own time zone and sent as UTC.

import { h } from '../../../shared/dom.js';
import { FieldError, field, formStatus, input, intOf, send } from '../../form.js';
import { confirmInPlace, guard } from '../../kit.js';
import { dataTable } from '../../table.js';

function stateOf(s, now = Date.now()) {
  if (s.running) return 'running';
  return new Date(s.starts_at).getTime() > now ? 'scheduled' : 'ended';
}
const BADGE = { running: 'badge-active', scheduled: 'badge-pending', ended: 'badge-disabled' };

// <input type="datetime-local"> text (local time) → ISO UTC, or a FieldError.
function isoOf(ctx, f) {
  const d = new Date(f.input.value);
  if (!f.input.value || Number.isNaN(d.getTime())) throw new FieldError(f, ctx.t('admin.sales.when'));
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
const localInput = (d) => new Date(d.getTime() - d.getTimezoneOffset() * 60000).toISOString().slice(0, 16);

export default async function salesTab(body, ctx) {
  const table = dataTable(ctx, {
    label: ctx.t('admin.sales.list'), sortParam: 'sort', empty: ctx.t('admin.sales.empty'), rowKey: (s) => s.name,
    columns: [
      { key: 'name', label: ctx.t('admin.sales.name'), sortable: true },
      { key: 'discount_pct', label: ctx.t('admin.sales.percent'), sortable: true, num: true, cell: (s) => s.discount_pct + '\u00a0%' },
      { key: 'starts_at', label: ctx.t('admin.sales.from'), sortable: true, cell: (s) => ctx.fmt.dateTime(s.starts_at) },
      { key: 'ends_at', label: ctx.t('admin.sales.until'), sortable: true, cell: (s) => ctx.fmt.dateTime(s.ends_at) },
      { key: 'state', label: ctx.t('admin.sales.state'), sortable: true, value: (s) => stateOf(s),
        cell: (s) => h('span', { class: 'badge ' + BADGE[stateOf(s)] }, ctx.t('admin.sales.' + stateOf(s))) },
      { key: 'end', label: ctx.t('admin.table.actions'), listLabel: false, cell: (s) => {
        if (stateOf(s) === 'ended') return null;
        const b = h('button', { class: 'btn btn-ghost btn-small', type: 'button', disabled: ctx.readOnly,
          'aria-label': ctx.t('admin.sales.endNamed', { name: s.name }) }, ctx.t('admin.sales.end'));
        b.addEventListener('click', async () => {
          if (!await confirmInPlace(ctx, b, ctx.t('admin.sales.endAsk', { name: s.name }), ctx.t('admin.sales.endYes'), true)) return;
          await send(ctx, { button: b, done: ctx.t('admin.sales.ended', { name: s.name }) }, async () => {
            await ctx.api.post(`/sales/${encodeURIComponent(s.name)}/end`, {});
            await reload();
          });
        });
        return b;
      } },
    ],
  });
  async function reload() { table.setRows((await ctx.api.get('/sales')).items || []); }

  const now = new Date();
  const nameF = field(ctx.t('admin.sales.name'), input({ maxlength: 64, autocomplete: 'off' }), { names: ['name'], hint: ctx.t('admin.sales.nameHint') });
  const pctF = field(ctx.t('admin.sales.percent'), input({ inputmode: 'numeric' }), { names: ['discount_pct'] });
  const fromF = field(ctx.t('admin.sales.fromLocal'), input({ type: 'datetime-local', value: localInput(now) }), { names: ['starts_at'] });
  const untilF = field(ctx.t('admin.sales.untilLocal'), input({ type: 'datetime-local', value: localInput(new Date(now.getTime() + 7 * 86400000)) }), { names: ['ends_at'] });
  const save = h('button', { class: 'btn btn-primary', type: 'submit' }, ctx.t('admin.sales.create'));
  const status = formStatus();
  const form = h('form', { class: 'admin-form' }, guard(ctx, h('fieldset', {},
    h('div', { class: 'admin-fields' }, nameF.el, pctF.el, fromF.el, untilF.el), h('div', {}, save), status)));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    send(ctx, { fields: [nameF, pctF, fromF, untilF], button: save, status }, async () => {
      const name = nameF.input.value.trim();
      if (!/^[A-Za-z0-9_.-]{1,64}$/.test(name)) throw new FieldError(nameF, ctx.t('admin.sales.nameHint'));
      const sale = { discount_pct: intOf(ctx, pctF, { min: 1, max: 99 }), starts_at: isoOf(ctx, fromF), ends_at: isoOf(ctx, untilF) };
      await ctx.api.put('/sales/' + encodeURIComponent(name), sale);
      ctx.success(ctx.t('admin.sales.created', { name }));
      nameF.input.value = '';
      pctF.input.value = '';
      await reload();
    });
  });
  body.replaceChildren(h('div', { class: 'admin-grid' }, table.el,
    h('section', { class: 'card', 'aria-labelledby': 'sale-new' },
      h('h2', { class: 'card-title', id: 'sale-new' }, ctx.t('admin.sales.new')),
      h('p', { class: 'muted' }, ctx.t('admin.sales.hint')), form)));
  await reload();
}
