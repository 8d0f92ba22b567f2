// The audit log: GET /api/admin/audit?limit=N, newest first (actor, action, entity, time,
// payload as "key: value" text). "Load more" asks again with a larger limit (the API has
// no cursor; 200 is its maximum).

import { h } from '../../shared/dom.js';
import { payloadText } from '../kit.js';

const STEP = 50;
const MAX = 200;

function entry(ctx, e) {
  const action = ctx.t.has('admin.action.' + e.action) ? ctx.t('admin.action.' + e.action) : e.action;
  const payload = payloadText(e.payload);
  return h('li', { class: 'list-item audit-entry' },
    h('div', { class: 'audit-main' },
      h('p', { class: 'audit-head' }, h('strong', { class: 'audit-action' }, action),
        ' ', h('span', { class: 'audit-entity' }, e.entity || '')),
      h('p', { class: 'muted audit-meta' },
        h('span', { class: 'audit-actor' }, e.actor || ''), ' · ',
        h('time', { datetime: e.at }, ctx.fmt.dateTime(e.at)), ' · #', String(e.id)),
      payload ? h('pre', { class: 'audit-payload' }, payload) : null));
}

export default {
  title: 'admin.audit.title',
  tab: 'audit',
  async render(view, ctx) {
    let limit = STEP;
    const list = h('ul', { class: 'list audit-list', 'aria-label': ctx.t('admin.audit.list') });
    const more = h('button', { class: 'btn btn-ghost btn-wide', type: 'button' }, ctx.t('admin.audit.more'));
    const reload = h('button', { class: 'btn btn-ghost', type: 'button' }, ctx.t('admin.audit.reload'));
    const count = h('p', { class: 'muted audit-count', role: 'status' });
    view.append(h('div', { class: 'skeleton skeleton-card' }), h('div', { class: 'skeleton skeleton-line' }));

    const load = async () => {
      const data = await ctx.api.get('/audit?limit=' + limit);
      const items = data.items || [];
      if (!items.length) {
        view.replaceChildren(h('div', { class: 'empty' }, h('p', {}, ctx.t('admin.audit.empty'))), reload);
        return;
      }
      list.replaceChildren(...items.map((e) => entry(ctx, e)));
      count.textContent = ctx.t('admin.audit.count', { n: items.length });
      const hasMore = items.length >= limit && limit < MAX;   // .btn's display beats [hidden]
      view.replaceChildren(h('div', { class: 'btn-row audit-tools' }, reload), count, list, hasMore ? more : null);
    };
    const again = async (button, grow) => {
      button.disabled = true;
      if (grow) limit = Math.min(MAX, limit + STEP);
      try { await load(); } catch (e) { ctx.fail(e); } finally { button.disabled = false; }
    };
    more.addEventListener('click', () => again(more, true));
    reload.addEventListener('click', () => again(reload, false));
    await load();
  },
};
