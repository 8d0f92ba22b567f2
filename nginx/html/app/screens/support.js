// Support: the open ticket as a chat (GET /support), a message box (POST /support) and
// polling every few seconds while the screen is open and the page visible, so a reply
// from support appears without a reload. New replies are announced politely to screen
// readers; the chat stays scrolled to the newest message unless the reader scrolled up.

import { h } from '../../shared/dom.js';

const POLL_MS = 4000;
const STATUSES = ['open', 'waiting', 'closed'];

function time(ctx, at) {
  return h('time', { class: 'bubble-time', datetime: at }, ctx.fmt.dateTime(at));
}

export default {
  title: 'support.title',
  tab: 'account',
  parent: 'account',
  async render(view, ctx) {
    view.replaceChildren(h('div', { class: 'skeleton skeleton-card' }), h('div', { class: 'skeleton skeleton-line' }));
    let data = await ctx.api.get('/support');
    let stopped = false;
    let timer = null;
    let inFlight = false;
    let seen = data.messages.length;
    let painted = false;

    const status = h('p', { class: 'support-status' });
    const chat = h('ol', { class: 'chat', tabindex: '0', 'aria-label': ctx.t('support.chat') });
    const live = h('div', { class: 'visually-hidden', 'aria-live': 'polite', 'aria-atomic': 'false' });
    const text = h('textarea', {
      class: 'textarea', id: 'support-text', name: 'text', maxlength: '4096', rows: '3', required: true,
      'aria-describedby': 'support-hint support-error',
    });
    const error = h('p', { class: 'field-error', id: 'support-error', role: 'alert' });
    const send = h('button', { class: 'btn btn-primary', type: 'submit' }, ctx.t('support.send'));

    function paint() {
      const s = STATUSES.includes(data.status) ? data.status : null;
      status.replaceChildren(s
        ? h('span', {}, ctx.t('support.ticket', { id: data.ticket_id }), ' ', h('span', { class: 'badge badge-ticket-' + s }, ctx.t('support.status.' + s)))
        : h('span', { class: 'muted' }, ctx.t('support.none')));
      const nearBottom = chat.scrollHeight - chat.scrollTop - chat.clientHeight < 48;
      if (!data.messages.length) {
        chat.replaceChildren(h('li', { class: 'chat-empty muted' }, ctx.t('support.empty')));
      } else {
        chat.replaceChildren(...data.messages.map((m) => {
          const mine = m.from === 'you';
          return h('li', { class: 'bubble ' + (mine ? 'bubble-you' : 'bubble-support') },
            h('span', { class: 'bubble-from' }, ctx.t(mine ? 'support.from.you' : 'support.from.support')),
            h('p', { class: 'bubble-text' }, m.text),
            time(ctx, m.at));
        }));
      }
      if (nearBottom || !painted) chat.scrollTop = chat.scrollHeight;
      painted = true;
    }

    function adopt(next) {
      const fresh = next.messages.slice(seen).filter((m) => m.from !== 'you');
      const changed = next.messages.length !== data.messages.length || next.status !== data.status || next.ticket_id !== data.ticket_id;
      data = next;
      seen = next.messages.length;
      if (changed) paint();
      if (fresh.length) {
        live.textContent = fresh.map((m) => ctx.t('support.new_reply', { text: m.text })).join(' ');
        ctx.tg.haptic('light');
      }
    }

    async function poll() {
      if (stopped || inFlight || document.hidden) return;
      inFlight = true;
      try {
        const next = await ctx.api.get('/support');
        if (!stopped) adopt(next);
      } catch (e) {
        // A missed poll is retried on the next tick; only a lost session is worth a page.
        if (e && (e.status === 401 || e.status === 403)) { stopped = true; ctx.fail(e); }
      } finally {
        inFlight = false;
      }
    }

    async function submit(e) {
      e.preventDefault();
      const body = text.value.trim();
      if (!body) { error.textContent = ctx.t('support.blank'); text.setAttribute('aria-invalid', 'true'); text.focus(); return; }
      error.textContent = '';
      text.removeAttribute('aria-invalid');
      send.disabled = true;
      try {
        await ctx.api.post('/support', { text: body });
        text.value = '';
        ctx.success(ctx.t('support.sent'));
        const next = await ctx.api.get('/support');
        adopt(next);
        chat.scrollTop = chat.scrollHeight;
      } catch (err) {
        ctx.fail(err);
      } finally {
        send.disabled = false;
      }
    }

    const onKey = (e) => { if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) form.requestSubmit(); };
    text.addEventListener('keydown', onKey);
    const form = h('form', { class: 'card support-form', novalidate: true, onsubmit: submit },
      h('div', { class: 'field' },
        h('label', { for: 'support-text' }, ctx.t('support.label')),
        text,
        h('p', { class: 'muted field-hint', id: 'support-hint' }, ctx.t('support.hint')),
        error),
      send);

    view.replaceChildren(h('article', { class: 'card support-chat' }, status, chat), form, live);
    paint();

    timer = setInterval(poll, POLL_MS);
    const onVisible = () => { if (!document.hidden) poll(); };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      stopped = true;
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  },
};
