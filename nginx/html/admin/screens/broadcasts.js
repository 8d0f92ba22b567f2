// Broadcasts: a message to an audience of customers through the bot. The compose form with
// the live count and the preview (broadcast-compose.js), and the list of broadcasts (GET
// /api/admin/broadcasts, newest first, paged by cursor) with each one's progress, polled
// while any is queued or sending, cancel, and who a finished one did not reach. A viewer sees it all, every control disabled.

import { h } from '../../shared/dom.js';
import { send } from '../form.js';
import { confirmInPlace } from '../kit.js';
import { dataTable } from '../table.js';
import { composeForm } from './broadcast-compose.js';

const PAGE = 50;
const POLL_MS = 2000;
const BADGE = { queued: 'badge-pending', sending: 'badge-limited', done: 'badge-active', cancelled: 'badge-disabled' };
const running = (b) => b.status === 'queued' || b.status === 'sending';

function audienceText(ctx, b) {
  const kind = ctx.t('admin.broadcasts.kind.' + b.audience.kind);
  if (b.audience.kind === 'promo_group') return `${kind}: ${b.audience.promo_group || '—'}`;
  if (b.audience.kind === 'customer') return `${kind} #${b.audience.customer_id ?? '—'}`;
  return kind;
}

// "640 of 1200" with a bar; the three outcomes under it.
function progress(ctx, b) {
  const done = b.delivered + b.blocked + b.failed;
  const label = ctx.t('admin.broadcasts.progressOf', { n: done, total: b.total });
  return h('div', { class: 'bc-progress' },
    h('progress', { max: String(Math.max(b.total, 1)), value: String(b.status === 'done' && !b.total ? 1 : done), 'aria-label': label }),
    h('span', {}, label));
}

function outcomes(ctx, b) {
  return h('span', { class: 'bc-outcomes' },
    ctx.t('admin.broadcasts.delivered', { n: b.delivered }), ' · ',
    ctx.t('admin.broadcasts.blocked', { n: b.blocked }), ' · ',
    ctx.t('admin.broadcasts.failed', { n: b.failed }));
}

// Who a finished broadcast did not reach (GET …/{id}/recipients, blocked then failed, the
// first page of each), asked for when the owner opens it. Names are the customers' own
// words: text, never markup; each links to the customer's card.
const NOT_REACHED_PAGE = 50;
function notReached(ctx, b) {
  const n = b.blocked + b.failed;
  if (!n || running(b)) return null;
  const list = h('ul', { class: 'list bc-missed' });
  const box = h('details', { class: 'bc-missed-box' },
    h('summary', {}, ctx.t('admin.broadcasts.notReached', { n })), list);
  let asked = false;
  box.addEventListener('toggle', async () => {
    if (!box.open || asked) return;
    asked = true;
    list.setAttribute('aria-busy', 'true');
    try {
      const pages = await Promise.all(['blocked', 'failed'].filter((st) => b[st] > 0).map((st) =>
        ctx.api.get(`/broadcasts/${b.id}/recipients?state=${st}&limit=${NOT_REACHED_PAGE}`)));
      const items = pages.flatMap((p) => p.items || []);
      list.replaceChildren(...items.map((r) => h('li', { class: 'list-item bc-missed-item' },
        h('a', { href: '#/customers?id=' + r.customer.id }, customerName(r.customer)),
        h('span', { class: 'muted' }, r.state === 'blocked' ? ctx.t('admin.broadcasts.wasBlocked')
          : ctx.t('admin.broadcasts.wasFailed', { why: r.error || '—' })))));
      const shown = items.length;
      if (shown < n) list.append(h('li', { class: 'muted' }, ctx.t('admin.broadcasts.andMore', { n: n - shown })));
    } catch (e) {
      asked = false;
      ctx.fail(e);
    } finally {
      list.setAttribute('aria-busy', 'false');
    }
  });
  return box;
}

function customerName(c) {
  const first = (c.first_name || '').trim();
  return first || (c.username ? '@' + c.username : '#' + c.id);
}

