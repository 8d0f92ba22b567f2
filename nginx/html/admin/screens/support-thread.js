// One support ticket for staff (GET /api/admin/support/tickets/{id}): its messages as a chat
// (customer left, support right; every text as text), earlier ones on request, the answer
// box (Ctrl+Enter sends; POST …/reply with an Idempotency-Key kept while the same text is
// sent again after a failure), close and reopen, and the customer beside it with a link to
// their card (#/customers?id=N). A viewer sees it all with the controls disabled.
//
//   const t = supportThread(ctx, pane, { changed(ticket), back() });
//   await t.open(id | null); await t.refresh(); t.close();

import { ApiError } from '../../shared/api.js';
import { h } from '../../shared/dom.js';
import { field, formStatus, send, textarea } from '../form.js';
import { facts, guard } from '../kit.js';

// A customer as staff call them: their name, else @username, else their Telegram or own id.
export function customerName(ctx, c) {
  const name = [c.first_name, c.last_name].filter(Boolean).join(' ').trim();
  if (name) return name;
  if (c.username) return '@' + c.username;
  return c.telegram_id ? ctx.t('support.inbox.tgUser', { id: c.telegram_id }) : ctx.t('support.inbox.user', { id: c.id });
}

export const statusBadge = (ctx, status) => h('span', {
  class: 'badge ' + (status === 'closed' ? 'badge-disabled' : 'badge-ticket-' + status),
}, ctx.t('support.inbox.status.' + status));

function customerCard(ctx, c) {
  const s = c.subscription;
  const traffic = s ? ctx.t('support.inbox.trafficOf', { used: ctx.fmt.bytes(s.traffic_used_bytes),
    limit: s.traffic_limit_bytes ? ctx.fmt.bytes(s.traffic_limit_bytes) : ctx.t('support.inbox.unlimited') }) : null;
  return h('aside', { class: 'card support-customer', 'aria-labelledby': 'support-customer-title' },
    h('h3', { id: 'support-customer-title' }, customerName(ctx, c)),
    c.is_blocked ? h('p', {}, h('span', { class: 'badge badge-expired' }, ctx.t('support.inbox.blocked'))) : null,
    facts([
      [ctx.t('support.inbox.username'), c.username ? '@' + c.username : null],
      [ctx.t('support.inbox.telegramId'), c.telegram_id ? String(c.telegram_id) : ctx.t('support.inbox.noTelegram')],
      [ctx.t('support.inbox.email'), c.email],
      [ctx.t('support.inbox.balance'), ctx.fmt.money(c.balance_minor, c.currency)],
      [ctx.t('support.inbox.subscription'), s
        ? ctx.t('support.inbox.sub.' + s.status) + (s.plan_name ? ' · ' + s.plan_name : '') : ctx.t('support.inbox.noSubscription')],
      [ctx.t('support.inbox.expires'), s ? ctx.fmt.dateTime(s.expire_at) : null],
      [ctx.t('support.inbox.traffic'), traffic],
      [ctx.t('support.inbox.joined'), ctx.fmt.date(c.created_at)],
    ]),
    h('a', { class: 'btn btn-ghost btn-small', href: '#/customers?id=' + c.id }, ctx.t('support.inbox.openCard')));
}

