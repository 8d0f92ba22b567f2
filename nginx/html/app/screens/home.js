// Home: the subscription's state with days left, expiry, traffic and devices; the one
// primary action that fits the state (trial, buy, renew, connect); the balance; then the
// owner's sections in the owner's order (SPEC-GAPS `ui.sections`).
//
// At a returning customer's opening, ctx.me may be the copy kept on the device
// (`ctx.me.kept`, app/home-copy.js) until /me answers: home is drawn from it with the status
// card marked as updating (aria-busy, a small "updating" note), asks nothing of its own
// (devices, autopay), and acts on no tap before /me; then it is drawn again in place.

import { h } from '../../shared/dom.js';
import { buttonLabel, colorButton, homeSections, ownerBlocks } from '../owner.js';

// none | trial | active | limited | expired | disabled | pending
function stateOf(sub) {
  return sub ? sub.status : 'none';
}

// The action a customer most likely wants now; shown as a button and as Telegram's Main
// button. null: nothing to push (pending payment, disabled).
function primaryAction(ctx, view) {
  const { me } = ctx;
  const state = stateOf(me.subscription);
  if (state === 'none' && me.user.is_trial_available) {
    return { key: 'trial', label: buttonLabel(ctx, 'trial', 'home.action.trial'), run: () => takeTrial(ctx, view) };
  }
  if (state === 'none') return { key: 'renew', label: ctx.t('home.action.buy'), run: () => ctx.go('plans') };
  if (state === 'expired' || state === 'limited') {
    return { key: 'renew', label: buttonLabel(ctx, 'renew', 'home.action.renew'), run: () => ctx.go('plans') };
  }
  if (state === 'trial' || state === 'active') {
    return { key: 'open_app', label: buttonLabel(ctx, 'open_app', 'home.action.connect'), run: () => ctx.go('connect') };
  }
  return null;
}

async function takeTrial(ctx, view) {
  try {
    const r = await ctx.api.post('/trial');
    await ctx.reloadMe();
    ctx.success(ctx.t('home.trial.done', { n: r.days }));
    ctx.go('connect');
  } catch (e) {
    ctx.fail(e);
    await render(view, ctx);
  }
}

function trafficBar(ctx, traffic) {
  if (!ctx.me.app.show_traffic_usage || !traffic) return null;
  if (traffic.unlimited) {
    return h('div', { class: 'stat stat-traffic' },
      h('span', { class: 'stat-label' }, ctx.t('home.traffic')),
      h('span', { class: 'stat-value' }, ctx.t('home.traffic.unlimited', { used: ctx.fmt.bytes(traffic.used_bytes) })));
  }
  const pct = traffic.limit_bytes > 0 ? Math.min(100, Math.round((traffic.used_bytes / traffic.limit_bytes) * 100)) : 0;
  const bar = h('div', {
    class: 'meter', role: 'progressbar', 'aria-valuemin': '0', 'aria-valuemax': '100', 'aria-valuenow': String(pct),
    'aria-label': ctx.t('home.traffic'),
  }, h('div', { class: 'meter-fill' }));
  bar.firstChild.style.width = pct + '%';
  if (pct >= 90) bar.classList.add('meter-warn');
  return h('div', { class: 'stat stat-traffic' },
    h('span', { class: 'stat-label' }, ctx.t('home.traffic')),
    h('span', { class: 'stat-value' }, ctx.t('home.traffic.of', { used: ctx.fmt.bytes(traffic.used_bytes), limit: ctx.fmt.bytes(traffic.limit_bytes) })),
    bar);
}

function devicesStat(ctx, sub) {
  const value = h('span', { class: 'stat-value' }, ctx.t('home.devices.limit', { n: sub.device_limit }));
  // The count comes from the panel: asked after the card is shown, and left out on failure.
  if (!ctx.me.kept) ctx.api.get('/devices').then((d) => {
    value.textContent = ctx.t('home.devices.of', { used: d.items.length, n: sub.device_limit });
  }).catch(() => {});
  return h('div', { class: 'stat stat-devices' }, h('span', { class: 'stat-label' }, ctx.t('home.devices')), value);
}

function statusCard(ctx, action) {
  const sub = ctx.me.subscription;
  const state = stateOf(sub);
  const rows = [];
  if (sub) {
    const left = ctx.fmt.daysLeft(sub.expire_at);
    rows.push(h('div', { class: 'status-main' },
      h('span', { class: 'status-days' }, ctx.t('home.days_left', { n: left })),
      h('span', { class: 'status-until' }, ctx.t(state === 'expired' ? 'home.expired_on' : 'home.until', { date: ctx.fmt.date(sub.expire_at) }))));
    rows.push(h('div', { class: 'stats' }, trafficBar(ctx, sub.traffic), devicesStat(ctx, sub)));
  } else {
    rows.push(h('p', { class: 'status-text' }, ctx.t(ctx.me.user.is_trial_available ? 'home.none.trial' : 'home.none.text')));
  }
  const btn = action
    ? colorButton(ctx, action.key, h('button', { class: 'btn btn-primary btn-wide', type: 'button', onclick: action.run }, action.label))
    : null;
  if (state === 'pending') rows.push(h('p', { class: 'status-text' }, ctx.t('home.pending.text')));
  if (state === 'disabled') rows.push(h('p', { class: 'status-text' }, ctx.t('home.disabled.text')), h('a', { class: 'btn', href: '#/support' }, ctx.t('nav.support')));
  const kept = Boolean(ctx.me.kept);
  return h('article', { class: 'card status-card', 'data-status': state, 'aria-labelledby': 'status-title', 'aria-busy': kept ? 'true' : false },
    h('div', { class: 'status-head' },
      h('h2', { class: 'card-title', id: 'status-title' }, sub ? sub.plan_name || ctx.t('home.subscription') : ctx.t('home.subscription')),
      kept ? h('span', { class: 'status-updating' }, ctx.t('home.updating')) : null,
      h('span', { class: 'badge badge-' + state }, ctx.t('status.' + state))),
    rows, btn,
    (state === 'trial' || state === 'active') ? h('a', { class: 'btn btn-ghost btn-wide', href: '#/plans' }, buttonLabel(ctx, 'renew', 'home.action.renew')) : null);
}

