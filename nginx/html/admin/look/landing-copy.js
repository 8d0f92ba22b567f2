// The landing's copy (the page at /, which the worker renders again after Save): shown or
// not, headline, subheadline, where its button leads (the web cabinet or the bot), up to 8
// features and 8 questions with answers.

import { h } from '../../shared/dom.js';
import { LIMITS } from './state.js';
import { listEditor } from './lists.js';

function ctaChoice(ctx, getLook, changed) {
  const t = ctx.t;
  const options = ['web', 'bot'].map((v) => {
    const id = 'look-landing-cta-' + v;
    const input = h('input', { id, type: 'radio', name: 'look-cta', value: v, class: 'option-input' });
    input.checked = getLook().landing.cta_target === v;
    input.addEventListener('change', () => { if (input.checked) { getLook().landing.cta_target = v; changed('landing.cta_target'); } });
    return h('div', { class: 'look-check-row' }, input, h('label', { for: id }, t('look.landing.cta.' + v)));
  });
  return h('fieldset', { class: 'look-radios' }, h('legend', {}, t('look.landing.cta')), options);
}

export function landingSection(ctx, form, getLook, changed) {
  const t = ctx.t;
  const features = listEditor({
    t, id: 'look-features', path: 'landing.features', max: LIMITS.features, changed: () => changed('landing.features'),
    items: () => getLook().landing.features,
    legend: (i) => t('look.feature.n', { n: i + 1 }),
    add: t('look.feature.add'), empty: t('look.feature.empty'),
    make: () => ({ title: '', text: '', icon: '' }),
    // No icon field yet: the server takes a feature as exactly {title, text}
    // (domain/landing.cpp) and the landing shows no icons; state.js keeps one if present.
    fields: (p) => [
      form.text(p + '.title', t('look.feature.title'), { max: LIMITS.featureTitle, required: true }),
      form.text(p + '.text', t('look.feature.text'), { max: LIMITS.featureText, rows: 2, required: true }),
    ],
  });
  const faq = listEditor({
    t, id: 'look-faq', path: 'landing.faq', max: LIMITS.faq, changed: () => changed('landing.faq'),
    items: () => getLook().landing.faq,
    legend: (i) => t('look.faq.n', { n: i + 1 }),
    add: t('look.faq.add'), empty: t('look.faq.empty'),
    make: () => ({ q: '', a: '' }),
    fields: (p) => [
      form.text(p + '.q', t('look.faq.q'), { max: LIMITS.q, required: true }),
      form.text(p + '.a', t('look.faq.a'), { max: LIMITS.a, rows: 3, required: true }),
    ],
  });
  return h('section', { class: 'card look-card', 'aria-labelledby': 'look-landing-h' },
    h('h2', { class: 'card-title', id: 'look-landing-h' }, t('look.landing.title')),
    h('p', { class: 'muted' }, t('look.landing.hint'), ' ',
      h('a', { class: 'link', href: '/', target: '_blank', rel: 'noopener' }, t('look.landing.open'))),
    h('div', { class: 'form-grid' },
      form.check('landing.enabled', t('look.landing.enabled'), { hint: t('look.landing.enabledHint') }),
      form.text('landing.headline', t('look.landing.headline'), { max: LIMITS.headline, required: true }),
      form.text('landing.subheadline', t('look.landing.subheadline'), { max: LIMITS.subheadline, rows: 2 }),
      ctaChoice(ctx, getLook, changed)),
    h('div', { class: 'look-sub' }, h('h3', { class: 'look-sub-title' }, t('look.features.title')), features.el),
    h('div', { class: 'look-sub' }, h('h3', { class: 'look-sub-title' }, t('look.faq.title')), faq.el));
}
