// Plans and prices: the sales mode (the SALES_MODE setting: plans or the constructor) and
// four tabs in the URL (?tab=plans|sales|groups|constructor): the plans with their
// durations and prices, the sales, the promo groups' discounts, the constructor's periods
// and traffic packs. Prices are typed in currency units (admin/money.js).

import { h } from '../../shared/dom.js';
import { guard, shopCurrency, subNav } from '../kit.js';
import { routeHash } from '../shell.js';
import { formStatus, send } from '../form.js';
import plansTab from './prices/plans-tab.js';
import salesTab from './prices/sales-tab.js';
import groupsTab from './prices/groups-tab.js';
import constructorTab from './prices/constructor-tab.js';

const TABS = { plans: plansTab, sales: salesTab, groups: groupsTab, constructor: constructorTab };

// SALES_MODE: what the customers' Plans screen offers.
async function modeCard(ctx) {
  const settings = await ctx.api.get('/settings');
  const item = (settings.items || []).find((s) => s.name === 'SALES_MODE');
  if (!item) return null;
  const status = formStatus();
  const choices = ['plans', 'constructor'].map((v) => {
    const id = 'mode-' + v;
    return h('div', { class: 'segment' },
      h('input', { type: 'radio', name: 'sales-mode', id, value: v, checked: item.value === v }),
      h('label', { for: id }, ctx.t('admin.mode.sales.' + v)));
  });
  const box = guard(ctx, h('fieldset', { class: 'segments' }, h('legend', { class: 'segments-legend' }, ctx.t('admin.mode.sales.legend')), choices));
  box.addEventListener('change', async (e) => {
    const value = e.target.value;
    await send(ctx, { status, done: ctx.t('admin.mode.sales.saved', { mode: ctx.t('admin.mode.sales.' + value) }) },
      () => ctx.api.put('/settings/SALES_MODE', { value }));
  });
  return h('section', { class: 'card', 'aria-labelledby': 'mode-title' },
    h('h2', { class: 'card-title', id: 'mode-title' }, ctx.t('admin.mode.sales.title')),
    h('p', { class: 'muted' }, ctx.t('admin.mode.sales.hint')), box, status);
}

export default {
  title: 'admin.plans.title',
  async render(view, ctx) {
    const tab = TABS[ctx.params.get('tab')] ? ctx.params.get('tab') : 'plans';
    view.append(h('div', { class: 'skeleton skeleton-card' }));
    const [mode] = await Promise.all([modeCard(ctx), shopCurrency(ctx)]);
    const body = h('div', { class: 'admin-grid' });
    view.replaceChildren(
      subNav(ctx, ctx.t('admin.plans.parts'), Object.keys(TABS), tab, (id) => routeHash('plans', new URLSearchParams({ tab: id }))),
      body, mode);
    return TABS[tab](body, ctx);
  },
};
