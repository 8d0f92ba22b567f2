// /cabinet/buy: buying without an account (POST /auth/guest/purchase; the original's "Buy
// now"). The list prices of /public/plans, an online method, the e-mail; then the gateway's
// page in this tab. The answer's one-time sign-in is kept in this tab's sessionStorage with
// the payment: back here with ?payment=<id> (the gateway's return), the page trades it for a
// session (POST /auth/login/auto, which takes it only from this browser) and the cabinet
// opens on the payment's waiting page. Without it (another browser, storage cleared) the
// page says where the subscription link goes and how to sign in later.

import { ApiError } from '../../shared/api.js';
import { h, mount, safeUrl } from '../../shared/dom.js';
import { paymentParam, savePending } from '../pending.js';
import { explain, isOff, showOff } from './signin.js';

const KEY = 'cabinet.guest';

function readGuest() {
  try { return JSON.parse(sessionStorage.getItem(KEY) || 'null'); } catch { return null; }
}

// Back from the gateway: the stored sign-in for this payment, traded for a session.
async function comeBack(view, ctx, id) {
  const guest = readGuest();
  sessionStorage.removeItem(KEY);
  if (guest && guest.id === id && guest.token) {
    try {
      const s = await ctx.api.post('/auth/login/auto', { token: guest.token });
      ctx.session.adopt(s);   // the cabinet starts on the payment's page (cabinet/main.js)
      return true;
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 400) ctx.fail(e, { toast: true });
    }
  }
  mount(view, h('section', { class: 'auth', 'aria-labelledby': 'view-title' },
    h('h1', { class: 'view-title', id: 'view-title' }, ctx.t('cabinet.buy.back.title')),
    h('p', {}, ctx.t('cabinet.buy.back.text', { email: (guest && guest.email) || ctx.t('cabinet.buy.back.your_email') })),
    h('a', { class: 'btn btn-primary', href: '/cabinet/login?forgot=1' }, ctx.t('cabinet.forgot.link')),
    h('a', { class: 'btn btn-ghost', href: '/cabinet/' }, ctx.t('cabinet.signin.back'))));
  return false;
}

export default {
  async render(view, ctx) {
    const t = ctx.t;
    const back = paymentParam();
    if (back) {
      history.replaceState(null, '', '/cabinet/buy?payment=' + back);
      if (await comeBack(view, ctx, back)) return null;
      return null;
    }
    let catalog;
    try {
      catalog = await ctx.api.get('/public/plans');
    } catch (e) {
      if (isOff(e)) return showOff(view, ctx);
      return ctx.fail(e, { inline: view });
    }
    const currency = catalog.currency;
    const methods = catalog.payment_methods || [];
    const offers = [];
    for (const p of catalog.items || []) for (const d of p.durations || []) offers.push({ plan: p, d });
    const money = (minor) => ctx.fmt.money(minor, currency);

    const message = h('p', { class: 'field-error auth-message', role: 'alert', id: 'buy-message' });
    const email = h('input', { class: 'input', id: 'buy-email', name: 'email', type: 'email', required: true, autocomplete: 'email', maxlength: '254',
      'aria-describedby': 'buy-email-hint' });
    const submit = h('button', { class: 'btn btn-primary', type: 'submit' });
    // The app's option rows (app/screens/plans.js): the native radio, the whole row picks.
    const radio = (name, value, checked, label, price) => {
      const id = `buy-${name}-${value}`;
      return h('li', { class: 'option' },
        h('input', { type: 'radio', class: 'option-input', name, id, value, checked, required: true }),
        h('label', { class: 'option-label', for: id }, h('span', { class: 'option-name' }, label),
          price ? h('span', { class: 'option-price price' }, price) : null));
    };
    const group = (legend, items) => h('fieldset', { class: 'methods buy-group' }, h('legend', {}, legend), h('ul', { class: 'option-list' }, items));
    const plansBox = group(t('cabinet.buy.plan'),
      offers.map((o, i) => radio('offer', String(i), i === 0, `${o.plan.name} · ${t('cabinet.buy.days', { n: o.d.days })}`, money(o.d.price_minor))));
    const methodsBox = group(t('cabinet.buy.method'), methods.map((m, i) => radio('method', m.id, i === 0, m.label)));
    const form = h('form', { class: 'auth-form buy-form' }, plansBox, methodsBox,
      h('div', { class: 'field' }, h('label', { for: 'buy-email' }, t('cabinet.field.email')), email,
        h('p', { class: 'field-hint', id: 'buy-email-hint' }, t('cabinet.buy.email_hint'))),
      message, submit);
    const chosen = () => offers[Number(new FormData(form).get('offer'))];
    const label = () => { const o = chosen(); submit.textContent = o ? t('cabinet.buy.pay', { amount: money(o.d.price_minor) }) : t('cabinet.buy.pay_plain'); };
    form.addEventListener('change', label);
    label();
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const o = chosen();
      const method = new FormData(form).get('method');
      if (!email.value.trim() || !email.checkValidity()) { message.textContent = t('cabinet.buy.email_needed'); email.focus(); return; }
      submit.disabled = true;
      message.textContent = '';
      try {
        const r = await ctx.api.post('/auth/guest/purchase', {
          email: email.value.trim(), plan_id: o.plan.id, days: o.d.days, method, language: t.lang,
          return_url: location.origin + '/cabinet/buy',
        });
        const url = safeUrl(r.redirect_url);
        sessionStorage.setItem(KEY, JSON.stringify({ id: r.transaction_id, token: r.auto_login_token, email: email.value.trim() }));
        savePending({ id: Number(r.transaction_id), kind: 'gateway', url, before: null, away: true });
        if (url) location.assign(url);
      } catch (e) {
        if (isOff(e)) { showOff(view, ctx); return; }
        message.textContent = explain(ctx, e);
        submit.disabled = false;
      }
    });
    mount(view, h('section', { class: 'auth', 'aria-labelledby': 'view-title' },
      h('h1', { class: 'view-title', id: 'view-title' }, t('cabinet.buy.title')),
      h('p', { class: 'auth-lead' }, t('cabinet.buy.text')),
      offers.length && methods.length ? form : h('p', { role: 'status' }, t('cabinet.buy.none')),
      h('a', { class: 'btn btn-ghost', href: '/cabinet/' }, t('cabinet.buy.signin'))));
    return null;
  },
};
