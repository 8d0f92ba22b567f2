// The refund of one payment (the detail's side): POST /api/admin/payments/{id}/refund
// {reason} with an Idempotency-Key, the owner's alone. Shown as a form only when the server
// says the payment can be refunded (`refundable`), else its note why not (`refund_note`:
// refunded already, not completed, CryptoBot…). The reason is required (kept in the audit
// log, on the customer's card); the button asks "are you sure" in place; one key per
// submitted form, kept while the same form is sent again after an answer was lost, so the
// second try refunds nothing twice (form.js keyKeeper). A refusal (409: the
// provider said no, someone refunded it meanwhile) is shown as the server words it.
// After a refund the detail is asked for again and a toast says so.

import { ApiError } from '../../shared/api.js';
import { h } from '../../shared/dom.js';
import { FieldError, field, formStatus, keyKeeper, send, textarea } from '../form.js';
import { confirmInPlace } from '../kit.js';
import { amountOf, customerName, known } from './common.js';

export function refundBox(ctx, detail, { refunded }) {
  const p = detail.payment;
  // The server's note, in the owner's language when it is one we know.
  const why = known(ctx, 'payments.note.', detail.refund_note || '');
  const heading = h('h2', { class: 'card-title', id: 'pay-refund', tabindex: '-1' }, ctx.t('payments.refund'));
  const note = h('p', { class: detail.refundable ? 'pay-refund-note' : 'muted pay-refund-note' },
    ctx.t(detail.refundable ? 'payments.refund.how' : 'payments.refund.not', { how: why, why }));
  // Refunded from here: who and why (the audit entry).
  const by = detail.refunded_by;
  const byLine = by ? h('p', { class: 'pay-refund-by' }, ctx.t('payments.refund.by', { who: by.actor, when: ctx.fmt.dateTime(by.at) }),
    by.reason ? h('span', { class: 'pay-text' }, ' ' + ctx.t('payments.refund.byWhy', { why: by.reason })) : null) : null;
  const box = h('section', { class: 'card pay-refund', 'aria-labelledby': 'pay-refund' }, heading, note, byLine);
  const result = { el: box, focus: () => heading.focus() };
  if (!detail.refundable) return result;
  if (ctx.role !== 'owner') {
    box.append(h('p', { class: 'notice admin-readonly', role: 'note' }, ctx.t('payments.refund.ownerOnly')));
    return result;
  }

  const amount = amountOf(ctx, p.amount_minor, p.currency);
  const reasonF = field(ctx.t('payments.refund.reason'), textarea({ rows: 3, maxlength: 500 }),
    { names: ['reason'], hint: ctx.t('payments.refund.reasonHint'), wide: true });
  const button = h('button', { class: 'btn btn-danger', type: 'submit' }, ctx.t('payments.refund.go', { amount }));
  const status = formStatus();
  const keys = keyKeeper(ctx);
  const form = h('form', { class: 'admin-form pay-refund-form', 'aria-label': ctx.t('payments.refund') },
    h('fieldset', {}, reasonF.el, h('div', { class: 'btn-row' }, button), status));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (button.disabled) return;
    send(ctx, { fields: [reasonF], button, status }, async () => {
      const reason = reasonF.input.value.trim();
      if (!reason) throw new FieldError(reasonF, ctx.t('payments.refund.reasonNeeded'));
      const question = ctx.t('payments.refund.ask', { amount, name: customerName(p.customer) });
      if (!(await confirmInPlace(ctx, button, question, ctx.t('payments.refund.yes'), true))) return;
      const body = { reason };
      let after;
      try {
        after = await ctx.api.post(`/payments/${p.id}/refund`, body, { idempotencyKey: keys.take(body) });
      } catch (err) {
        keys.settle(err);
        // The server's reason as it says it (the provider's own words among them).
        if (err instanceof ApiError && err.status === 409 && err.detail) {
          status.textContent = err.detail;
          status.dataset.kind = 'error';
          return;
        }
        throw err;
      }
      keys.settle(null);
      ctx.success(ctx.t('payments.refund.done', { id: p.id, amount }));
      // The detail again, as it is now (the answer itself when it cannot be asked for).
      await refunded(await ctx.api.get('/payments/' + p.id).catch(() => after));
    });
  });
  box.append(form);
  return result;
}
