// The card's record of a customer: balance changes (the ledger's 20 newest rows, with the
// reason), payments, referrals (who invited them, whom they invited, earnings), promo codes
// used, the support thread's summary (a link into Support) and the audit entries about
// them. Every text here came from someone (a reason, a description, a name): shown as text.

import { h } from '../../shared/dom.js';
import { facts, payloadText } from '../kit.js';
import { dataTable } from '../table.js';
import { cardHash, moneyOf } from './common.js';

function section(id, title, ...body) {
  return h('section', { class: 'card', 'aria-labelledby': id }, h('h2', { class: 'card-title', id }, title), ...body);
}

// A shared string when the table has one (payments.status.completed …), else the raw value.
const known = (ctx, prefix, v) => (v && ctx.t.has(prefix + v) ? ctx.t(prefix + v) : (v || '—'));

const when = (ctx, iso) => (iso ? h('time', { datetime: iso }, ctx.fmt.dateTime(iso)) : '—');

export function ledgerSection(ctx, card) {
  const cur = card.customer.currency;
  const t = dataTable(ctx, {
    label: ctx.t('customers.ledger'), rowKey: (r) => String(r.id), empty: ctx.t('customers.ledger.empty'),
    columns: [
      { key: 'at', label: ctx.t('customers.at'), cell: (r) => when(ctx, r.at) },
      { key: 'delta_minor', label: ctx.t('customers.ledger.delta'), num: true,
        cell: (r) => h('span', { class: r.delta_minor < 0 ? 'cust-minus' : 'cust-plus' }, moneyOf(ctx, r.delta_minor, cur, true)) },
      { key: 'balance_after', label: ctx.t('customers.ledger.after'), num: true, cell: (r) => moneyOf(ctx, r.balance_after, cur) },
      { key: 'reason', label: ctx.t('customers.ledger.reason'), cell: (r) => known(ctx, 'customers.ledger.why.', r.reason) },
      { key: 'note', label: ctx.t('customers.ledger.note'), cell: (r) => (r.note ? h('span', { class: 'cust-note' }, r.note) : '—') },
    ],
  });
  t.setRows(card.ledger || []);
  return section('cust-ledger', ctx.t('customers.ledger'), h('p', { class: 'muted' }, ctx.t('customers.newest20')), t.el);
}

export function paymentsSection(ctx, card) {
  const t = dataTable(ctx, {
    label: ctx.t('customers.payments'), rowKey: (r) => String(r.id), empty: ctx.t('customers.payments.empty'),
    columns: [
      { key: 'at', label: ctx.t('customers.at'), cell: (r) => (ctx.role === 'support' ? when(ctx, r.at) : h('a', { href: '#/payments?id=' + r.id }, when(ctx, r.at))) },
      { key: 'amount_minor', label: ctx.t('customers.payments.amount'), num: true, cell: (r) => moneyOf(ctx, r.amount_minor, r.currency) },
      { key: 'status', label: ctx.t('customers.payments.status'),
        cell: (r) => h('span', { class: 'badge badge-pay-' + (r.status === 'completed' ? 'done' : r.status) }, known(ctx, 'payments.status.', r.status)) },
      { key: 'method', label: ctx.t('customers.payments.method'),
        cell: (r) => [known(ctx, 'payments.method.', r.method), r.provider ? [' · ', h('span', { class: 'atable-code' }, r.provider)] : null] },
      { key: 'type', label: ctx.t('customers.payments.type'), cell: (r) => known(ctx, 'payments.type.', r.type) },
      { key: 'description', label: ctx.t('customers.payments.what'), cell: (r) => r.description || '—' },
    ],
  });
  t.setRows(card.payments || []);
  return section('cust-payments', ctx.t('customers.payments'), t.el);
}

function personLink(ctx, p) {
  return h('a', { href: cardHash(ctx.params, p.id) }, p.name || '#' + p.id);
}

export function referralsSection(ctx, card) {
  const r = card.referrals || { invited_by: null, invited_count: 0, earnings_minor: 0, invited: [] };
  const invited = r.invited || [];
  return section('cust-refs', ctx.t('customers.refs'),
    facts([
      [ctx.t('customers.refs.by'), r.invited_by ? personLink(ctx, r.invited_by) : ctx.t('customers.refs.nobody')],
      [ctx.t('customers.refs.count'), ctx.fmt.number(r.invited_count || 0)],
      [ctx.t('customers.refs.earned'), moneyOf(ctx, r.earnings_minor || 0, card.customer.currency)],
    ], 'cust-facts'),
    invited.length ? h('ul', { class: 'list cust-lines', 'aria-label': ctx.t('customers.refs.invited') },
      invited.map((p) => h('li', { class: 'list-item' }, personLink(ctx, p),
        h('span', { class: 'muted' }, ctx.fmt.date(p.created_at))))) : null);
}

export function promoSection(ctx, card) {
  const codes = card.promo_codes || [];
  return section('cust-promo', ctx.t('customers.promo'), codes.length
    ? h('ul', { class: 'list cust-lines' }, codes.map((c) => h('li', { class: 'list-item' },
      h('span', {}, h('span', { class: 'atable-code' }, c.code), ' ',
        h('span', { class: 'muted' }, ctx.t.has('admin.promo.reward.' + c.reward_type) ? ctx.t('admin.promo.reward.' + c.reward_type) : c.reward_type)),
      h('span', { class: 'muted' }, ctx.fmt.dateTime(c.at)))))
    : h('p', { class: 'muted' }, ctx.t('customers.promo.none')));
}

export function supportSection(ctx, card) {
  const s = card.support;
  return section('cust-support', ctx.t('customers.support'), !s
    ? h('p', { class: 'muted' }, ctx.t('customers.support.none'))
    : [facts([
      [ctx.t('customers.support.status'), h('span', { class: 'badge badge-ticket-' + s.status }, known(ctx, 'support.status.', s.status))],
      [ctx.t('customers.support.messages'), ctx.fmt.number(s.message_count || 0)],
      [ctx.t('customers.support.updated'), when(ctx, s.updated_at)],
    ], 'cust-facts'),
    h('a', { class: 'btn btn-small', href: '#/support?ticket=' + encodeURIComponent(s.ticket_id) }, ctx.t('customers.support.open'))]);
}

export function auditSection(ctx, card) {
  const items = card.audit || [];
  const name = (a) => (ctx.t.has('admin.action.' + a) ? ctx.t('admin.action.' + a) : a);
  return section('cust-audit', ctx.t('customers.audit'), items.length
    ? h('ul', { class: 'list audit-list' }, items.map((e) => {
      const payload = payloadText(e.payload);
      return h('li', { class: 'list-item audit-entry' }, h('div', { class: 'audit-main' },
        h('p', { class: 'audit-head' }, h('strong', {}, name(e.action))),
        h('p', { class: 'muted audit-meta' }, h('span', {}, e.actor || ''), ' · ', when(ctx, e.at)),
        payload ? h('pre', { class: 'audit-payload' }, payload) : null));
    }))
    : h('p', { class: 'muted' }, ctx.t('customers.audit.none')));
}