export function supportThread(ctx, pane, { changed, back }) {
  let id = null;
  let ticket = null;
  let older = [];        // earlier messages loaded on request, oldest first
  let key = null;        // the answer's Idempotency-Key while the same text is being sent
  let seq = 0;
  let els = null;

  const placeholder = () => pane.replaceChildren(h('div', { class: 'empty support-none' },
    h('p', {}, ctx.t('support.inbox.choose'))));

  function bubble(m) {
    const ours = m.author === 'support';
    return h('li', { class: 'bubble ' + (ours ? 'bubble-you' : 'bubble-support') },
      h('span', { class: 'bubble-from' }, ctx.t(ours ? 'support.inbox.fromSupport' : 'support.inbox.fromCustomer')),
      h('p', { class: 'bubble-text' }, m.text),
      h('time', { class: 'bubble-time', datetime: m.at }, ctx.fmt.dateTime(m.at)));
  }

  function renderMessages(stickToEnd) {
    const chat = els.chat;
    const nearEnd = chat.scrollHeight - chat.scrollTop - chat.clientHeight < 48;
    const all = older.concat(ticket.messages);
    const moreBefore = older.length ? els.moreBefore : ticket.more_before;
    chat.replaceChildren(...(moreBefore ? [h('li', { class: 'support-earlier' }, els.earlier)] : []), ...all.map(bubble));
    if (stickToEnd || nearEnd) chat.scrollTop = chat.scrollHeight;
  }

  function renderHead() {
    const closed = ticket.status === 'closed';
    const action = h('button', { class: 'btn btn-ghost btn-small', type: 'button', disabled: ctx.readOnly },
      ctx.t(closed ? 'support.inbox.reopen' : 'support.inbox.close'));
    action.addEventListener('click', () => send(ctx, { button: action,
      done: ctx.t(closed ? 'support.inbox.reopened' : 'support.inbox.closed', { id: ticket.id }) }, async () => {
      show(await ctx.api.post(`/support/tickets/${ticket.id}/${closed ? 'reopen' : 'close'}`, {}));
      changed(ticket);
      els.action.focus();
    }));
    els.head.replaceChildren(
      h('a', { class: 'btn btn-ghost btn-small support-back', href: '#/support', onclick: (e) => { e.preventDefault(); back(); } },
        ctx.t('support.inbox.back')),
      h('h2', { id: 'support-thread-title' }, ctx.t('support.inbox.ticketNo', { id: ticket.id })),
      statusBadge(ctx, ticket.status),
      h('span', { class: 'support-head-actions' }, action));
    els.action = action;
    els.box.disabled = ctx.readOnly || closed;
    els.closedNote.hidden = !closed;
  }

  // The ticket as the server answered it; the answer box keeps what is being typed.
  // Only what changed is drawn again, so a poll never takes the focus from a control.
  function show(t) {
    const fresh = !ticket || ticket.id !== t.id || !els;
    const moved = fresh || t.status !== ticket.status;
    const grew = fresh || t.message_count !== ticket.message_count ||
      (t.messages.length && ticket.messages.length && t.messages[t.messages.length - 1].id !== ticket.messages[ticket.messages.length - 1].id);
    const who = fresh || JSON.stringify(t.customer) !== JSON.stringify(ticket.customer);
    if (fresh) { older = []; build(); }
    ticket = t;
    if (moved) renderHead();
    if (grew) renderMessages(fresh);
    if (who) els.customer.replaceWith(els.customer = customerCard(ctx, t.customer));
  }

  function build() {
    const chat = h('ol', { class: 'chat support-chat', tabindex: '0', 'aria-label': ctx.t('support.inbox.thread') });
    const earlier = h('button', { class: 'btn btn-ghost btn-small', type: 'button' }, ctx.t('support.inbox.earlier'));
    earlier.addEventListener('click', () => send(ctx, { button: earlier }, async () => {
      const before = older.length ? els.moreBefore : ticket.more_before;
      const page = await ctx.api.get(`/support/tickets/${ticket.id}?before=${encodeURIComponent(before)}`);
      older = (page.messages || []).concat(older);
      els.moreBefore = page.more_before;
      const height = chat.scrollHeight;
      renderMessages(false);
      chat.scrollTop = chat.scrollHeight - height;
    }));
    const text = textarea({ rows: 4, maxlength: 4096 });
    const answer = field(ctx.t('support.inbox.answer'), text, { hint: ctx.t('support.inbox.answerHint'), names: ['text'], wide: true });
    const sendBtn = h('button', { class: 'btn btn-primary', type: 'submit' }, ctx.t('support.inbox.send'));
    const status = formStatus();
    const closedNote = h('p', { class: 'muted', hidden: true }, ctx.t('support.inbox.closedNote'));
    const box = guard(ctx, h('fieldset', {}, h('legend', { class: 'visually-hidden' }, ctx.t('support.inbox.answer')),
      answer.el, h('div', { class: 'btn-row' }, sendBtn)));
    const form = h('form', { class: 'admin-form support-reply', 'aria-labelledby': 'support-thread-title', novalidate: true },
      closedNote, box, status);
    text.addEventListener('input', () => { key = null; });
    text.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); form.requestSubmit(); }
    });
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      if (!text.value.trim()) { answer.error(ctx.t('support.inbox.blank')); text.focus(); return; }
      key = key || ctx.api.newKey();
      const sentFor = ticket.id;
      send(ctx, { fields: [answer], button: sendBtn, status, done: ctx.t('support.inbox.sent') }, async () => {
        try {
          const t = await ctx.api.post(`/support/tickets/${sentFor}/reply`, { text: text.value }, { idempotencyKey: key });
          key = null;
          text.value = '';
          if (ticket && ticket.id === sentFor) { show(t); renderMessages(true); }
          changed(t);
        } catch (err) {
          if (!(err instanceof ApiError) || err.status !== 0) key = null;   // kept only to send the same again
          throw err;
        }
      });
    });
    const head = h('div', { class: 'support-head' });
    const customer = h('div');
    els = { chat, earlier, head, box, closedNote, customer, moreBefore: null, action: null };
    pane.replaceChildren(h('section', { class: 'support-thread', 'aria-labelledby': 'support-thread-title' },
      head,
      h('div', { class: 'support-thread-body' }, h('div', { class: 'admin-grid support-talk' }, chat, form), customer)));
  }

  return {
    async open(next) {
      const mine = ++seq;
      id = next;
      key = null;
      if (!id) { ticket = null; els = null; placeholder(); return; }
      if (!ticket || ticket.id !== id) pane.replaceChildren(h('div', { class: 'skeleton skeleton-card' }));
      try {
        const t = await ctx.api.get('/support/tickets/' + id);
        if (mine === seq) show(t);
      } catch (e) {
        if (mine !== seq) return;
        if (e instanceof ApiError && e.status === 404) {
          ticket = null; els = null;
          pane.replaceChildren(h('div', { class: 'empty' }, h('p', {}, ctx.t('support.inbox.gone', { id }))));
          return;
        }
        throw e;
      }
    },
    async refresh() {
      if (!id || !ticket) return;
      const mine = seq;
      const t = await ctx.api.get('/support/tickets/' + id);
      if (mine === seq && ticket && ticket.id === t.id) show(t);
    },
    close() { seq++; },
  };
}
