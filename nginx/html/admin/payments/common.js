// What the payments' list and a payment's detail share: the list's filters as they stand
// in the URL (#/payments?status=…&method=…; the detail adds &id=N so Back and "back to the
// list" find the same list again), the words for a status, a method and a type, and an
// amount in its currency (stars as stars).

import { h } from '../../shared/dom.js';
import { filtersFrom, sectionHash } from '../listing.js';

export const STATUSES = ['pending', 'completed', 'canceled', 'refunded', 'failed'];
export const METHODS = ['balance', 'stars', 'yookassa', 'cryptobot', 'promo', 'referral'];
export const TYPES = ['deposit', 'subscription_payment', 'gift', 'referral_reward', 'refund', 'withdrawal'];
export const FILTERS = ['status', 'method', 'type', 'customer', 'from', 'to'];

// The list's filters from the URL, and the links that keep them.
export const filtersOf = (params) => filtersFrom(params, FILTERS);
export const detailHash = (params, id) => sectionHash('payments', params, FILTERS, id);
export const listHash = (params) => sectionHash('payments', params, FILTERS);

// A shared string when a table has one, else the raw value (a method we do not know yet).
export const known = (ctx, prefix, v) => (v && ctx.t.has(prefix + v) ? ctx.t(prefix + v) : (v || '—'));

export const methodName = (ctx, m) => known(ctx, 'payments.via.', m);
export const typeName = (ctx, type) => known(ctx, 'payments.type.', type);

export function statusBadge(ctx, status) {
  return h('span', { class: 'badge badge-pay-' + (status === 'completed' ? 'done' : status) }, known(ctx, 'payments.status.', status));
}

// 19900 RUB → "199 ₽"; negative amounts keep their sign.
export function amountOf(ctx, minor, currency) {
  const text = ctx.fmt.money(Math.abs(Number(minor) || 0), currency || ctx.currency);
  return Number(minor) < 0 ? '−' + text : text;
}

// The customer as people read them: "Anna", else "@anna", else "#42" (always text).
export function customerName(c) {
  if (!c) return '—';
  if (c.first_name && String(c.first_name).trim()) return String(c.first_name);
  if (c.username) return '@' + c.username;
  return '#' + c.id;
}

export function customerLink(ctx, c) {
  if (!c) return '—';
  return h('a', { class: 'pay-customer', href: '#/customers?id=' + encodeURIComponent(c.id) }, customerName(c));
}

export const when = (ctx, iso) => (iso ? h('time', { datetime: iso }, ctx.fmt.dateTime(iso)) : '—');
