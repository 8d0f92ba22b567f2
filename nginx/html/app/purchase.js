// The checkout under the plans screen: the payment method (balance, Telegram Stars inside
// Telegram, the owner's online gateways), the Pay button (and Telegram's Main button), and
// what follows POST /purchase: paid at once (balance, free), a Stars invoice, or a payment
// page, after which the screen waits for the webhook and the worker by polling /me.
//
//   const checkout = createCheckout(ctx, { onBack, onWait });   // onWait: hide the choice;
//                                                       // onBack: show the plans again
//   view.append(checkout.el); checkout.update(order);   // order: {body, price_minor,
//                                                       //  base_price_minor?, stars, label}
//   return checkout.cleanup;                            // stops the polling
//
// A page may take online payments over with ctx.onlinePayment({transaction_id,
// redirect_url | invoice_link, method, before}) (the web cabinet: cabinet/main.js).

import { h } from '../shared/dom.js';

const POLL_EVERY_MS = 1500;
const POLL_FOR_MS = 60000;

let uid = 0;

const expiryOf = (me) => (me && me.subscription && me.subscription.status !== 'pending' ? me.subscription.expire_at : null);

// The methods this customer can use here, in the order they are offered.
export function paymentMethods(ctx) {
  const { app } = ctx.me;
  const list = [];
  if (app.balance_enabled) list.push({ id: 'balance' });
  // Stars: inside Telegram as an invoice; in the web cabinet (ctx.web) the invoice link opens
  // Telegram, where anyone with an account can pay it (it is tied to the transaction).
  if (ctx.tg.inTelegram || ctx.web) list.push({ id: 'stars' });
  for (const m of Array.isArray(app.payment_methods) ? app.payment_methods : []) {
    if (m && typeof m.id === 'string' && m.id !== 'balance' && m.id !== 'stars') list.push({ id: m.id, label: String(m.label || m.id) });
  }
  return list;
}

