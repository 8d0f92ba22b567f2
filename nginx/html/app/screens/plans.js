// plans: not built yet (issue 14).
import { h } from '../../shared/dom.js';

export default {
  title: 'plans.title',
  tab: 'plans',

  async render(view) {
    view.replaceChildren(h('div', { class: 'empty' }, '…'));
  },
};
