// A payment's detail (#/payments?id=N, the list's filters kept for "back to the list"):
// GET /api/admin/payments/{id}: every field, the customer (a link to their card), the
// history of what each provider notification did to it (the webhook history, oldest
// first), and for the owner the refund (payments/refund.js) when the server says it can be
// refunded, else the server's note why not.

import { ApiError } from '../../shared/api.js';
import { h } from '../../shared/dom.js';
import { facts } from '../kit.js';
import { dataTable } from '../table.js';
import { amountOf, customerLink, known, listHash, methodName, statusBadge, typeName, when } from './common.js';
import { refundBox } from './refund.js';

// An event's amount is in its provider's units: stars for Telegram Stars, else the
// payment's currency in minor units.
function eventAmount(ctx, e, payment) {
  if (e.amount === null || e.amount === undefined) return '—';
  return e.provider === 'stars' ? ctx.fmt.stars(e.amount) : amountOf(ctx, e.amount, payment.currency);
}

function eventsSection(ctx, detail) {
  const t = dataTable(ctx, {
    label: ctx.t('payments.events'), empty: ctx.t('payments.events.none'),
    columns: [
      { key: 'at', label: ctx.t('payments.events.at'), cell: (e) => when(ctx, e.at) },
      { key: 'provider', label: ctx.t('payments.events.provider'), cell: (e) => known(ctx, 'payments.via.', e.provider) },
      { key: 'outcome', label: ctx.t('payments.events.outcome'), cell: (e) => known(ctx, 'payments.outcome.', e.outcome) },
      { key: 'amount', label: ctx.t('payments.events.amount'), num: true, cell: (e) => eventAmount(ctx, e, detail.payment) },
    ],
  });
  t.setRows(detail.events || []);
  return h('section', { class: 'card', 'aria-labelledby': 'pay-events' },
    h('h2', { class: 'card-title', id: 'pay-events' }, ctx.t('payments.events')),
    h('p', { class: 'muted' }, ctx.t('payments.events.hint')), t.el);
}

function paymentSection(ctx, p) {
  const c = p.customer || {};
  return h('section', { class: 'card pay-main', 'aria-labelledby': 'pay-title' },
    h('div', { class: 'pay-title' },
      h('h2', { class: 'card-title', id: 'pay-title', tabindex: '-1' }, ctx.t('payments.detail.title', { id: p.id })),
      statusBadge(ctx, p.status)),
    h('p', { class: 'pay-big' }, amountOf(ctx, p.amount_minor, p.currency)),
    facts([
      [ctx.t('payments.col.customer'), h('span', { class: 'pay-who' }, customerLink(ctx, p.customer),
        c.username ? h('span', { class: 'muted pay-sub' }, '@' + c.username) : null)],
      [ctx.t('payments.detail.telegram'), c.telegram_id === null || c.telegram_id === undefined ? '—' : h('span', { class: 'atable-code' }, String(c.telegram_id))],
      [ctx.t('payments.col.type'), typeName(ctx, p.type)],
      [ctx.t('payments.col.method'), methodName(ctx, p.method)],
      [ctx.t('payments.detail.provider'), p.provider ? known(ctx, 'payments.via.', p.provider) : '—'],
      [ctx.t('payments.col.providerId'), p.provider_payment_id ? h('span', { class: 'atable-code' }, p.provider_payment_id) : '—'],
      [ctx.t('payments.col.plan'), p.plan_name || '—'],
      [ctx.t('payments.detail.description'), p.description ? h('span', { class: 'pay-text' }, p.description) : '—'],
      [ctx.t('payments.detail.currency'), p.currency],
      [ctx.t('payments.detail.created'), when(ctx, p.created_at)],
      [ctx.t('payments.detail.paid'), when(ctx, p.paid_at)],
      [ctx.t('payments.detail.completed'), when(ctx, p.completed_at)],
    ], 'pay-facts'));
}

function notFound(view, ctx) {
  view.replaceChildren(h('div', { class: 'empty' },
    h('p', {}, ctx.t('payments.notFound')),
    h('a', { class: 'btn', href: listHash(ctx.params) }, ctx.t('payments.back'))));
}

export async function renderDetail(view, ctx, rawId) {
  view.append(h('div', { class: 'skeleton skeleton-card' }), h('div', { class: 'skeleton skeleton-line' }));
  if (!/^[1-9]\d{0,17}$/.test(rawId)) return notFound(view, ctx);
  let gone = false;

  // Draws `detail`; after a refund the heading or the refund's result takes the focus.
  function draw(detail, focus = null) {
    if (gone) return;
    const back = h('a', { class: 'btn btn-ghost btn-small pay-back', href: listHash(ctx.params) }, ctx.t('payments.back'));
    const refund = refundBox(ctx, detail, { refunded: (after) => draw(after, 'refund') });
    view.replaceChildren(h('div', { class: 'pay-detail' },
      h('div', { class: 'pay-top' }, back, paymentSection(ctx, detail.payment)),
      h('div', { class: 'pay-side' }, refund.el),
      h('div', { class: 'pay-data admin-grid' }, eventsSection(ctx, detail))));
    if (focus === 'refund') refund.focus();
  }

  let detail;
  try {
    detail = await ctx.api.get('/payments/' + rawId);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return notFound(view, ctx);
    throw e;
  }
  draw(detail);
  return () => { gone = true; };
}
