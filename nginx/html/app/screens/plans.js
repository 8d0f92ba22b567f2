// Plans: what the shop sells in its sales mode (me.app.sales_mode), then the checkout
// (app/purchase.js). `plans`: the catalogue with the customer's own prices (price_minor is
// final; the list price is struck through when higher), a period per plan. `constructor`:
// a period and a traffic pack, the total built as the customer picks.

import { h } from '../../shared/dom.js';
import { createCheckout } from '../purchase.js';

let uid = 0;

function periodText(ctx, d) {
  return d.months > 0 ? ctx.t('plans.months', { n: d.months }) : ctx.t('plans.days', { n: d.days });
}

function oldPrice(ctx, base, price) {
  if (!(base > price)) return null;
  return h('del', { class: 'price-old' }, h('span', { class: 'visually-hidden' }, ctx.t('plans.was') + ' '), ctx.fmt.money(base));
}

// One radio choice drawn as a card row: the native radio, its label, and extra lines.
function option(kind, name, id, checked, onPick, ...content) {
  return h('li', { class: 'option choice ' + kind },
    h('input', { type: 'radio', class: 'option-input', name, id, checked, onchange: onPick }),
    h('label', { class: 'option-label', for: id }, content));
}

const starsFor = (minor, rate) => Math.max(1, Math.ceil(minor / rate));

// ---- plans mode ----------------------------------------------------------------------
function planFeatures(ctx, p) {
  const unlimited = !p.traffic_limit_bytes;
  return h('ul', { class: 'plan-features' },
    h('li', {}, unlimited ? ctx.t('plans.traffic.unlimited') : ctx.t('plans.traffic', { size: ctx.fmt.bytes(p.traffic_limit_bytes) })),
    h('li', {}, ctx.t('plans.devices', { n: p.device_limit })));
}

function planCard(ctx, p, group, selected, pick) {
  const titleId = `plan-${group}-${p.id}`;
  const durations = Array.isArray(p.durations) ? p.durations : [];
  return h('li', { class: 'plan-item' },
    h('article', { class: 'card plan-card', 'aria-labelledby': titleId, 'data-current': p.is_current ? 'true' : false },
      h('div', { class: 'plan-head' },
        h('h2', { class: 'card-title plan-name', id: titleId }, p.name),
        p.is_current ? h('span', { class: 'badge badge-current' }, ctx.t('plans.current')) : null),
      p.description ? h('p', { class: 'plan-description muted' }, p.description) : null,
      planFeatures(ctx, p),
      h('fieldset', { class: 'durations' },
        h('legend', { class: 'visually-hidden' }, ctx.t('plans.period.legend', { plan: p.name })),
        h('ul', { class: 'option-list' }, durations.map((d) => option(
          'duration', `plan-${group}`, `${titleId}-${d.days}`,
          selected && selected.plan === p && selected.d === d,
          () => pick(p, d),
          h('span', { class: 'option-name' }, periodText(ctx, d)),
          h('span', { class: 'option-price' },
            h('span', { class: 'price price-now' }, ctx.fmt.money(d.price_minor)), ' ', oldPrice(ctx, d.base_price_minor, d.price_minor)),
          d.months > 1 ? h('span', { class: 'option-note muted' }, ctx.t('plans.per_month', { price: ctx.fmt.money(Math.round(d.price_minor / d.months)) })) : null))))));
}

function renderPlans(ctx, data, checkout) {
  const group = ++uid;
  const items = (data.items || []).filter((p) => Array.isArray(p.durations) && p.durations.length);
  if (!items.length) return h('p', { class: 'empty' }, ctx.t('plans.empty'));
  const current = items.find((p) => p.is_current) || items[0];
  const orderOf = (plan, d) => ({
    body: { plan_id: plan.id, days: d.days },
    price_minor: d.price_minor,
    base_price_minor: d.base_price_minor,
    stars: d.price_stars,
    label: ctx.t('plans.summary', { plan: plan.name, period: periodText(ctx, d) }),
  });
  const selected = { plan: current, d: current.durations[0] };
  const pick = (plan, d) => checkout.update(orderOf(plan, d));
  checkout.update(orderOf(selected.plan, selected.d));
  return h('ul', { class: 'plan-list' }, items.map((p) => planCard(ctx, p, group, selected, pick)));
}

