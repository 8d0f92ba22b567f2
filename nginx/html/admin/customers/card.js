// A customer's card (#/customers?id=N, the list's filters kept for "back to the list"):
// GET /api/admin/customers/{id} and its devices (…/devices, from the panel: when the panel
// cannot be reached the rest of the card still shows). Profile and logins, subscription,
// devices, balance and ledger, payments, referrals, promo codes, support thread, audit
// (customers/history.js), and the actions the role may do (customers/actions.js). After an
// action the card is asked for again and drawn anew, the used action's title focused.

import { ApiError } from '../../shared/api.js';
import { h } from '../../shared/dom.js';
import { facts } from '../kit.js';
import { actionPanel } from './actions.js';
import { blockedBadge, displayName, listHash, moneyOf, statusBadge } from './common.js';
import { devicesSection } from './devices.js';
import { auditSection, ledgerSection, paymentsSection, promoSection, referralsSection, supportSection } from './history.js';

const yesNo = (ctx, v) => ctx.t(v ? 'admin.yes' : 'admin.no');

function profile(ctx, card) {
  const c = card.customer;
  const logins = card.logins || [];
  return h('section', { class: 'card cust-profile', 'aria-labelledby': 'cust-name' },
    h('div', { class: 'cust-title' },
      h('h2', { class: 'card-title cust-name', id: 'cust-name', tabindex: '-1' }, displayName(c)),
      statusBadge(ctx, c.subscription), c.is_blocked ? blockedBadge(ctx) : null),
    h('dl', { class: 'admin-stats cust-money' },
      h('div', { class: 'admin-stat' }, h('dt', {}, ctx.t('customers.balance')),
        h('dd', { class: 'cust-balance' }, moneyOf(ctx, c.balance_minor, c.currency))),
      h('div', { class: 'admin-stat' }, h('dt', {}, ctx.t('customers.discount')),
        h('dd', {}, ctx.t('customers.pct', { n: c.personal_discount_pct || 0 }))),
      h('div', { class: 'admin-stat' }, h('dt', {}, ctx.t('customers.group')),
        h('dd', {}, c.promo_group || ctx.t('customers.noGroup')))),
    facts([
      [ctx.t('customers.col.telegram'), c.telegram_id === null || c.telegram_id === undefined ? '—' : String(c.telegram_id)],
      [ctx.t('customers.username'), c.username ? '@' + c.username : '—'],
      [ctx.t('customers.fullName'), [c.first_name, c.last_name].filter(Boolean).join(' ') || '—'],
      [ctx.t('customers.col.email'), c.email
        ? [c.email, ' ', h('span', { class: 'muted' }, ctx.t(card.email_verified ? 'customers.verified' : 'customers.unverified'))] : '—'],
      [ctx.t('customers.language'), card.language || '—'],
      [ctx.t('customers.col.joined'), ctx.fmt.dateTime(c.created_at)],
      [ctx.t('customers.internalId'), '#' + c.id],
      [ctx.t('customers.password'), yesNo(ctx, card.has_password)],
      [ctx.t('customers.trialUsed'), yesNo(ctx, card.trial_used)],
      [ctx.t('customers.logins'), logins.length
        ? h('ul', { class: 'admin-lines' }, logins.map((l) => h('li', {}, l.provider, l.email ? [' · ', l.email] : null)))
        : ctx.t('customers.noLogins')],
    ], 'cust-facts'));
}

function trafficText(ctx, s) {
  const used = ctx.fmt.bytes(s.traffic_used_bytes || 0);
  return s.traffic_limit_bytes
    ? ctx.t('customers.trafficOf', { used, limit: ctx.fmt.bytes(s.traffic_limit_bytes) })
    : ctx.t('customers.trafficUnlimited', { used });
}

