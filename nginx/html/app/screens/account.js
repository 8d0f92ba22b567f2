// Account: who the customer is (name, Telegram username, language), the balance, and the
// way to every account sub-screen; the owner's blocks for this screen at the end. A page
// that can tell whether the account is an admin (ctx.isAdmin: the web cabinet) adds a link
// to the admin screens for admins only.

import { h } from '../../shared/dom.js';
import { ownerBlocks } from '../owner.js';

const LANGUAGE_NAMES = { en: 'English', ru: 'Русский' };

function menu(ctx) {
  const { app } = ctx.me;
  const ui = (app && typeof app.ui === 'object' && app.ui) || {};
  const items = [
    ['devices', 'account.menu.devices'],
    app.show_traffic_usage ? ['traffic', 'account.menu.traffic'] : null,
    ['payments', 'account.menu.payments'],
    ['referral', 'account.menu.referral'],
    ['promo', 'account.menu.promo'],
    ui.show_support === false ? null : ['support', 'account.menu.support'],
    ['linked', 'account.menu.linked'],
  ].filter(Boolean);
  return h('nav', { class: 'account-menu', 'aria-label': ctx.t('account.menu.label') },
    h('ul', { class: 'list' }, items.map(([route, key]) => h('li', { class: 'list-item' },
      h('a', { class: 'menu-link', href: '#/' + route },
        h('span', {}, ctx.t(key)),
        h('span', { class: 'menu-chevron', 'aria-hidden': 'true' }, '›'))))));
}

export default {
  title: 'account.title',
  tab: 'account',
  async render(view, ctx) {
    const { user, app } = ctx.me;
    const name = user.first_name || ctx.t('account.no_name');
    const lang = LANGUAGE_NAMES[ctx.t.lang] || ctx.t.lang;
    const profile = h('article', { class: 'card profile-card', 'aria-labelledby': 'profile-name' },
      h('div', { class: 'profile-avatar', 'aria-hidden': 'true' }, name.trim().charAt(0).toUpperCase() || '?'),
      h('div', { class: 'profile-text' },
        h('h2', { class: 'card-title', id: 'profile-name' }, name),
        user.username ? h('p', { class: 'muted profile-username' }, '@' + user.username) : null,
        h('p', { class: 'muted profile-language' }, ctx.t('account.language', { lang }))));
    const balance = app.balance_enabled
      ? h('article', { class: 'card balance-card' },
        h('span', { class: 'stat-label' }, ctx.t('account.balance')),
        h('span', { class: 'balance-value' }, ctx.fmt.money(user.balance_minor)),
        h('a', { class: 'link', href: '#/payments' }, ctx.t('account.balance.history')))
      : null;
    const nav = menu(ctx);
    view.replaceChildren(...[profile, balance, nav, ownerBlocks(ctx, 'account')].filter(Boolean));
    if (ctx.isAdmin) {
      ctx.isAdmin().then((yes) => {
        if (!yes || !nav.isConnected) return;
        nav.querySelector('ul').append(h('li', { class: 'list-item' },
          h('a', { class: 'menu-link', href: '/admin/' },
            h('span', {}, ctx.t('account.menu.admin')),
            h('span', { class: 'menu-chevron', 'aria-hidden': 'true' }, '›'))));
      });
    }
  },
};