// ---- constructor mode ----------------------------------------------------------------
function renderConstructor(ctx, data, checkout) {
  const group = ++uid;
  const periods = data.periods || [];
  const packs = data.traffic_packs || [];
  if (!periods.length || !packs.length) return h('p', { class: 'empty' }, ctx.t('plans.empty'));
  // stars_rate: minor units per star (SPEC-GAPS "Stars": 130 = 1.30 ₽ a star).
  const rate = Math.max(1, Math.round(Number(data.stars_rate)) || 1);
  const packText = (k) => (k.gb > 0 ? ctx.t('plans.constructor.gb', { n: k.gb }) : ctx.t('plans.constructor.unlimited'));
  let period = periods[0];
  let pack = packs[0];
  const update = () => {
    const price = period.price_minor + pack.price_minor;
    checkout.update({
      body: { period_id: period.id, pack_id: pack.id },
      price_minor: price,
      stars: starsFor(price, rate),
      label: ctx.t('plans.summary', { plan: periodText(ctx, period), period: packText(pack) }),
    });
  };
  update();
  const fieldset = (legend, rows) => h('fieldset', { class: 'card constructor-group' },
    h('legend', { class: 'card-title' }, legend), h('ul', { class: 'option-list' }, rows));
  return h('div', { class: 'constructor' },
    fieldset(ctx.t('plans.constructor.period'), periods.map((p, i) => option(
      'duration', `period-${group}`, `period-${group}-${p.id}`, i === 0, () => { period = p; update(); },
      h('span', { class: 'option-name' }, periodText(ctx, p)),
      h('span', { class: 'option-price' }, h('span', { class: 'price price-now' }, ctx.fmt.money(p.price_minor))),
      p.months > 1 ? h('span', { class: 'option-note muted' }, ctx.t('plans.per_month', { price: ctx.fmt.money(Math.round(p.price_minor / p.months)) })) : null))),
    fieldset(ctx.t('plans.constructor.traffic'), packs.map((k, i) => option(
      'pack', `pack-${group}`, `pack-${group}-${k.id}`, i === 0, () => { pack = k; update(); },
      h('span', { class: 'option-name' }, packText(k)),
      h('span', { class: 'option-price' }, h('span', { class: 'price' }, '+' + ctx.fmt.money(k.price_minor)))))));
}

// Draws the screen; `again` draws it afresh (after "back to plans" from a waiting card).
async function render(view, ctx, again) {
  view.replaceChildren(h('div', { class: 'skeleton skeleton-card' }), h('div', { class: 'skeleton skeleton-card' }));
  const constructorMode = ctx.me.app.sales_mode === 'constructor';
  const data = await ctx.api.get(constructorMode ? '/constructor' : '/plans');
  let choice = null;
  const checkout = createCheckout(ctx, {
    onWait: () => { if (choice) choice.hidden = true; },
    onBack: () => again().catch((e) => ctx.fail(e, { inline: view })),
  });
  choice = constructorMode ? renderConstructor(ctx, data, checkout) : renderPlans(ctx, data, checkout);
  view.replaceChildren(choice, checkout.el);
  return checkout.cleanup;
}

export default {
  title: 'plans.title',
  tab: 'plans',
  async render(view, ctx) {
    let cleanup = null;
    const show = async () => {
      if (cleanup) cleanup();
      cleanup = null;
      cleanup = await render(view, ctx, show);
    };
    await show();
    return () => { if (cleanup) cleanup(); };
  },
};
