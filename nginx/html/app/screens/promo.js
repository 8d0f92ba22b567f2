// Promo code: one labelled field → POST /promocode {code}. The code is trimmed here (the
// server compares case-insensitively). {ok: false} is not an HTTP error: the server's
// reason is shown under the field. On success: what was granted, and /me is reloaded so
// the balance and the subscription are current everywhere.

import { h } from '../../shared/dom.js';

const REWARDS = ['balance', 'days', 'subscription', 'discount'];

function grantedText(ctx, type) {
  const me = ctx.me;
  if (type === 'balance' && me.app.balance_enabled) return ctx.t('promo.done.balance', { balance: ctx.fmt.money(me.user.balance_minor) });
  if ((type === 'days' || type === 'subscription') && me.subscription) return ctx.t('promo.done.' + type, { date: ctx.fmt.date(me.subscription.expire_at) });
  return ctx.t(REWARDS.includes(type) ? 'promo.done.' + type + '.short' : 'promo.done.other');
}

export default {
  title: 'promo.title',
  tab: 'account',
  parent: 'account',
  async render(view, ctx) {
    const input = h('input', {
      class: 'input', id: 'promo-code', name: 'code', type: 'text', autocomplete: 'off', autocapitalize: 'characters',
      spellcheck: 'false', maxlength: '80', required: true, 'aria-describedby': 'promo-hint promo-error',
    });
    const error = h('p', { class: 'field-error', id: 'promo-error', role: 'alert' });
    const result = h('div', { class: 'promo-result', role: 'status' });
    const submit = h('button', { class: 'btn btn-primary', type: 'submit' }, ctx.t('promo.submit'));
    let busy = false;

    const setError = (text) => {
      error.textContent = text || '';
      if (text) input.setAttribute('aria-invalid', 'true'); else input.removeAttribute('aria-invalid');
    };

    async function activate(e) {
      e.preventDefault();
      if (busy) return;
      const code = input.value.trim();
      result.replaceChildren();
      if (code.length < 2 || code.length > 64) { setError(ctx.t('promo.invalid')); input.focus(); return; }
      setError('');
      busy = true;
      submit.disabled = true;
      try {
        const r = await ctx.api.post('/promocode', { code });
        if (!r || !r.ok) {
          ctx.tg.haptic('error');
          setError((r && r.message) || ctx.t('promo.failed'));
          input.focus();
          return;
        }
        await ctx.reloadMe().catch(() => null);
        input.value = '';
        const text = grantedText(ctx, r.reward_type);
        ctx.success();   // haptic only: the result below is the message (and is announced)
        result.replaceChildren(h('div', { class: 'card promo-done' },
          h('p', { class: 'promo-done-title' }, text),
          r.message ? h('p', { class: 'muted' }, r.message) : null,
          (r.reward_type === 'days' || r.reward_type === 'subscription')
            ? h('a', { class: 'link', href: '#/home' }, ctx.t('promo.to_home')) : null,
          r.reward_type === 'discount' ? h('a', { class: 'link', href: '#/plans' }, ctx.t('promo.to_plans')) : null));
      } catch (err) {
        ctx.fail(err);
      } finally {
        busy = false;
        submit.disabled = false;
      }
    }

    view.replaceChildren(
      h('form', { class: 'card promo-form', novalidate: true, onsubmit: activate },
        h('div', { class: 'field' },
          h('label', { for: 'promo-code' }, ctx.t('promo.label')),
          input,
          h('p', { class: 'muted field-hint', id: 'promo-hint' }, ctx.t('promo.hint')),
          error),
        submit),
      result);
  },
};
