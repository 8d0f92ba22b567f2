// The mini-app's home and its buttons (SPEC-GAPS "app.ui"): the order of the home sections
// (moved up and down by keyboard or mouse) and which are shown (the subscription's state
// always is), the six buttons' text and colour, the owner's blocks and extra buttons.

import { h } from '../../shared/dom.js';
import { BUTTONS, LIMITS, SCREENS, STYLES, newId } from './state.js';
import { listEditor } from './lists.js';

// The app's own text for each button (the shared table), shown as the placeholder.
const DEFAULTS = {
  renew: 'home.action.renew', share: 'referral.share', open_app: 'home.action.connect',
  get_link: 'look.button.get_link.default', connect_proxy: 'home.proxy.button', trial: 'home.action.trial',
};

function sectionOrder(ctx, getLook, changed) {
  const t = ctx.t;
  const list = h('ol', { class: 'look-sections', 'aria-label': t('look.sections.list') });
  const status = h('p', { class: 'visually-hidden', role: 'status' });
  const render = (focus = null) => {
    const u = getLook().ui;
    list.replaceChildren(...u.sections.map((s, i) => {
      const name = t('look.section.' + s);
      const id = 'look-show-' + s;
      const shown = h('input', { id, type: 'checkbox', class: 'look-check', disabled: s === 'status' });
      shown.checked = !u.hidden.includes(s);
      shown.addEventListener('change', () => {
        u.hidden = shown.checked ? u.hidden.filter((x) => x !== s) : [...u.hidden, s];
        changed('ui.hidden');
      });
      const up = h('button', { class: 'btn btn-ghost look-move', type: 'button', disabled: i === 0, 'data-act': 'up',
        'aria-label': t('look.list.up', { item: name }) }, '↑');
      const down = h('button', { class: 'btn btn-ghost look-move', type: 'button', disabled: i === u.sections.length - 1, 'data-act': 'down',
        'aria-label': t('look.list.down', { item: name }) }, '↓');
      const move = (by) => {
        const j = i + by;
        [u.sections[i], u.sections[j]] = [u.sections[j], u.sections[i]];
        render({ section: s, act: by < 0 ? 'up' : 'down' });
        status.textContent = t('look.list.moved', { item: name, n: j + 1 });
        changed('ui.sections');
      };
      up.addEventListener('click', () => move(-1));
      down.addEventListener('click', () => move(1));
      return h('li', { class: 'look-section', 'data-section': s },
        h('span', { class: 'look-section-name' }, name),
        h('span', { class: 'look-check-row' }, shown, h('label', { for: id }, t(s === 'status' ? 'look.sections.always' : 'look.sections.shown'))),
        h('span', { class: 'btn-row look-item-tools' }, up, down));
    }));
    if (focus) {
      const row = list.querySelector(`[data-section="${focus.section}"]`);
      const b = row.querySelector(`[data-act="${focus.act}"]`);
      (b.disabled ? row.querySelector(`[data-act="${focus.act === 'up' ? 'down' : 'up'}"]`) : b).focus();
    }
  };
  render();
  return h('div', { class: 'look-sub' },
    h('h3', { class: 'look-sub-title' }, t('look.sections.title')),
    h('p', { class: 'muted' }, t('look.sections.hint')), list, status);
}

function buttonsEditor(ctx, form) {
  const t = ctx.t;
  return h('div', { class: 'look-sub' },
    h('h3', { class: 'look-sub-title' }, t('look.buttons.title')),
    h('p', { class: 'muted' }, t('look.buttons.hint')),
    h('div', { class: 'look-buttons' }, BUTTONS.map((k) => h('fieldset', { class: 'look-item look-button' },
      h('legend', { class: 'look-item-title' }, t('look.button.' + k)),
      h('div', { class: 'look-item-fields look-two' },
        form.text(`ui.buttons.${k}.text`, t('look.button.text'), { max: LIMITS.buttonText, placeholder: t(DEFAULTS[k]) }),
        form.color(`ui.buttons.${k}.color`, t('look.button.color')))))));
}

const screenOptions = (t) => SCREENS.map((s) => [s, t('look.screen.' + s)]);

function blocksEditor(ctx, form, getLook, changed) {
  const t = ctx.t;
  const editor = listEditor({
    t, id: 'look-blocks', path: 'ui.blocks', max: LIMITS.blocks, changed: () => changed('ui.blocks'),
    items: () => getLook().ui.blocks,
    legend: (i) => t('look.block.n', { n: i + 1 }),
    add: t('look.block.add'), empty: t('look.block.empty'),
    make: () => ({ id: newId('b'), screen: 'home', title: '', text: '', icon: '', url: '', button_label: '', color: '' }),
    fields: (p) => [
      h('div', { class: 'look-two' },
        form.select(p + '.screen', t('look.block.screen'), screenOptions(t)),
        form.text(p + '.icon', t('look.block.icon'), { max: LIMITS.icon, hint: t('look.block.iconHint') })),
      form.text(p + '.title', t('look.block.title'), { max: LIMITS.blockTitle }),
      form.text(p + '.text', t('look.block.text'), { max: LIMITS.blockText, rows: 3 }),
      h('div', { class: 'look-two' },
        form.text(p + '.button_label', t('look.block.label'), { max: LIMITS.label }),
        form.text(p + '.url', t('look.block.url'), { max: LIMITS.url, inputmode: 'url', hint: t('look.url.hint') })),
      form.color(p + '.color', t('look.block.color')),
    ],
  });
  return h('div', { class: 'look-sub' },
    h('h3', { class: 'look-sub-title' }, t('look.blocks.title')), h('p', { class: 'muted' }, t('look.blocks.hint')), editor.el);
}

function extrasEditor(ctx, form, getLook, changed) {
  const t = ctx.t;
  const editor = listEditor({
    t, id: 'look-extras', path: 'ui.buttons_extra', max: LIMITS.extras, changed: () => changed('ui.buttons_extra'),
    items: () => getLook().ui.buttons_extra,
    legend: (i) => t('look.extra.n', { n: i + 1 }),
    add: t('look.extra.add'), empty: t('look.extra.empty'),
    make: () => ({ id: newId('x'), screen: 'home', label: '', url: '', color: '', style: 'primary' }),
    fields: (p) => [
      h('div', { class: 'look-two' },
        form.text(p + '.label', t('look.extra.label'), { max: LIMITS.label, required: true }),
        form.text(p + '.url', t('look.block.url'), { max: LIMITS.url, inputmode: 'url', required: true, hint: t('look.url.hint') })),
      h('div', { class: 'look-two' },
        form.select(p + '.screen', t('look.block.screen'), screenOptions(t)),
        form.select(p + '.style', t('look.extra.style'), STYLES.map((s) => [s, t('look.extra.style.' + s)]))),
      form.color(p + '.color', t('look.block.color')),
    ],
  });
  return h('div', { class: 'look-sub' },
    h('h3', { class: 'look-sub-title' }, t('look.extras.title')), h('p', { class: 'muted' }, t('look.extras.hint')), editor.el);
}

export function homeSection(ctx, form, getLook, changed) {
  return h('section', { class: 'card look-card', 'aria-labelledby': 'look-home-h' },
    h('h2', { class: 'card-title', id: 'look-home-h' }, ctx.t('look.home.title')),
    sectionOrder(ctx, getLook, changed),
    buttonsEditor(ctx, form),
    blocksEditor(ctx, form, getLook, changed),
    extrasEditor(ctx, form, getLook, changed));
}
