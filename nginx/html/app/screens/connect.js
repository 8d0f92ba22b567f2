// connect: not built yet (issue 14).
import { h } from '../../shared/dom.js';

export default {
  title: 'connect.title',
  tab: 'connect',

  async render(view) {
    view.replaceChildren(h('div', { class: 'empty' }, '…'));
  },
};
