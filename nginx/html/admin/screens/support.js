// Support: the inbox (GET /api/admin/support/tickets: unread first, then the newest
// activity), status tabs with their counts (GET /support/counts, also the navigation's
// badge), a search and cursor "More"; beside it the chosen ticket (screens/support-thread.js).
// Status, search and ticket are in the URL (#/support?status=waiting&q=anna&ticket=12), so
// a view can be shared and the customers' cards can link to a thread. While open and
// visible it polls every 10 s: the list, the counts and the open thread.
// Under 1024 px the page shows the list, or the thread with a way back to it.

import { h } from '../../shared/dom.js';
import { field, input, send } from '../form.js';
import { routeHash } from '../shell.js';
import { customerName, statusBadge, supportThread } from './support-thread.js';

const TABS = ['open', 'waiting', 'closed', 'all'];
const PAGE = 50;
const POLL_MS = 10000;

export default {
  title: 'support.inbox.title',
  async render(view, ctx) {
    const status = TABS.includes(ctx.params.get('status')) ? ctx.params.get('status') : 'open';
    let q = ctx.params.get('q') || '';
    let selected = /^\d+$/.test(ctx.params.get('ticket') || '') ? Number(ctx.params.get('ticket')) : null;
    let items = [];
    let next = null;
    let seq = 0;
    let counts = null;

    const paramsFor = (changes) => {
      const p = new URLSearchParams();
      const all = { status: status === 'open' ? null : status, q: q || null, ticket: selected, ...changes };
      for (const [k, v] of Object.entries(all)) if (v !== null && v !== undefined && v !== '') p.set(k, String(v));
      return p;
    };
    const hashFor = (changes) => routeHash('support', paramsFor(changes));

    // The tabs: links (Back and shared URLs work), each with its count.
    const tabsEl = h('ul', { class: 'admin-sub' });
    function renderTabs() {
      tabsEl.replaceChildren(...TABS.map((id) => {
        const n = counts && (id === 'open' || id === 'waiting') ? counts[id] : null;
        return h('li', {}, h('a', { href: hashFor({ status: id === 'open' ? null : id, ticket: null }), 'aria-current': id === status ? 'page' : false },
          ctx.t('support.inbox.tab.' + id), n !== null ? [' ', h('span', { class: 'support-count' }, String(n))] : null));
      }));
    }

    const listEl = h('ul', { class: 'support-list', 'aria-label': ctx.t('support.inbox.list') });
    const emptyEl = h('div', { class: 'empty', hidden: true }, h('p', {}, ctx.t(q ? 'support.inbox.noneFound' : 'support.inbox.empty.' + status)));
    const moreBtn = h('button', { class: 'btn btn-ghost', type: 'button', hidden: true }, ctx.t('admin.table.more'));
    const live = h('p', { class: 'visually-hidden', role: 'status' });

    function itemEl(t) {
      const last = t.last_message;
      const link = h('a', { class: 'support-item', href: hashFor({ ticket: t.id }), 'data-ticket': t.id, 'data-unread': t.unread ? 'true' : null,
        'aria-current': t.id === selected ? 'true' : false },
      h('span', { class: 'support-item-head' },
        t.unread ? h('span', { class: 'support-dot', role: 'img', 'aria-label': ctx.t('support.inbox.unread') }) : null,
        h('span', { class: 'support-item-name' }, customerName(ctx, t.customer)),
        h('time', { class: 'support-item-time', datetime: t.updated_at }, ctx.fmt.dateTime(t.updated_at))),
      last ? h('span', { class: 'support-item-text' },
        last.author === 'support' ? ctx.t('support.inbox.youWrote') + ' ' : '', last.text) : null,
      h('span', { class: 'support-item-meta' }, statusBadge(ctx, t.status),
        h('span', { class: 'muted' }, ctx.t('support.inbox.ticketNo', { id: t.id }) + ' · ' + ctx.t('support.inbox.messages', { n: t.message_count }))));
      link.addEventListener('click', (e) => {
        if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;   // a new tab: the URL says it all
        e.preventDefault();
        select(t.id);
      });
      return h('li', {}, link);
    }

    function renderList() {
      listEl.replaceChildren(...items.map(itemEl));
      listEl.hidden = items.length === 0;
      emptyEl.hidden = items.length !== 0;
      moreBtn.hidden = !next;
    }

    // A page of the list; `more` appends the next one. A poll reads again as many as are shown.
    async function load({ more = false, quiet = false } = {}) {
      const mine = ++seq;
      const qs = new URLSearchParams({ status, limit: String(more ? PAGE : Math.min(200, Math.max(PAGE, items.length))) });
      if (q) qs.set('q', q);
      if (more && next) qs.set('cursor', next);
      const page = await ctx.api.get('/support/tickets?' + qs);
      if (mine !== seq) return;
      items = more ? items.concat(page.items || []) : (page.items || []);
      next = page.next_cursor || null;
      renderList();
      if (more) live.textContent = ctx.t('admin.table.added', { n: (page.items || []).length });
      else if (!quiet) live.textContent = ctx.t('support.inbox.shown', { n: items.length });
    }
    moreBtn.addEventListener('click', () => send(ctx, { button: moreBtn }, () => load({ more: true })));

    async function refreshCounts() {
      counts = await ctx.api.get('/support/counts');
      renderTabs();
      if (ctx.setBadge) ctx.setBadge('support', counts.unread, ctx.t('support.inbox.unreadCount', { n: counts.unread }));
    }

    // The search (a form: Enter searches), kept in the URL.
    const qF = field(ctx.t('support.inbox.search'), input({ type: 'search', value: q, autocomplete: 'off' }),
      { hint: ctx.t('support.inbox.searchHint') });
    const go = h('button', { class: 'btn', type: 'submit' }, ctx.t('support.inbox.find'));
    const search = h('form', { class: 'admin-toolbar', role: 'search', 'aria-label': ctx.t('support.inbox.search') }, qF.el, go);
    search.addEventListener('submit', (e) => {
      e.preventDefault();
      q = qF.input.value.trim();
      ctx.setParams({ q });
      renderTabs();
      send(ctx, { button: go }, () => load());
    });

    const layout = h('div', { class: 'support-layout' });
    const pane = h('div', { class: 'support-pane' });
    const thread = supportThread(ctx, pane, {
      // An answer, a close or a reopen: the list and the counts follow at once.
      changed: (t) => {
        items = items.map((x) => (x.id === t.id ? { ...x, status: t.status, unread: t.unread, updated_at: t.updated_at,
          message_count: t.message_count, last_message: lastOf(t) || x.last_message } : x));
        renderList();
        refreshCounts().catch(() => {});
      },
      back: () => select(null),
    });
    const lastOf = (t) => {
      const m = t.messages && t.messages[t.messages.length - 1];
      return m ? { author: m.author, text: m.text.slice(0, 200), at: m.at } : null;
    };

    function select(id) {
      selected = id;
      ctx.setParams({ ticket: id });
      layout.dataset.open = id ? 'true' : 'false';
      for (const a of listEl.querySelectorAll('a.support-item')) {
        if (a.dataset.ticket === String(id)) a.setAttribute('aria-current', 'true'); else a.removeAttribute('aria-current');
      }
      // Opened by someone who may answer, it is read now.
      const item = items.find((x) => x.id === id);
      if (item && item.unread && !ctx.readOnly) { item.unread = false; renderList(); }
      return thread.open(id).then(() => refreshCounts()).catch((e) => ctx.fail(e));
    }

    view.replaceChildren(h('div', { class: 'admin-grid' },
      h('nav', { 'aria-label': ctx.t('support.inbox.tabs') }, tabsEl),
      layout));
    layout.append(h('div', { class: 'support-inbox admin-grid' }, search, listEl, emptyEl, moreBtn, live), pane);
    layout.dataset.open = selected ? 'true' : 'false';
    renderTabs();
    await Promise.all([load({ quiet: true }), refreshCounts(), thread.open(selected)]);
    if (selected && !ctx.readOnly) {   // opening it read it
      const item = items.find((x) => x.id === selected);
      if (item && item.unread) { item.unread = false; renderList(); }
      refreshCounts().catch(() => {});
    }

    const timer = setInterval(() => {
      if (document.hidden) return;
      Promise.all([load({ quiet: true }), refreshCounts(), thread.refresh()]).catch((e) => {
        if (e && e.status === 401) ctx.fail(e);   // the page ends; other failures wait for the next poll
      });
    }, POLL_MS);
    return () => { clearInterval(timer); thread.close(); };
  },
};
