// What the customers' list and card share: a customer's name as people read it (always
// text: names are the customer's own words), the subscription's badge, and the list's
// filters as they stand in the URL (#/customers?q=…&status=…; the card adds &id=N so Back
// and "back to the list" find the same list again).

import { h } from '../../shared/dom.js';
import { filtersFrom, sectionHash } from '../listing.js';

export const STATUSES = ['active', 'trial', 'expired', 'none', 'blocked'];
export const FILTERS = ['q', 'status', 'promo_group', 'joined_from', 'joined_to'];

// "Anna Smith", else "@anna", else "#42": never empty, never markup.
export function displayName(c) {
  const full = [c.first_name, c.last_name].filter((x) => x && String(x).trim()).join(' ').trim();
  if (full) return full;
  if (c.username) return '@' + c.username;
  return '#' + c.id;
}

// The list's filters from the URL, and the links that keep them.
export const filtersOf = (params) => filtersFrom(params, FILTERS);
export const cardHash = (params, id) => sectionHash('customers', params, FILTERS, id);
export const listHash = (params) => sectionHash('customers', params, FILTERS);

const BADGE = {
  active: 'badge-active', trial: 'badge-trial', limited: 'badge-limited', expired: 'badge-expired',
  disabled: 'badge-disabled', pending: 'badge-pending', none: 'badge-disabled',
};

// The effective subscription status's badge ("No subscription" when there is none).
export function statusBadge(ctx, sub) {
  const s = sub ? sub.status : 'none';
  const text = ctx.t.has('status.' + s) ? ctx.t('status.' + s) : s;
  return h('span', { class: 'badge ' + (BADGE[s] || 'badge-pending') }, text);
}

export function blockedBadge(ctx) {
  return h('span', { class: 'badge badge-expired cust-blocked' }, ctx.t('customers.blocked'));
}

// Money of the customer's own currency, signed when asked ("+100 ₽", "−50 ₽").
export function moneyOf(ctx, minor, currency, signed = false) {
  const text = ctx.fmt.money(Math.abs(Number(minor) || 0), currency || ctx.currency);
  if (!signed) return Number(minor) < 0 ? '−' + text : text;
  return (Number(minor) < 0 ? '−' : '+') + text;
}
