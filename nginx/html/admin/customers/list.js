// The customers' list: GET /api/admin/customers with the search (Telegram id, @username,
// e-mail, name fragment, subscription link), the status and promo group filters and the
// joined-between dates, all in the URL; newest first in the shared table, paged by cursor
// ("More"). A row's name is a link to the card (#/customers?…&id=N, the filters kept); the
// whole row opens it on a click too. Owner and viewer export the filtered list as CSV
// (GET …/customers/export, fetched with the credential and saved as a Blob).

import { h } from '../../shared/dom.js';
import { field, formStatus, input, select, send } from '../form.js';
import { exportButton, firstLoad, pagedLoader, rowsOpen } from '../listing.js';
import { dataTable } from '../table.js';
import { STATUSES, blockedBadge, cardHash, displayName, filtersOf, moneyOf, statusBadge } from './common.js';

function columns(ctx, filters) {
  return [
    { key: 'name', label: ctx.t('customers.col.customer'), sortable: true, value: (c) => displayName(c),
      cell: (c) => h('div', { class: 'cust-who' },
        h('a', { class: 'cust-link', href: cardHash(filters(), c.id) }, displayName(c)),
        c.username ? h('span', { class: 'muted cust-sub' }, '@' + c.username) : null,
        c.is_blocked ? blockedBadge(ctx) : null) },
    { key: 'telegram_id', label: ctx.t('customers.col.telegram'), sortable: true, value: (c) => c.telegram_id,
      cell: (c) => (c.telegram_id === null || c.telegram_id === undefined ? '—' : h('span', { class: 'atable-code' }, String(c.telegram_id))) },
    { key: 'email', label: ctx.t('customers.col.email'), sortable: true,
      cell: (c) => (c.email ? h('span', { class: 'cust-email' }, c.email) : '—') },
    { key: 'subscription', label: ctx.t('customers.col.subscription'), sortable: true,
      value: (c) => (c.subscription ? c.subscription.expire_at : null),
      cell: (c) => h('div', { class: 'cust-subcell' }, statusBadge(ctx, c.subscription),
        c.subscription && c.subscription.expire_at
          ? h('span', { class: 'muted cust-sub' }, ctx.t('customers.until', { date: ctx.fmt.date(c.subscription.expire_at) })) : null) },
    { key: 'balance_minor', label: ctx.t('customers.col.balance'), sortable: true, num: true,
      cell: (c) => moneyOf(ctx, c.balance_minor, c.currency) },
    { key: 'promo_group', label: ctx.t('customers.col.group'), sortable: true, cell: (c) => c.promo_group || '—' },
    { key: 'created_at', label: ctx.t('customers.col.joined'), sortable: true,
      cell: (c) => h('time', { datetime: c.created_at }, ctx.fmt.date(c.created_at)) },
  ];
}

export async function renderList(view, ctx) {
  view.append(h('div', { class: 'skeleton skeleton-card' }));
  const groups = await ctx.api.get('/promo-groups').then((g) => (g && g.items) || []);
  let filters = filtersOf(ctx.params);

  // The filters (a form: Enter searches).
  const qF = field(ctx.t('customers.search'), input({ type: 'search', value: filters.get('q') || '', autocomplete: 'off', spellcheck: 'false' }),
    { names: ['q'], wide: true });
  qF.input.placeholder = ctx.t('customers.searchPlaceholder');
  const statusF = field(ctx.t('customers.status'), select([['', ctx.t('customers.status.all')],
    ...STATUSES.map((s) => [s, ctx.t('customers.status.' + s)])], filters.get('status') || ''), { names: ['status'] });
  const groupNames = groups.map((g) => g.name);
  const chosenGroup = filters.get('promo_group');
  if (chosenGroup && !groupNames.includes(chosenGroup)) groupNames.push(chosenGroup);
  const groupF = field(ctx.t('customers.group'), select([['', ctx.t('customers.group.any')],
    ...groupNames.map((n) => [n, n])], chosenGroup || ''), { names: ['promo_group'] });
  const fromF = field(ctx.t('customers.joinedFrom'), input({ type: 'date', value: filters.get('joined_from') || '' }), { names: ['joined_from'] });
  const toF = field(ctx.t('customers.joinedTo'), input({ type: 'date', value: filters.get('joined_to') || '' }), { names: ['joined_to'] });
  const fields = [qF, statusF, groupF, fromF, toF];
  const apply = h('button', { class: 'btn btn-primary', type: 'submit' }, ctx.t('customers.apply'));
  const clear = h('button', { class: 'btn btn-ghost', type: 'button' }, ctx.t('customers.clear'));
  const status = formStatus();
  const form = h('form', { class: 'admin-form cust-filters', role: 'search', 'aria-label': ctx.t('customers.filters') },
    h('div', { class: 'admin-fields' }, fields.map((f) => f.el)),
    h('div', { class: 'btn-row' }, apply, clear), status);

  const count = h('p', { class: 'muted cust-count', role: 'status' });
  const table = dataTable(ctx, {
    label: ctx.t('customers.list'), sortParam: 'sort', rowKey: (c) => String(c.id), empty: ctx.t('customers.empty'),
    columns: columns(ctx, () => filters),
  });
  rowsOpen(table, (id) => cardHash(filters, id));
  const load = pagedLoader(ctx, table, {
    path: '/customers', filters: () => filters, count, countKey: 'customers.count', countMoreKey: 'customers.countMore',
  });

  const submit = () => send(ctx, { fields, button: apply, status }, async () => {
    const next = new URLSearchParams();
    const values = { q: qF.input.value.trim(), status: statusF.input.value, promo_group: groupF.input.value,
      joined_from: fromF.input.value, joined_to: toF.input.value };
    for (const [k, v] of Object.entries(values)) if (v) next.set(k, v);
    filters = next;
    ctx.setParams(values);
    await load();
  });
  form.addEventListener('submit', (e) => { e.preventDefault(); submit(); });
  for (const f of [statusF, groupF]) f.input.addEventListener('change', () => form.requestSubmit());
  clear.addEventListener('click', () => {
    qF.input.value = '';
    statusF.input.value = '';
    groupF.input.value = '';
    fromF.input.value = '';
    toF.input.value = '';
    form.requestSubmit();
    qF.input.focus();
  });

  // The CSV of what the filters find (owner and viewer; support has no export).
  const exportEl = ctx.role === 'owner' || ctx.role === 'viewer'
    ? exportButton(ctx, {
      label: ctx.t('customers.export'), busy: ctx.t('customers.exporting'), done: (file) => ctx.t('customers.exported', { file }),
      path: () => '/customers/export' + (filters.toString() ? '?' + filters : ''), name: 'customers',
    })
    : null;

  view.replaceChildren(h('div', { class: 'admin-grid' },
    h('section', { class: 'card', 'aria-label': ctx.t('customers.filters') }, form),
    h('div', { class: 'cust-listhead' }, count, exportEl),
    table.el));
  // A search the server refuses (a name fragment too short, a bad date) is said next to its
  // field, with the form still there to correct it.
  await firstLoad(ctx, load, fields, table);
}