function subscription(ctx, card) {
  const s = card.subscription;
  const body = !s ? h('p', { class: 'muted' }, ctx.t('customers.noSubscription')) : facts([
    [ctx.t('customers.sub.status'), [statusBadge(ctx, s), s.is_trial ? [' ', h('span', { class: 'muted' }, ctx.t('customers.sub.trial'))] : null]],
    [ctx.t('customers.sub.plan'), s.plan_code ? [s.plan_name || s.plan_code, ' ', h('span', { class: 'muted atable-code' }, s.plan_code)] : (s.plan_name || '—')],
    [ctx.t('customers.sub.start'), s.start_at ? ctx.fmt.dateTime(s.start_at) : '—'],
    [ctx.t('customers.sub.expire'), s.expire_at
      ? h('span', { class: 'cust-expire' }, h('time', { datetime: s.expire_at }, ctx.fmt.dateTime(s.expire_at)),
        ' ', h('span', { class: 'muted' }, ctx.t('customers.daysLeft', { n: ctx.fmt.daysLeft(s.expire_at) })))
      : '—'],
    [ctx.t('customers.sub.traffic'), trafficText(ctx, s)],
    [ctx.t('customers.sub.devices'), s.device_limit ? String(s.device_limit) : ctx.t('customers.unlimited')],
    [ctx.t('customers.sub.autopay'), yesNo(ctx, s.autopay_enabled)],
    [ctx.t('customers.sub.link'), s.subscription_url ? h('span', { class: 'atable-code cust-url' }, s.subscription_url) : '—'],
  ], 'cust-facts');
  return h('section', { class: 'card', 'aria-labelledby': 'cust-sub' },
    h('h2', { class: 'card-title', id: 'cust-sub' }, ctx.t('customers.sub.title')), body);
}

function notFound(view, ctx) {
  view.replaceChildren(h('div', { class: 'empty' },
    h('p', {}, ctx.t('customers.notFound')),
    h('a', { class: 'btn', href: listHash(ctx.params) }, ctx.t('customers.back'))));
}

export async function renderCard(view, ctx, rawId) {
  view.append(h('div', { class: 'skeleton skeleton-card' }), h('div', { class: 'skeleton skeleton-line' }));
  if (!/^\d{1,18}$/.test(rawId)) return notFound(view, ctx);
  const id = rawId;
  const owner = ctx.role === 'owner';
  // The catalogue the owner's forms need, asked once a card.
  const extras = owner
    ? Promise.all([ctx.api.get('/plans'), ctx.api.get('/promo-groups')]).then(([p, g]) => ({ plans: p.items || [], groups: g.items || [] }))
    : Promise.resolve({ plans: [], groups: [] });
  let gone = false;

  async function draw(focusAction = null) {
    let card;
    const devicesAsked = ctx.api.get(`/customers/${id}/devices`).catch((e) => e);
    try {
      card = await ctx.api.get('/customers/' + id);
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) return notFound(view, ctx);
      throw e;
    }
    const [devices, extra] = await Promise.all([devicesAsked, extras]);
    if (gone) return;
    const reload = async (actionId) => { await draw(actionId); };
    const actions = actionPanel(ctx, card, { ...extra, devices: devices instanceof Error ? null : devices, reload });
    const back = h('a', { class: 'btn btn-ghost btn-small cust-back', href: listHash(ctx.params) }, ctx.t('customers.back'));
    view.replaceChildren(h('div', { class: 'cust-card' },
      h('div', { class: 'cust-top' }, back, profile(ctx, card)),
      h('div', { class: 'cust-side' }, actions.el),
      h('div', { class: 'cust-data admin-grid' },
        subscription(ctx, card),
        devicesSection(ctx, card, devices, actions.unbind),
        ledgerSection(ctx, card),
        paymentsSection(ctx, card),
        referralsSection(ctx, card),
        promoSection(ctx, card),
        supportSection(ctx, card),
        auditSection(ctx, card))));
    if (focusAction) actions.focus(focusAction);
  }

  await draw();
  return () => { gone = true; };
}
