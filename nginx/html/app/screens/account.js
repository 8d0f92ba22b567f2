// account: not built yet (issue 14).
import { h } from '../../shared/dom.js';

export default {
  title: 'account.title',
  tab: 'account',

  async render(view) {
    view.replaceChildren(h('div', { class: 'empty' }, '…'));
  },
};
