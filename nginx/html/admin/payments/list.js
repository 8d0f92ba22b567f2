// The payments' list: GET /api/admin/payments with the status, method, type, customer and
// date filters, all in the URL; newest first in the shared table, paged by cursor ("More").
// Above it the totals of everything the filters find (the count, and the sum per currency),
// not only of the page shown. A row's number is a link to its detail (#/payments?…&id=N,
// the filters kept); the whole row opens it on a click too; the customer's name links to
// their card. Owner and viewer export the filtered list as CSV (…/payments/export).

import { h } from '../../shared/dom.js';
import { FieldError, field, formStatus, input, select, send } from '../form.js';
import { exportButton, firstLoad, pagedLoader, rowsOpen } from '../listing.js';
import { dataTable } from '../table.js';
import {
  METHODS, STATUSES, TYPES, amountOf, customerLink, detailHash, filtersOf, methodName, statusBadge, typeName, when,
} from './common.js';

const PAGE = 50;

function columns(ctx, filters) {
  return [
    { key: 'id', label: ctx.t('payments.col.payment'), sortable: true, value: (p) => p.id,
      cell: (p) => h('div', { class: 'pay-who' },
        h('a', { class: 'pay-link', href: detailHash(filters(), p.id), 'aria-label': ctx.t('payments.open', { id: p.id }) }, '#' + p.id),
        h('span', { class: 'muted pay-sub' }, typeName(ctx, p.type))) },
    { key: 'created_at', label: ctx.t('payments.col.date'), sortable: true, cell: (p) => when(ctx, p.created_at) },
    { key: 'customer', label: ctx.t('payments.col.customer'), sortable: true,
      value: (p) => (p.customer ? p.customer.first_name || p.customer.username || '' : ''),
      cell: (p) => h('div', { class: 'pay-who' }, customerLink(ctx, p.customer),
        p.customer && p.customer.username ? h('span', { class: 'muted pay-sub' }, '@' + p.customer.username) : null) },
    { key: 'method', label: ctx.t('payments.col.method'), sortable: true, value: (p) => methodName(ctx, p.method),
      cell: (p) => methodName(ctx, p.method) },
    { key: 'status', label: ctx.t('payments.col.status'), sortable: true, cell: (p) => statusBadge(ctx, p.status) },
    { key: 'amount_minor', label: ctx.t('payments.col.amount'), sortable: true, num: true,
      cell: (p) => h('span', { class: 'pay-amount' }, amountOf(ctx, p.amount_minor, p.currency)) },
    { key: 'plan_name', label: ctx.t('payments.col.plan'), sortable: true, cell: (p) => p.plan_name || '—' },
    { key: 'provider_payment_id', label: ctx.t('payments.col.providerId'),
      cell: (p) => (p.provider_payment_id ? h('span', { class: 'atable-code' }, p.provider_payment_id) : '—') },
  ];
}

// The totals of the whole filter: how many, and the sum in each currency.
function totalsView(ctx, totals) {
  const amounts = (totals && totals.amounts) || [];
  return [
    h('div', { class: 'admin-stat' }, h('dt', {}, ctx.t('payments.totals.count')),
      h('dd', { class: 'pay-total-count' }, ctx.fmt.number((totals && totals.count) || 0))),
    ...(amounts.length ? amounts : [{ currency: ctx.currency, amount_minor: 0 }]).map((a) =>
      h('div', { class: 'admin-stat' }, h('dt', {}, ctx.t('payments.totals.sum', { currency: a.currency })),
        h('dd', { class: 'pay-total-sum' }, amountOf(ctx, a.amount_minor, a.currency)))),
  ];
}

// An option list with "any" first; a value from the URL we do not know is kept as it is.
function choice(ctx, values, prefixOf, chosen) {
  const all = chosen && !values.includes(chosen) ? [...values, chosen] : values;
  return select([['', ctx.t('payments.any')], ...all.map((v) => [v, prefixOf(v)])], chosen || '');
}

