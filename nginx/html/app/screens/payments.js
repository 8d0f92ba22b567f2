// Payments: the last 20 transactions (GET /payments), newest first as the server sends
// them: what it was, its state, the amount with its direction (+ money in, − money out)
// and the date. Direction is also said in words for screen readers, not only by a sign.
// An open payment says until when it can be paid, and can be canceled here (confirmed in
// place: POST /payments/{id}/cancel).

import { h } from '../../shared/dom.js';

const CREDIT = new Set(['deposit', 'referral_reward', 'refund', 'gift']);
const TYPES = ['deposit', 'withdrawal', 'subscription_payment', 'refund', 'referral_reward', 'gift'];
const STATUSES = ['pending', 'completed', 'canceled', 'refunded', 'failed'];

const METHODS = ['balance', 'promo', 'stars', 'referral'];

// How it was paid: the shop's own label for a gateway, ours for the rest, else nothing.
function methodText(ctx, method) {
  const gateway = (ctx.me.app.payment_methods || []).find((m) => m && m.id === method);
  if (gateway && gateway.label) return String(gateway.label);
  return METHODS.includes(method) ? ctx.t('payments.method.' + method) : null;
}

// "Open until …" and Cancel, with its confirmation in place, under an open payment.
function openControls(ctx, p, rerender) {
  const box = h('div', { class: 'payment-open' });
  const ask = () => box.replaceChildren(
    h('p', { class: 'payment-confirm' }, ctx.t('payments.cancel.confirm')),
    h('div', { class: 'btn-row' }, h('button', {
      class: 'btn btn-danger', type: 'button',
      onclick: async (e) => {
        e.currentTarget.disabled = true;
        try {
          await ctx.api.post(`/payments/${p.id}/cancel`, {});
          ctx.success(ctx.t('payments.cancel.done'));
        } catch (err) {
          ctx.fail(err);
        }
        rerender();
      },
    }, ctx.t('payments.cancel.yes')),
    h('button', { class: 'btn btn-ghost', type: 'button', onclick: () => show() }, ctx.t('payments.cancel.no'))));
  const show = () => box.replaceChildren(
    h('span', { class: 'muted payment-until' }, ctx.t('payments.open_until', { time: ctx.fmt.dateTime(p.expires_at) })),
    h('button', { class: 'btn btn-ghost', type: 'button', onclick: ask }, ctx.t('payments.cancel')));
  show();
  return box;
}

function row(ctx, p, rerender) {
  const credit = CREDIT.has(p.type);
  const type = TYPES.includes(p.type) ? ctx.t('payments.type.' + p.type) : String(p.type || '');
  const status = STATUSES.includes(p.status) ? ctx.t('payments.status.' + p.status) : String(p.status || '');
  const amount = (credit ? '+' : '−') + ctx.fmt.money(Math.abs(Number(p.amount_minor) || 0), p.currency || ctx.me.user.currency);
  const done = p.status === 'completed';
  return h('li', { class: 'list-item payment', 'data-type': p.type, 'data-status': p.status },
    h('div', { class: 'payment-main' },
      h('span', { class: 'payment-type' }, type),
      h('span', { class: 'payment-meta muted' },
        h('time', { datetime: p.created_at }, ctx.fmt.dateTime(p.created_at)),
        methodText(ctx, p.method) ? ' · ' + methodText(ctx, p.method) : null)),
    h('div', { class: 'payment-side' },
      h('span', { class: 'payment-amount ' + (credit ? 'amount-in' : 'amount-out') },
        h('span', { class: 'visually-hidden' }, ctx.t(credit ? 'payments.in' : 'payments.out') + ': '),
        amount),
      h('span', { class: 'badge badge-pay-' + (done ? 'done' : p.status) }, status)),
    p.status === 'pending' && p.expires_at ? openControls(ctx, p, rerender) : null);
}

export default {
  title: 'payments.title',
  tab: 'account',
  parent: 'account',
  async render(view, ctx) {
    const rerender = () => this.render(view, ctx).catch((e) => ctx.fail(e, { inline: view }));
    view.replaceChildren(h('div', { class: 'skeleton skeleton-card' }));
    const data = await ctx.api.get('/payments');
    const items = Array.isArray(data && data.items) ? data.items : [];
    if (!items.length) {
      view.replaceChildren(h('div', { class: 'empty' },
        h('p', {}, ctx.t('payments.empty')),
        h('a', { class: 'btn', href: '#/plans' }, ctx.t('payments.empty.action'))));
      return;
    }
    view.replaceChildren(...[
      h('ul', { class: 'list payments-list', 'aria-label': ctx.t('payments.list') }, items.map((p) => row(ctx, p, rerender))),
      items.length >= 20 ? h('p', { class: 'muted payments-note' }, ctx.t('payments.last20')) : null,
    ].filter(Boolean));
  },
};