export function createCheckout(ctx, { onBack, onWait }) {
  const { t, fmt } = ctx;
  const n = ++uid;
  const methods = paymentMethods(ctx);
  let order = null;
  let method = null;
  let busy = false;
  let pending = null;          // {sig, key}: the Idempotency-Key of a purchase not yet answered for good
  let poll = null;             // {timer, until, before}
  let alive = true;

  const balance = () => ctx.me.user.balance_minor;
  const priceText = () => (method === 'stars' ? fmt.stars(order.stars) : fmt.money(order.price_minor));
  const payLabel = () => t('plans.pay', { price: priceText() });

  // ---- markup ----
  const totalValue = h('strong', { class: 'checkout-price price price-now' });
  const totalOld = h('span', { class: 'checkout-price-old' });
  const starsEquiv = h('p', { class: 'checkout-stars muted' });
  const summary = h('p', { class: 'checkout-summary summary' });
  const note = h('div', { class: 'checkout-note', role: 'status', 'aria-live': 'polite' });
  const payBtn = h('button', { class: 'btn btn-primary btn-wide pay-button', type: 'button', onclick: () => pay() });
  const notes = new Map();     // method id → its note element

  const methodList = h('ul', { class: 'method-list' }, methods.map((m) => {
    const id = `pay-${n}-${m.id}`;
    const noteEl = h('span', { class: 'method-note muted', id: id + '-note' });
    notes.set(m.id, noteEl);
    const name = m.id === 'balance' ? t('plans.method.balance')
      : m.id === 'stars' ? t(ctx.web && !ctx.tg.inTelegram ? 'plans.method.stars_web' : 'plans.method.stars') : m.label;
    return h('li', { class: 'method choice method-' + (m.id === 'balance' || m.id === 'stars' ? m.id : 'gateway') },
      h('input', {
        type: 'radio', name: `pay-${n}`, id, value: m.id, class: 'option-input', 'aria-describedby': id + '-note',
        onchange: () => { method = m.id; note.replaceChildren(); refresh(); },
      }),
      h('label', { for: id, class: 'option-label' }, h('span', { class: 'method-name' }, name)),
      noteEl);
  }));

  const form = h('section', { class: 'card checkout', 'aria-labelledby': `checkout-${n}-title` },
    h('h2', { class: 'card-title', id: `checkout-${n}-title` }, t('plans.checkout.title')),
    summary,
    h('p', { class: 'checkout-total' }, h('span', { class: 'muted' }, t('plans.total') + ' '), totalValue, ' ', totalOld),
    starsEquiv,
    methods.length
      ? h('fieldset', { class: 'methods' }, h('legend', {}, t('plans.method.legend')), methodList)
      : h('p', { class: 'empty' }, t('plans.method.none')),
    note,
    methods.length ? payBtn : null);
  const el = h('div', { class: 'checkout-area' }, form);

  function pick(id) {
    method = id;
    const input = methodList.querySelector(`input[value="${CSS.escape(id)}"]`);
    if (input) input.checked = true;
  }

  function refresh() {
    if (!order) { form.hidden = true; ctx.tg.mainButton.hide(); return; }
    form.hidden = false;
    summary.textContent = order.label;
    totalValue.textContent = fmt.money(order.price_minor);
    totalOld.replaceChildren();
    if (order.base_price_minor > order.price_minor) {
      totalOld.append(h('del', { class: 'price-old' }, h('span', { class: 'visually-hidden' }, t('plans.was') + ' '), fmt.money(order.base_price_minor)));
    }
    const showStars = ctx.tg.inTelegram || ctx.demo || ctx.web;
    starsEquiv.hidden = !showStars;
    starsEquiv.textContent = showStars ? t('plans.stars_equiv', { stars: fmt.stars(order.stars) }) : '';
    if (notes.has('balance')) {
      const short = order.price_minor - balance();
      notes.get('balance').textContent = short > 0
        ? t('plans.method.balance.short', { balance: fmt.money(balance()), short: fmt.money(short) })
        : t('plans.method.balance.enough', { balance: fmt.money(balance()) });
    }
    if (notes.has('stars')) notes.get('stars').textContent = fmt.stars(order.stars);
    if (!method) {
      const enough = methods.some((m) => m.id === 'balance') && balance() >= order.price_minor;
      const first = enough ? methods[0] : methods.find((m) => m.id !== 'balance') || methods[0];
      if (first) pick(first.id);
    }
    if (!methods.length) return;
    payBtn.textContent = busy ? t('plans.paying') : payLabel();
    payBtn.disabled = busy;
    payBtn.setAttribute('aria-busy', busy ? 'true' : 'false');
    ctx.tg.mainButton.show({ text: payLabel(), onClick: pay, active: !busy, progress: busy });
  }

  // ---- paying ----
  // `busy` holds from the tap until the outcome is on screen (home, the waiting card, an
  // error), so a second tap can never start a second purchase.
  async function pay() {
    if (busy || !order || !method || !alive) return;
    const body = { ...order.body, method };
    const sig = JSON.stringify(body);
    if (!pending || pending.sig !== sig) pending = { sig, key: ctx.api.newKey() };
    busy = true;
    refresh();
    const before = expiryOf(ctx.me);
    try {
      const r = await ctx.api.post('/purchase', body, { idempotencyKey: pending.key });
      pending = null;
      if (r.paid_with) await finish();
      // The web cabinet takes online payments over (the gateway's page in this tab and back).
      else if (ctx.onlinePayment && (r.invoice_link || r.redirect_url)) await ctx.onlinePayment({ ...r, method, before });
      else if (r.invoice_link) await stars(r.invoice_link, before);
      else if (r.redirect_url) gateway(r.redirect_url, before);
    } catch (e) {
      await failed(e);
    } finally {
      busy = false;
      if (alive && !poll) refresh();
    }
  }

  async function failed(e) {
    // The outcomes explained in place below are not repeated as a toast.
    ctx.fail(e, { toast: ![402, 409, 502, 503].includes(e.status) });
    if (e.status === 409) {
      pending = null;
      note.replaceChildren(h('p', { class: 'checkout-alert' }, t('plans.already')));
      await ctx.reloadMe().catch(() => {});
    } else if (e.status === 402) {
      await ctx.reloadMe().catch(() => {});
      // Another way: a gateway first (a top-up is a payment there), else Stars.
      const others = [...methods.filter((m) => m.id !== 'balance' && m.id !== 'stars'), ...methods.filter((m) => m.id === 'stars')];
      const short = Math.max(0, order.price_minor - balance());
      note.replaceChildren(h('div', { class: 'checkout-alert checkout-short', role: 'alert' },
        h('strong', {}, t('plans.short.title')),
        h('p', {}, t('plans.short.text', { price: fmt.money(order.price_minor), balance: fmt.money(balance()), short: fmt.money(short) })),
        others.length ? h('button', {
          class: 'btn', type: 'button',
          onclick: () => { pick(others[0].id); note.replaceChildren(); refresh(); methodList.querySelector('input:checked').focus(); },
        }, t('plans.short.other')) : null));
    } else if (e.status === 502 || e.status === 503) {
      note.replaceChildren(h('p', { class: 'checkout-alert' }, t('plans.unavailable')));
    }
  }

  // Paid and credited: the home screen shows the new expiry.
  async function finish() {
    stopPolling();
    let me = ctx.me;
    try { me = await ctx.reloadMe(); } catch { /* the toast still tells */ }
    const until = me.subscription ? fmt.date(me.subscription.expire_at) : '';
    ctx.success(t('plans.paid', { date: until }));
    if (alive) ctx.go('home');
  }

  async function stars(link, before) {
    // The demo's invoice is not Telegram's: it counts as paid (demo.js then grants the days).
    const status = ctx.demo ? 'paid' : await ctx.tg.openInvoice(link);
    if (!alive) return;
    if (status === 'paid') waiting({ kind: 'stars', before });
    else if (status === 'pending') waiting({ kind: 'gateway', before, link });
    else if (status === 'cancelled') ctx.toast(t('plans.stars.cancelled'), 'info');
    else { ctx.tg.haptic('error'); ctx.toast(t('plans.stars.failed')); }
  }

  function gateway(url, before) {
    if (ctx.demo) return waiting({ kind: 'gateway', before, link: null });   // no real payment page
    ctx.tg.openLink(url);
    waiting({ kind: 'gateway', before, link: url });
  }

  // ---- waiting for the webhook and the worker ----
  const waitTitle = h('h2', { class: 'card-title', id: `wait-${n}-title` });
  const waitText = h('p', { class: 'wait-text', role: 'status', 'aria-live': 'polite' });
  const waitActions = h('div', { class: 'btn-row' });
  const waitPanel = h('section', { class: 'card wait-card', 'aria-labelledby': `wait-${n}-title` },
    h('div', { class: 'wait-mark', 'aria-hidden': 'true' }), waitTitle, waitText, waitActions);

  function waiting({ kind, before, link }) {
    ctx.tg.mainButton.hide();
    waitPanel.dataset.kind = kind;
    waitTitle.textContent = t(kind === 'stars' ? 'plans.activating.title' : 'plans.wait.title');
    waitText.textContent = t(kind === 'stars' ? 'plans.activating.text' : 'plans.wait.text');
    waitActions.replaceChildren(...[
      h('button', { class: 'btn btn-primary', type: 'button', onclick: () => startPolling(before, true) }, t('plans.wait.check')),
      link ? h('button', { class: 'btn', type: 'button', onclick: () => ctx.tg.openLink(link) }, t('plans.wait.open')) : null,
      h('button', { class: 'btn btn-ghost', type: 'button', onclick: () => { stopPolling(); onBack(); } }, t('plans.wait.back')),
    ].filter(Boolean));
    el.replaceChildren(waitPanel);
    if (onWait) onWait();
    window.scrollTo(0, 0);
    startPolling(before, false);
  }

  function startPolling(before, now) {
    stopPolling();
    poll = { timer: null, until: Date.now() + POLL_FOR_MS, before };
    const p = poll;
    const tick = async () => {
      if (p !== poll) return;
      let me = null;
      try { me = await ctx.api.get('/me'); } catch { /* offline for a moment: try again */ }
      if (p !== poll) return;
      const exp = expiryOf(me);
      if (exp && exp !== p.before) { await finish(); return; }
      if (Date.now() >= p.until) {
        waitText.textContent = t('plans.wait.late');
        poll = null;
        return;
      }
      p.timer = setTimeout(tick, POLL_EVERY_MS);
    };
    if (now) tick(); else p.timer = setTimeout(tick, POLL_EVERY_MS);
  }

  function stopPolling() {
    if (poll && poll.timer) clearTimeout(poll.timer);
    poll = null;
  }

  // Back from the payment page: look at once instead of at the next tick.
  const onVisible = () => {
    if (document.visibilityState === 'visible' && poll) startPolling(poll.before, true);
  };
  document.addEventListener('visibilitychange', onVisible);
  refresh();

  return {
    el,
    update(next) { order = next; note.replaceChildren(); refresh(); },
    cleanup() {
      alive = false;
      stopPolling();
      document.removeEventListener('visibilitychange', onVisible);
    },
  };
}
