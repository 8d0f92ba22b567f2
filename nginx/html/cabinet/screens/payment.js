// The web cabinet's online payment: where the buyer lands back from the gateway's page
// (/cabinet/?payment=<id>, main.js turns it into #/payment) and where a Stars purchase
// waits while the invoice is paid in Telegram. The payment is the transaction the purchase
// made (cabinet/pending.js): GET /payments is polled for its status, and once it is
// completed /me for the new expiry. Paid, not paid (canceled, failed, expired) and
// refunded are each said in plain words; a payment still open after a while says so and
// offers the payment page again.

import { h, safeUrl } from '../../shared/dom.js';
import { qrSvg } from '../../shared/qr.js';
import { clearPending, readPending, savePending } from '../pending.js';

const POLL_MS = 2000;
const WAIT_FOR_MS = 90000;        // then "not confirmed yet" and a button to look again
const EXPIRY_FOR_MS = 20000;      // completed: how long to wait for the worker's new expiry

const expiryOf = (me) => (me && me.subscription && me.subscription.status !== 'pending' ? me.subscription.expire_at : null);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export default {
  title: 'payment.title',
  tab: 'plans',
  parent: 'plans',
  async render(view, ctx) {
    const { t } = ctx;
    const p = readPending();
    if (!p) {
      view.replaceChildren(h('div', { class: 'empty' },
        h('p', {}, t('payment.none')),
        h('a', { class: 'btn btn-primary', href: '#/plans' }, t('payment.plans'))));
      return null;
    }

    let alive = true;
    let timer = null;
    const title = h('h2', { class: 'card-title', id: 'payment-title' });
    const text = h('p', { class: 'wait-text', role: 'status', 'aria-live': 'polite' });
    const extra = h('div', { class: 'payment-extra' });
    const actions = h('div', { class: 'btn-row' });
    const card = h('section', { class: 'card wait-card payment-card', 'aria-labelledby': 'payment-title', 'data-kind': p.kind },
      h('div', { class: 'wait-mark', 'aria-hidden': 'true' }), title, text, extra, actions);
    view.replaceChildren(card);

    const link = safeUrl(p.url);
    const toPlans = () => h('button', {
      class: 'btn btn-ghost', type: 'button', onclick: () => { clearPending(); ctx.go('plans'); },
    }, t('payment.plans'));

    function waiting(late = false) {
      card.dataset.state = late ? 'late' : 'waiting';
      title.textContent = t(late ? 'payment.late.title' : 'payment.wait.title');
      text.textContent = t(late ? (p.kind === 'stars' ? 'payment.late.stars' : 'payment.late.text') : (p.kind === 'stars' ? 'payment.wait.stars' : 'payment.wait.text'));
      if (p.kind === 'stars' && link && !extra.firstChild) {
        extra.append(
          h('a', { class: 'btn btn-primary', href: link, target: '_blank', rel: 'noopener' }, t('payment.stars.open')),
          h('p', { class: 'muted payment-qr-note' }, t('payment.stars.qr_note')),
          qrSvg(p.url, { label: t('payment.stars.qr') }));
      }
      actions.replaceChildren(...[
        late ? h('button', { class: 'btn btn-primary', type: 'button', onclick: () => { waiting(); poll(Date.now() + WAIT_FOR_MS); } }, t('payment.check')) : null,
        p.kind !== 'stars' && link ? h('a', {
          class: 'btn', href: link, onclick: () => savePending({ ...p, away: true }),
        }, t('payment.open')) : null,
        toPlans(),
      ].filter(Boolean));
    }

    function outcome(kind, message) {
      clearPending();
      card.dataset.state = kind;
      extra.replaceChildren();
      title.textContent = t('payment.' + kind + '.title');
      text.textContent = message;
      actions.replaceChildren(...(kind === 'paid'
        ? [h('a', { class: 'btn btn-primary', href: '#/home' }, t('payment.home')), h('a', { class: 'btn', href: '#/connect' }, t('payment.connect'))]
        : [h('a', { class: 'btn btn-primary', href: '#/plans' }, t('payment.again'))]));
    }

    // Completed: the worker has credited it; /me shows the new expiry a moment later
    // (money that came after the invoice ended goes to the balance: no new expiry then).
    async function paid() {
      const until = Date.now() + EXPIRY_FOR_MS;
      let me = ctx.me;
      for (;;) {
        try { me = await ctx.reloadMe(); } catch { /* a blip: look again */ }
        if (!alive) return;
        const exp = expiryOf(me);
        if ((exp && exp !== p.before) || Date.now() > until) break;
        await sleep(POLL_MS);
        if (!alive) return;
      }
      const exp = expiryOf(me);
      outcome('paid', exp && exp !== p.before ? t('payment.paid.until', { date: ctx.fmt.date(exp) }) : t('payment.paid.credited'));
    }

    let seq = 0;   // one poll at a time: a newer one (a tap, the tab shown again) wins
    async function poll(until) {
      clearTimeout(timer);
      const my = ++seq;
      if (!alive) return;
      let items = null;
      try { items = (await ctx.api.get('/payments')).items; } catch (e) {
        if (e && e.status === 401) return;   // signed out: the sign-in page takes over
      }
      if (!alive || my !== seq) return;
      if (Array.isArray(items)) {
        const tx = items.find((x) => Number(x.id) === p.id);
        if (!tx) { outcome('unknown', t('payment.unknown.text')); return; }
        if (tx.status === 'completed') { title.textContent = t('payment.activating'); await paid(); return; }
        if (tx.status === 'canceled' || tx.status === 'failed') { outcome('failed', t('payment.failed.text')); return; }
        if (tx.status === 'refunded') { outcome('refunded', t('payment.refunded.text')); return; }
      }
      if (Date.now() >= until) { waiting(true); return; }
      timer = setTimeout(() => poll(until), POLL_MS);
    }

    waiting();
    poll(Date.now() + WAIT_FOR_MS);
    // Back from Telegram's tab: look at once.
    const onVisible = () => { if (document.visibilityState === 'visible' && card.dataset.state === 'waiting') poll(Date.now() + WAIT_FOR_MS); };
    document.addEventListener('visibilitychange', onVisible);
    return () => { alive = false; clearTimeout(timer); document.removeEventListener('visibilitychange', onVisible); };
  },
};
