// linked: not built yet (issue 14).
import { h } from '../../shared/dom.js';

export default {
  title: 'linked.title',
  tab: 'account',
  parent: 'account',
  async render(view) {
    view.replaceChildren(h('div', { class: 'empty' }, '…'));
  },
};
