// Promo codes: the list with uses so far (GET /api/admin/promo-codes, newest first, paged
// by cursor; the search and the status filter in the URL), disable/enable a code, create
// one (balance, days, subscription or discount; value, plan, uses, from/until) and a batch
// of one-use gift codes downloaded as CSV.

import { h } from '../../shared/dom.js';
import { field, input, select, send } from '../form.js';
import { shopCurrency } from '../kit.js';
import { dataTable } from '../table.js';
import { promoForms } from './promo-forms.js';

const PAGE = 50;
const STATUSES = ['all', 'active', 'disabled'];

export function rewardText(ctx, c) {
  switch (c.reward_type) {
    case 'balance': return ctx.t('admin.promo.reward.balanceIs', { amount: ctx.fmt.money(c.value, ctx.currency) });
    case 'days': return ctx.t('admin.promo.reward.daysIs', { n: c.value });
    case 'subscription': return ctx.t('admin.promo.reward.subscriptionIs', { n: c.value, plan: c.plan_code || '—' });
    case 'discount': return ctx.t('admin.promo.reward.discountIs', { n: c.value });
    default: return String(c.value);
  }
}

function usesText(ctx, c) {
  return c.max_uses ? ctx.t('admin.promo.usesOf', { n: c.uses, max: c.max_uses }) : ctx.t('admin.promo.usesNoMax', { n: c.uses });
}

function validText(ctx, c) {
  if (!c.valid_from && !c.valid_until) return ctx.t('admin.promo.always');
  return [c.valid_from ? ctx.t('admin.promo.fromAt', { at: ctx.fmt.dateTime(c.valid_from) }) : null,
    c.valid_until ? ctx.t('admin.promo.untilAt', { at: ctx.fmt.dateTime(c.valid_until) }) : null].filter(Boolean).join(' ');
}

export default {
  title: 'admin.promo.title',
  async render(view, ctx) {
    view.append(h('div', { class: 'skeleton skeleton-card' }));
    const [plansAnswer] = await Promise.all([ctx.api.get('/plans'), shopCurrency(ctx)]);
    const plans = plansAnswer.items || [];
    let q = ctx.params.get('q') || '';
    let status = STATUSES.includes(ctx.params.get('status')) ? ctx.params.get('status') : 'all';
    let seq = 0;

    const toggle = (c) => {
      const b = h('button', { class: 'btn btn-ghost btn-small', type: 'button', disabled: ctx.readOnly,
        'aria-label': ctx.t(c.is_active ? 'admin.promo.disableNamed' : 'admin.promo.enableNamed', { code: c.code }) },
      ctx.t(c.is_active ? 'admin.promo.disable' : 'admin.promo.enable'));
      b.addEventListener('click', () => send(ctx, { button: b, done: ctx.t(c.is_active ? 'admin.promo.disabled' : 'admin.promo.enabled', { code: c.code }) }, async () => {
        const next = await ctx.api.post(`/promo-codes/${c.id}/${c.is_active ? 'disable' : 'enable'}`, {});
        table.setRows(table.rows.map((x) => (x.id === c.id ? next : x)));
      }));
      return b;
    };
    const table = dataTable(ctx, {
      label: ctx.t('admin.promo.list'), sortParam: 'sort', rowKey: (c) => String(c.id), empty: ctx.t('admin.promo.empty'),
      columns: [
        { key: 'code', label: ctx.t('admin.promo.code'), sortable: true, cell: (c) => h('span', { class: 'atable-code' }, c.code) },
        { key: 'reward_type', label: ctx.t('admin.promo.reward'), sortable: true, cell: (c) => rewardText(ctx, c) },
        { key: 'uses', label: ctx.t('admin.promo.uses'), sortable: true, num: true, cell: (c) => usesText(ctx, c) },
        { key: 'valid_until', label: ctx.t('admin.promo.valid'), sortable: true, cell: (c) => validText(ctx, c) },
        { key: 'is_active', label: ctx.t('admin.plans.status'), sortable: true,
          cell: (c) => h('span', { class: 'badge ' + (c.is_active ? 'badge-active' : 'badge-disabled') }, ctx.t(c.is_active ? 'admin.promo.on' : 'admin.promo.off')) },
        { key: 'created_at', label: ctx.t('admin.promo.created'), sortable: true, cell: (c) => ctx.fmt.dateTime(c.created_at) },
        { key: 'act', label: ctx.t('admin.table.actions'), listLabel: false, cell: toggle },
      ],
    });

    async function load(cursor = null) {
      const mine = ++seq;
      const qs = new URLSearchParams({ status, limit: String(PAGE) });
      if (q) qs.set('q', q);
      if (cursor) qs.set('cursor', cursor);
      const page = await ctx.api.get('/promo-codes?' + qs);
      if (mine !== seq) return;
      if (cursor) table.addRows(page.items || []); else table.setRows(page.items || []);
      table.setMore(page.next_cursor ? () => load(page.next_cursor) : null);
    }

    // The filters (a form: Enter searches), kept in the URL.
    const qF = field(ctx.t('admin.promo.search'), input({ type: 'search', value: q, autocomplete: 'off' }));
    const statusF = field(ctx.t('admin.promo.statusFilter'), select(STATUSES.map((s) => [s, ctx.t('admin.promo.status.' + s)]), status));
    const apply = h('button', { class: 'btn', type: 'submit' }, ctx.t('admin.promo.apply'));
    const filters = h('form', { class: 'admin-toolbar', role: 'search', 'aria-label': ctx.t('admin.promo.filters') }, qF.el, statusF.el, apply);
    filters.addEventListener('submit', (e) => {
      e.preventDefault();
      q = qF.input.value.trim();
      status = statusF.input.value;
      ctx.setParams({ q, status: status === 'all' ? null : status });
      send(ctx, { button: apply }, () => load());
    });
    statusF.input.addEventListener('change', () => filters.requestSubmit());

    const forms = promoForms(ctx, plans, { created: () => load() });
    view.replaceChildren(h('div', { class: 'admin-split' },
      h('div', { class: 'admin-grid' }, filters, table.el),
      h('div', { class: 'admin-grid' }, forms.create, forms.batch)));
    await load();
  },
};
