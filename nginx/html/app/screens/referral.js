// Referral: the terms (bonus days, commission), the customer's numbers (friends invited,
// money earned) and their link, to copy or to share through Telegram's share sheet.

import { h } from '../../shared/dom.js';
import { buttonLabel, colorButton } from '../owner.js';

// Copies text; falls back to selecting it in the field when the clipboard is refused
// (some Telegram webviews), so the customer can copy it by hand.
export async function copyText(ctx, text, field) {
  try {
    await navigator.clipboard.writeText(text);
    ctx.success(ctx.t('action.copied'));
  } catch {
    if (field) { field.focus(); field.select(); }
    ctx.toast(ctx.t('referral.copy_manual'), 'info');
  }
}

export default {
  title: 'referral.title',
  tab: 'account',
  parent: 'account',
  async render(view, ctx) {
    view.replaceChildren(h('div', { class: 'skeleton skeleton-card' }), h('div', { class: 'skeleton skeleton-line' }));
    const r = await ctx.api.get('/referral');
    const field = h('input', { class: 'input referral-link', id: 'referral-link', type: 'text', readonly: true, value: r.link, spellcheck: 'false' });
    const share = () => {
      const text = ctx.t('referral.share_text', { days: r.bonus_days });
      ctx.tg.openTelegramLink('https://t.me/share/url?url=' + encodeURIComponent(r.link) + '&text=' + encodeURIComponent(text));
    };
    const shareLabel = buttonLabel(ctx, 'share', 'referral.share');
    view.replaceChildren(
      h('article', { class: 'card referral-terms', 'aria-labelledby': 'referral-terms-title' },
        h('h2', { class: 'card-title', id: 'referral-terms-title' }, ctx.t('referral.terms.title')),
        h('ul', { class: 'referral-terms-list' },
          r.bonus_days > 0 ? h('li', {}, ctx.t('referral.terms.days', { n: r.bonus_days })) : null,
          r.commission_percent > 0 ? h('li', {}, ctx.t('referral.terms.percent', { n: r.commission_percent })) : null,
          h('li', {}, ctx.t('referral.terms.how')))),
      h('article', { class: 'card referral-stats', 'aria-labelledby': 'referral-stats-title' },
        h('h2', { class: 'card-title', id: 'referral-stats-title' }, ctx.t('referral.stats.title')),
        h('dl', { class: 'stats' },
          h('div', { class: 'stat' }, h('dt', { class: 'stat-label' }, ctx.t('referral.stats.invited')), h('dd', { class: 'stat-value' }, ctx.fmt.number(r.invited_count))),
          h('div', { class: 'stat' }, h('dt', { class: 'stat-label' }, ctx.t('referral.stats.earned')), h('dd', { class: 'stat-value' }, ctx.fmt.money(r.earnings_minor))))),
      h('article', { class: 'card referral-share' },
        h('div', { class: 'field' },
          h('label', { for: 'referral-link' }, ctx.t('referral.link')),
          field),
        h('p', { class: 'muted' }, ctx.t('referral.code', { code: r.code })),
        h('div', { class: 'btn-row' },
          h('button', { class: 'btn', type: 'button', onclick: () => copyText(ctx, r.link, field) }, ctx.t('referral.copy')),
          colorButton(ctx, 'share', h('button', { class: 'btn btn-primary', type: 'button', onclick: share }, shareLabel)))));
    ctx.tg.mainButton.show({ text: shareLabel, onClick: share });
  },
};
