// Sign-in methods (GET /linked): Telegram (always there inside the mini-app), the e-mail
// with its password, and the OAuth accounts. An e-mail is linked in two steps: e-mail and
// a new password (POST /link/email), then the 6-digit code from the mail (POST
// /link/email/confirm). An OAuth account, and the e-mail sign-in, are removed after an
// inline confirmation; the server refuses to remove the last way in (409), and the page
// says why. With a password, it can be changed here (app/linked-password.js).
// In the web cabinet (ctx.web) Telegram and the OAuth providers not linked yet can be
// linked here too (app/linked-web.js). Last, "sign out everywhere else" (app/linked-sessions.js).

import { h } from '../../shared/dom.js';
import { emailForm } from '../linked-email.js';
import { passwordCard } from '../linked-password.js';
import { sessionsCard } from '../linked-sessions.js';
import { oauthLinkCard, telegramLinkCard } from '../linked-web.js';

const PROVIDERS = { google: 'Google', yandex: 'Yandex', vk: 'VK ID' };
const providerName = (p) => PROVIDERS[p] || String(p);

function method(title, details, action) {
  return h('li', { class: 'list-item linked-item' },
    h('div', { class: 'linked-main' },
      h('span', { class: 'linked-title' }, title),
      details.filter(Boolean).map((d) => h('span', { class: 'linked-detail muted' }, d))),
    action || null);
}

// "Unlink" asked inline first; `remove()` does it. 409 is the last way in: said in place.
function unlinkControl(ctx, { name, remove, lastKey = 'linked.unlink.last' }, onDone) {
  const box = h('div', { class: 'linked-action' });
  const ask = () => {
    const yes = h('button', { class: 'btn btn-danger', type: 'button', onclick: () => unlink(yes) }, ctx.t('linked.unlink.yes'));
    box.replaceChildren(h('div', { class: 'linked-confirm', role: 'group', 'aria-label': ctx.t('linked.unlink.ask', { name }) },
      h('p', {}, ctx.t('linked.unlink.ask', { name })),
      h('div', { class: 'btn-row' }, yes,
        h('button', { class: 'btn', type: 'button', onclick: idle }, ctx.t('action.cancel')))));
    yes.focus();
  };
  function idle() {
    const b = h('button', { class: 'btn btn-ghost', type: 'button', 'aria-label': ctx.t('linked.unlink.named', { name }), onclick: ask }, ctx.t('linked.unlink'));
    box.replaceChildren(b);
    return b;
  }
  async function unlink(btn) {
    btn.disabled = true;
    try {
      await remove();
      ctx.success(ctx.t('linked.unlink.done', { name }));
      onDone();
    } catch (e) {
      if (e && e.status === 409) {
        ctx.tg.haptic('error');
        box.replaceChildren(h('p', { class: 'field-error', role: 'alert' }, ctx.t(lastKey, { name })));
      } else {
        ctx.fail(e);
        idle().focus();
      }
    }
  }
  idle();
  return box;
}

async function render(view, ctx, state) {
  if (state.cleanup) { state.cleanup(); state.cleanup = null; }
  view.replaceChildren(h('div', { class: 'skeleton skeleton-card' }), h('div', { class: 'skeleton skeleton-line' }));
  const d = await ctx.api.get('/linked');
  const reload = () => render(view, ctx, state).catch((e) => ctx.fail(e, { inline: view }));
  const items = [];
  const tgUser = d.telegram || (ctx.tg.initUser ? { id: ctx.tg.initUser.id, username: ctx.tg.initUser.username } : null);
  if (tgUser || !ctx.web) {
    items.push(method('Telegram', [
      tgUser && tgUser.username ? '@' + tgUser.username : (tgUser ? ctx.t('linked.telegram.id', { id: tgUser.id }) : null),
      ctx.t(ctx.web ? 'linked.telegram.linked' : 'linked.telegram.note'),
    ]));
  }
  if (d.email) {
    items.push(method(ctx.t('linked.email'), [
      d.email,
      ctx.t(d.email_verified ? 'linked.email.verified' : 'linked.email.unverified'),
      d.has_password ? ctx.t('linked.email.password') : null,
    ], unlinkControl(ctx, { name: ctx.t('linked.email'), remove: () => ctx.api.del('/link/email'), lastKey: 'linked.email.remove.last' }, reload)));
  }
  for (const o of Array.isArray(d.oauth) ? d.oauth : []) {
    items.push(method(providerName(o.provider), [o.display_name, o.email],
      unlinkControl(ctx, { name: providerName(o.provider), remove: () => ctx.api.del('/link/oauth/' + encodeURIComponent(o.provider)) }, reload)));
  }
  const parts = [
    h('p', { class: 'muted linked-intro' }, ctx.t(ctx.web ? 'linked.intro.web' : 'linked.intro')),
    h('ul', { class: 'list linked-list', 'aria-label': ctx.t('linked.list') }, items),
  ];
  if (!d.email || !d.email_verified) parts.push(emailForm(ctx, { onLinked: reload, pending: d.email && !d.email_verified ? d.email : null }));
  else if (d.has_password) parts.push(passwordCard(ctx));
  const available = Array.isArray(d.available_providers) ? d.available_providers.filter((p) => typeof p === 'string') : [];
  if (ctx.web) {
    if (!tgUser) {
      const tg = telegramLinkCard(ctx, { onLinked: reload });
      state.cleanup = tg.cleanup;
      parts.push(tg.el);
    }
    if (available.length) parts.push(oauthLinkCard(ctx, available));
  } else if (available.length) {
    parts.push(h('p', { class: 'muted linked-note' }, ctx.t('linked.oauth.note', { list: available.map(providerName).join(', ') })));
  }
  // The mini-app offers it once the account has a way into the web cabinet of its own.
  const oauth = Array.isArray(d.oauth) ? d.oauth : [];
  if (ctx.web || d.email || oauth.length) parts.push(sessionsCard(ctx));
  view.replaceChildren(...parts);
}

export default {
  title: 'linked.title',
  tab: 'account',
  parent: 'account',
  async render(view, ctx) {
    const state = { cleanup: null };
    await render(view, ctx, state);
    return () => { if (state.cleanup) state.cleanup(); };
  },
};