function shortText(text) {
  const plain = text.replace(/<[^>]*>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
  return plain.length > 80 ? plain.slice(0, 79) + '…' : plain;
}

export default {
  title: 'admin.broadcasts.title',
  async render(view, ctx) {
    view.append(h('div', { class: 'skeleton skeleton-card' }));
    const groupsAnswer = await ctx.api.get('/promo-groups');
    const groups = (groupsAnswer && groupsAnswer.items) || [];
    let seq = 0;
    let timer = null;
    let stopped = false;

    const cancel = (b) => {
      const btn = h('button', { class: 'btn btn-ghost btn-small', type: 'button', disabled: ctx.readOnly,
        'aria-label': ctx.t('admin.broadcasts.cancelNamed', { id: b.id }) }, ctx.t('admin.broadcasts.cancel'));
      btn.addEventListener('click', async () => {
        if (!await confirmInPlace(ctx, btn, ctx.t('admin.broadcasts.cancelAsk'), ctx.t('admin.broadcasts.cancelYes'), true)) return;
        await send(ctx, { button: btn, done: ctx.t('admin.broadcasts.cancelled', { id: b.id }) }, async () => {
          const next = await ctx.api.post(`/broadcasts/${b.id}/cancel`, {});
          replace([next]);
        });
      });
      return running(b) ? btn : null;
    };

    const table = dataTable(ctx, {
      label: ctx.t('admin.broadcasts.list'), rowKey: (b) => String(b.id), empty: ctx.t('admin.broadcasts.empty'),
      columns: [
        { key: 'created_at', label: ctx.t('admin.broadcasts.created'), cell: (b) => ctx.fmt.dateTime(b.created_at) },
        { key: 'audience', label: ctx.t('admin.broadcasts.audience'), cell: (b) => audienceText(ctx, b) },
        { key: 'text', label: ctx.t('admin.broadcasts.text'), cell: (b) => h('span', { class: 'bc-short' }, shortText(b.text)) },
        { key: 'status', label: ctx.t('admin.broadcasts.status'),
          cell: (b) => h('span', { class: 'badge ' + (BADGE[b.status] || '') }, ctx.t('admin.broadcasts.status.' + b.status)) },
        { key: 'progress', label: ctx.t('admin.broadcasts.progress'), cell: (b) => h('div', {}, progress(ctx, b), outcomes(ctx, b), notReached(ctx, b)) },
        { key: 'act', label: ctx.t('admin.table.actions'), listLabel: false, cell: cancel },
      ],
    });

    function replace(items) {
      const byId = new Map(items.map((b) => [b.id, b]));
      table.setRows(table.rows.map((b) => byId.get(b.id) || b));
      schedule();
    }

    // While any broadcast is queued or sending, its row is asked for again every 2 s.
    function schedule() {
      clearTimeout(timer);
      if (stopped || !table.rows.some(running)) return;
      timer = setTimeout(async () => {
        try {
          replace(await Promise.all(table.rows.filter(running).map((b) => ctx.api.get('/broadcasts/' + b.id))));
        } catch (e) {
          if (!stopped) ctx.fail(e);
        }
      }, POLL_MS);
    }

    async function load(cursor = null) {
      const mine = ++seq;
      const qs = new URLSearchParams({ limit: String(PAGE) });
      if (cursor) qs.set('cursor', cursor);
      const page = await ctx.api.get('/broadcasts?' + qs);
      if (mine !== seq) return;
      if (cursor) table.addRows(page.items || []); else table.setRows(page.items || []);
      table.setMore(page.next_cursor ? () => load(page.next_cursor) : null);
      schedule();
    }

    const listCard = h('section', { class: 'card', 'aria-labelledby': 'bc-list' },
      h('h2', { class: 'card-title', id: 'bc-list' }, ctx.t('admin.broadcasts.list')), table.el);
    const form = composeForm(ctx, groups, { sent: () => load() });
    view.replaceChildren(h('div', { class: 'admin-grid' },
      h('div', { class: 'admin-pair' }, form.compose, form.preview), listCard));
    await load();
    return () => { stopped = true; clearTimeout(timer); form.stop(); };
  },
};