export async function renderList(view, ctx) {
  let filters = filtersOf(ctx.params);

  const statusF = field(ctx.t('payments.col.status'), choice(ctx, STATUSES, (s) => ctx.t('payments.status.' + s), filters.get('status')),
    { names: ['status'] });
  const methodF = field(ctx.t('payments.col.method'), choice(ctx, METHODS, (m) => methodName(ctx, m), filters.get('method')),
    { names: ['method'] });
  const typeF = field(ctx.t('payments.col.type'), choice(ctx, TYPES, (x) => typeName(ctx, x), filters.get('type')), { names: ['type'] });
  const fromF = field(ctx.t('payments.from'), input({ type: 'date', value: filters.get('from') || '' }), { names: ['from'] });
  const toF = field(ctx.t('payments.to'), input({ type: 'date', value: filters.get('to') || '' }), { names: ['to'] });
  const customerF = field(ctx.t('payments.customerId'), input({ inputmode: 'numeric', autocomplete: 'off', value: filters.get('customer') || '' }),
    { names: ['customer'], hint: ctx.t('payments.customerIdHint') });
  const fields = [statusF, methodF, typeF, fromF, toF, customerF];
  const apply = h('button', { class: 'btn btn-primary', type: 'submit' }, ctx.t('payments.apply'));
  const clear = h('button', { class: 'btn btn-ghost', type: 'button' }, ctx.t('payments.clear'));
  const status = formStatus();
  const form = h('form', { class: 'admin-form pay-filters', role: 'search', 'aria-label': ctx.t('payments.filters') },
    h('div', { class: 'admin-fields' }, fields.map((f) => f.el)),
    h('div', { class: 'btn-row' }, apply, clear), status);

  const totalsEl = h('dl', { class: 'admin-stats pay-totals' });
  const totalsBox = h('section', { class: 'card pay-totals-card', 'aria-labelledby': 'pay-totals' },
    h('h2', { class: 'card-title', id: 'pay-totals' }, ctx.t('payments.totals')),
    h('p', { class: 'muted pay-totals-note' }, ctx.t('payments.totals.note')), totalsEl);
  const count = h('p', { class: 'muted pay-count', role: 'status' });
  const table = dataTable(ctx, {
    label: ctx.t('payments.table'), sortParam: 'sort', rowKey: (p) => String(p.id), empty: ctx.t('payments.none'),
    columns: columns(ctx, () => filters),
  });
  rowsOpen(table, (id) => detailHash(filters, id));
  const load = pagedLoader(ctx, table, {
    path: '/payments', filters: () => filters, limit: PAGE, count, countKey: 'payments.count', countMoreKey: 'payments.countMore',
    onPage: (page, cursor) => { if (!cursor) totalsEl.replaceChildren(...totalsView(ctx, page.totals)); },
  });

  const values = () => ({ status: statusF.input.value, method: methodF.input.value, type: typeF.input.value,
    from: fromF.input.value, to: toF.input.value, customer: customerF.input.value.trim() });
  const submit = () => send(ctx, { fields, button: apply, status }, async () => {
    const v = values();
    if (v.customer && !/^[1-9]\d{0,17}$/.test(v.customer)) throw new FieldError(customerF, ctx.t('payments.customerIdBad'));
    if (v.from && v.to && v.from > v.to) throw new FieldError(toF, ctx.t('payments.toBeforeFrom'));
    const next = new URLSearchParams();
    for (const [k, x] of Object.entries(v)) if (x) next.set(k, x);
    filters = next;
    ctx.setParams(v);
    await load();
  });
  form.addEventListener('submit', (e) => { e.preventDefault(); submit(); });
  for (const f of [statusF, methodF, typeF]) f.input.addEventListener('change', () => form.requestSubmit());
  clear.addEventListener('click', () => {
    for (const f of fields) f.input.value = '';
    form.requestSubmit();
    statusF.input.focus();
  });

  // The CSV of what the filters find (owner and viewer: the only roles that see this section).
  const exportEl = exportButton(ctx, {
    label: ctx.t('payments.export'), busy: ctx.t('payments.exporting'), done: (file) => ctx.t('payments.exported', { file }),
    path: () => '/payments/export' + (filters.toString() ? '?' + filters : ''), name: 'payments',
  });

  view.replaceChildren(h('div', { class: 'admin-grid' },
    h('section', { class: 'card', 'aria-label': ctx.t('payments.filters') }, form),
    totalsBox,
    h('div', { class: 'pay-listhead' }, count, exportEl),
    table.el));
  await firstLoad(ctx, load, fields, table);
}
