// The autopay card on the home screen (GET/PUT /subscription/autopay): a switch, and what it
// will take from the balance and when, so nobody is surprised by a charge; a warning when
// the balance would not cover it. Shown for a paid subscription of a shop with the balance
// on, and only once the server named a charge (nothing to renew with: no card). Loaded by
// the home screen only for such a subscription, so nobody else downloads it.

import { h } from '../shared/dom.js';

function chargeText(ctx, v) {
  const c = v.next_charge;
  const params = {
    amount: ctx.fmt.money(c.amount_minor, c.currency), plan: c.plan_name,
    days: ctx.t('autopay.days', { n: c.days }), date: ctx.fmt.date(c.charge_from),
  };
  return ctx.t(v.enabled ? 'autopay.next.on' : 'autopay.next.off', params);
}

function fill(card, ctx, v) {
  const input = h('input', { type: 'checkbox', role: 'switch', id: 'autopay-switch', checked: v.enabled });
  const lines = [h('p', { class: 'autopay-text' }, chargeText(ctx, v))];
  if (v.enabled && !v.next_charge.balance_enough) {
    lines.push(h('p', { class: 'autopay-short', role: 'note' },
      ctx.t('autopay.short', { amount: ctx.fmt.money(v.next_charge.amount_minor, v.next_charge.currency), date: ctx.fmt.date(v.next_charge.charge_from) })));
  }
  input.addEventListener('change', async () => {
    input.disabled = true;
    try {
      const next = await ctx.api.put('/subscription/autopay', { enabled: input.checked });
      ctx.success(ctx.t(next.enabled ? 'autopay.done.on' : 'autopay.done.off'));
      fill(card, ctx, next);
    } catch (err) {
      input.checked = !input.checked;
      input.disabled = false;
      ctx.fail(err);
    }
  });
  card.replaceChildren(
    h('div', { class: 'autopay-head' },
      h('label', { class: 'autopay-label', for: 'autopay-switch' }, ctx.t('autopay.switch')), input),
    ...lines);
}

// Fills the home screen's placeholder (screens/home.js autopaySlot), which stays hidden when
// the server names no charge or cannot be asked. Its strings are not in the first screen's
// table (shared/i18n.js firstTranslator): it waits for the whole one, which the answer
// could otherwise beat (the demo's always does), showing keys.
export async function fillAutopayCard(card, ctx) {
  try {
    const [v] = await Promise.all([ctx.api.get('/subscription/autopay'), ctx.t.whole && ctx.t.whole()]);
    if (!v || !v.next_charge) return;
    fill(card, ctx, v);
    card.hidden = false;
  } catch {
    // a card that cannot say what it charges is left out
  }
}
