// promo: not built yet (issue 14).
import { h } from '../../shared/dom.js';

export default {
  title: 'promo.title',
  tab: 'account',
  parent: 'account',
  async render(view) {
    view.replaceChildren(h('div', { class: 'empty' }, '…'));
  },
};