function balanceCard(ctx) {
  if (!ctx.me.app.balance_enabled) return null;
  return h('article', { class: 'card balance-card' },
    h('span', { class: 'stat-label' }, ctx.t('home.balance')),
    h('span', { class: 'balance-value' }, ctx.fmt.money(ctx.me.user.balance_minor)),
    h('a', { class: 'link', href: '#/payments' }, ctx.t('home.balance.history')));
}

function section(ctx, name) {
  const { me } = ctx;
  if (name === 'plans') {
    return h('a', { class: 'card card-link teaser teaser-plans', href: '#/plans' },
      h('span', { class: 'card-title' }, ctx.t('home.plans.title')), h('span', { class: 'teaser-text' }, ctx.t('home.plans.text')));
  }
  if (name === 'referral') {
    return h('a', { class: 'card card-link teaser teaser-referral', href: '#/referral' },
      h('span', { class: 'card-title' }, ctx.t('home.referral.title')), h('span', { class: 'teaser-text' }, ctx.t('home.referral.text')));
  }
  if (name === 'proxy' && me.app.mtproto_proxy) {
    // The link is /me's: the kept copy says only that there is one.
    const connect = () => { const url = ctx.me.app.mtproto_proxy; if (typeof url === 'string') ctx.tg.openTelegramLink(url.replace(/^tg:\/\//, 'https://t.me/')); };
    return h('article', { class: 'card teaser teaser-proxy' },
      h('h2', { class: 'card-title' }, ctx.t('home.proxy.title')),
      h('p', { class: 'teaser-text' }, ctx.t('home.proxy.text')),
      colorButton(ctx, 'connect_proxy', h('button', { class: 'btn', type: 'button', onclick: afterMe(ctx, connect) },
        buttonLabel(ctx, 'connect_proxy', 'home.proxy.button'))));
  }
  if (name === 'custom') return ownerBlocks(ctx, 'home');
  return null;
}

// The autopay card's place (app/autopay.js fills it): only for a paid subscription of a shop
// with the balance on. Busy until it is filled or left out, so the screen is whole when a
// test (or a screen reader) takes it as done.
function autopaySlot(ctx) {
  const sub = ctx.me.subscription;
  if (!sub || sub.is_trial || !ctx.me.app.balance_enabled || ctx.me.kept) return null;
  const card = h('article', { class: 'card autopay-card', 'aria-label': ctx.t('autopay.title'), 'aria-busy': 'true' });
  card.hidden = true;
  import('../autopay.js')
    .then((m) => m.fillAutopayCard(card, ctx))
    .catch(() => {})
    .finally(() => card.setAttribute('aria-busy', 'false'));
  return card;
}

// A tap on home while it shows the kept copy waits for /me, and is then done with what
// /me says: `run` (given /me's ctx.me), or, for the primary action, the one home offers now
// if it is still the same kind of action.
function afterMe(ctx, run) {
  return () => {
    if (!ctx.me.kept) return run();
    return ctx.fresh.then((ok) => (ok ? run() : null));
  };
}

function draw(view, ctx) {
  let action = primaryAction(ctx, view);
  if (action && ctx.me.kept) {
    const { key } = action;
    action = { ...action, run: afterMe(ctx, () => { const now = primaryAction(ctx, view); if (now && now.key === key) now.run(); }) };
  }
  const greeting = ctx.me.app.greeting;
  const parts = [greeting ? h('p', { class: 'greeting' }, greeting) : null];
  for (const name of homeSections(ctx)) {
    if (name === 'status') parts.push(statusCard(ctx, action), balanceCard(ctx), autopaySlot(ctx));
    else parts.push(section(ctx, name));
  }
  view.replaceChildren(...parts.filter(Boolean));
  return action;
}

async function render(view, ctx) {
  const action = draw(view, ctx);
  if (action) ctx.tg.mainButton.show({ text: action.label, onClick: action.run });
  if (!ctx.me.kept) return undefined;
  // Drawn from the kept copy: drawn again in place once /me has answered, unless home was
  // left (or drawn anew) before. The screen stays usable (#screen is not busy); a focused
  // control keeps the focus.
  let left = false;
  ctx.fresh.then((ok) => {
    if (!ok || left || !view.isConnected) return;
    const controls = () => [...view.querySelectorAll('a[href], button, input')];
    const focused = controls().indexOf(document.activeElement);
    const now = draw(view, ctx);
    if (now) ctx.tg.mainButton.show({ text: now.label, onClick: now.run });
    else if (action) ctx.tg.mainButton.hide();
    if (focused >= 0 && controls()[focused]) controls()[focused].focus();
  });
  return () => { left = true; };
}

export default {
  title: 'home.title',
  tab: 'home',
  render,
};
