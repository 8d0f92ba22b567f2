// The template chooser: the eight templates as eight live, scaled-down frames of the
// mini-app in demo mode, each under a radio button (a native radio group: arrow keys move
// between them, the frames themselves take no focus). Picking one changes the unsaved look
// (the big preview follows); Save stores it.

import { h } from '../../shared/dom.js';
import { TEMPLATES } from './state.js';

export function templateChooser(ctx, previews, getLook, changed) {
  const t = ctx.t;
  const cards = TEMPLATES.map((x) => {
    const id = 'look-template-' + x;
    const input = h('input', { id, type: 'radio', name: 'look-template', value: x, class: 'look-template-input',
      'aria-describedby': id + '-d' });
    input.checked = getLook().template === x;
    input.addEventListener('change', () => {
      if (!input.checked) return;
      getLook().template = x;
      changed('template');
    });
    const name = t('look.template.' + x);
    const thumb = previews.frame({ template: x, title: t('look.template.frame', { name }), cls: 'look-thumb-frame', lazy: true });
    thumb.el.setAttribute('tabindex', '-1');
    // The frame is a picture of the template here: out of the tab order and of the
    // accessibility tree (the radio's label and description say what it shows).
    return h('div', { class: 'look-template' },
      h('div', { class: 'look-thumb', inert: true, 'aria-hidden': 'true' }, thumb.el),
      h('div', { class: 'look-template-label' }, input,
        h('label', { for: id }, h('strong', {}, name)),
        h('span', { class: 'muted look-template-desc', id: id + '-d' }, t('look.template.' + x + '.desc'))));
  });
  // A click on a thumbnail picks its template (the inert frame lets the click through to
  // its card; the label row picks by itself).
  for (const card of cards) {
    card.addEventListener('click', (e) => {
      if (e.target.closest('.look-template-label')) return;
      const input = card.querySelector('input');
      if (input.disabled) return;
      input.checked = true;
      input.dispatchEvent(new Event('change'));
      input.focus();
    });
  }
  return h('section', { class: 'card look-card', 'aria-labelledby': 'look-templates-h' },
    h('h2', { class: 'card-title', id: 'look-templates-h' }, t('look.templates.title')),
    h('fieldset', { class: 'look-templates-set' },
      h('legend', { class: 'visually-hidden' }, t('look.templates.legend')),
      h('p', { class: 'muted' }, t('look.templates.hint')),
      h('div', { class: 'look-templates' }, cards)));
}
