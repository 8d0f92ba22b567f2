// A list of repeated items in the Look form (blocks, extra buttons, landing features and
// FAQ): each item a fieldset with its fields, "move up", "move down" and "remove"; an "add"
// button up to the limit. Moves keep the keyboard focus on the moved item's button, and a
// status line says where it went, so the order can be set without a mouse.

import { h } from '../../shared/dom.js';

// opts: { id, items: () => array, max, legend: (i) => text, add: label, empty: text,
//         make: () => new item, fields: (prefix, item, i) => nodes, path: 'ui.blocks',
//         changed: () => void, t }
export function listEditor(opts) {
  const { t } = opts;
  const root = h('div', { class: 'look-list', id: opts.id });
  const status = h('p', { class: 'visually-hidden', role: 'status' });
  const addButton = h('button', { class: 'btn btn-ghost look-add', type: 'button' }, opts.add);

  function render(focus = null) {
    const items = opts.items();
    const nodes = items.map((item, i) => {
      const legend = opts.legend(i);
      const up = h('button', { class: 'btn btn-ghost look-move', type: 'button', 'data-act': 'up', disabled: i === 0,
        'aria-label': t('look.list.up', { item: legend }) }, '↑');
      const down = h('button', { class: 'btn btn-ghost look-move', type: 'button', 'data-act': 'down', disabled: i === items.length - 1,
        'aria-label': t('look.list.down', { item: legend }) }, '↓');
      const remove = h('button', { class: 'btn btn-ghost look-remove', type: 'button', 'data-act': 'remove' },
        t('look.list.remove'), h('span', { class: 'visually-hidden' }, ' ' + legend));
      up.addEventListener('click', () => move(i, -1));
      down.addEventListener('click', () => move(i, 1));
      remove.addEventListener('click', () => drop(i));
      return h('fieldset', { class: 'look-item', 'data-index': String(i) },
        h('legend', { class: 'look-item-title' }, legend),
        h('div', { class: 'look-item-fields' }, opts.fields(`${opts.path}.${i}`, item, i)),
        h('div', { class: 'btn-row look-item-tools' }, up, down, remove));
    });
    addButton.disabled = items.length >= opts.max;
    root.replaceChildren(...[
      items.length ? null : h('p', { class: 'muted look-empty' }, opts.empty),
      ...nodes,
      h('div', { class: 'btn-row' }, addButton,
        h('span', { class: 'muted look-count' }, t('look.list.count', { n: items.length, max: opts.max }))),
      status].filter(Boolean));
    if (focus) {
      const target = root.querySelector(`[data-index="${focus.index}"] [data-act="${focus.act}"]`);
      const fallback = root.querySelector(`[data-index="${focus.index}"] [data-act="${focus.act === 'up' ? 'down' : 'up'}"]`);
      (target && !target.disabled ? target : fallback && !fallback.disabled ? fallback : focus.el || addButton).focus();
    }
  }

  function move(i, by) {
    const items = opts.items();
    const j = i + by;
    if (j < 0 || j >= items.length) return;
    [items[i], items[j]] = [items[j], items[i]];
    render({ index: j, act: by < 0 ? 'up' : 'down' });
    status.textContent = t('look.list.moved', { item: opts.legend(j), n: j + 1 });
    opts.changed();
  }
  function drop(i) {
    const items = opts.items();
    items.splice(i, 1);
    render();
    const next = root.querySelector(`[data-index="${Math.min(i, items.length - 1)}"] input, [data-index="${Math.min(i, items.length - 1)}"] select`);
    (next || addButton).focus();
    status.textContent = t('look.list.removed');
    opts.changed();
  }
  addButton.addEventListener('click', () => {
    const items = opts.items();
    if (items.length >= opts.max) return;
    items.push(opts.make());
    render();
    const first = root.querySelector(`[data-index="${items.length - 1}"] input:not([type=color]), [data-index="${items.length - 1}"] select`);
    if (first) first.focus();
    opts.changed();
  });

  render();
  return { el: root, render };
}
