// The sign-in methods screen's links that only the web cabinet offers (screens/linked.js
// adds them when ctx.web):
// - Telegram: POST /link/telegram {approve_in_browser} gives the bot's link (shown as a link
//   and a QR code for a phone). Confirming it in the bot only names the Telegram account:
//   this page polls /link/telegram/status and asks "is @name you?", since whoever reads the
//   QR code off the screen could confirm first. Yes (/link/telegram/approve) merges this web
//   account into the Telegram one and ends this session (docs/decisions.md, "The merge"):
//   the next request is a 401 and main.js shows the sign-in page, told to explain.
// - OAuth: "Link Google" asks /auth/oauth/{p}/authorize with this session's credential
//   (link mode), remembers the provider and the link for the callback page
//   (cabinet/screens/finish.js), and goes to the provider in this tab.

import { askApproval, telegramName } from '../shared/approval.js';
import { h, safeUrl } from '../shared/dom.js';
import { qrSvg } from '../shared/qr.js';

const PROVIDERS = { google: 'Google', yandex: 'Yandex', vk: 'VK ID' };
const POLL_MS = 2500;
export const TG_LINK_KEY = 'cabinet.telegram-link';   // read by cabinet/main.js

export function telegramLinkCard(ctx, { onLinked }) {
  const { t } = ctx;
  const body = h('div', { class: 'telegram-link', 'aria-live': 'polite' });
  const card = h('article', { class: 'card telegram-link-card', 'aria-labelledby': 'tg-link-title' },
    h('h2', { class: 'card-title', id: 'tg-link-title' }, t('linked.telegram.add')),
    h('p', { class: 'muted' }, t('linked.telegram.add_text')),
    body);
  let timer = null;
  let alive = true;
  const stop = () => { clearTimeout(timer); timer = null; };

  const startButton = (label = t('linked.telegram.start')) => h('button', { class: 'btn btn-primary', type: 'button', onclick: start }, label);

  async function start(e) {
    if (e && e.currentTarget) e.currentTarget.disabled = true;
    stop();
    let r;
    try {
      r = await ctx.api.post('/link/telegram', { approve_in_browser: true });
    } catch (err) {
      if (err && err.status === 409) { body.replaceChildren(h('p', { role: 'alert' }, t('linked.telegram.already'))); onLinked(); return; }
      ctx.fail(err);
      body.replaceChildren(startButton());
      return;
    }
    const url = safeUrl(r.url);
    const until = Date.now() + (Number(r.expires_in) || 900) * 1000;
    sessionStorage.setItem(TG_LINK_KEY, String(until));
    body.replaceChildren(
      url ? h('a', { class: 'btn btn-primary', href: url, target: '_blank', rel: 'noopener' }, t('linked.telegram.open')) : null,
      url ? qrSvg(url, { label: t('linked.telegram.qr') }) : null,
      h('p', { class: 'muted' }, t('linked.telegram.waiting')));
    const ended = (key) => {
      sessionStorage.removeItem(TG_LINK_KEY);
      body.replaceChildren(h('p', {}, t(key)), startButton(t('linked.telegram.restart')));
    };
    const poll = async () => {
      if (!alive) return;
      if (Date.now() > until) { ended('linked.telegram.expired'); return; }
      let d = null;
      try { d = await ctx.api.post('/link/telegram/status', { code: r.code }); } catch (err) {
        if (err && err.status === 400) { ended('linked.telegram.expired'); return; }
        if (err && err.status === 401) return;   // this session ended: main.js signs out
      }
      if (!alive) return;
      if (d && d.state === 'confirmed' && d.telegram) { ask(d.telegram); return; }
      timer = setTimeout(poll, POLL_MS);
    };
    // The Telegram account that confirmed, to approve or decline here.
    const ask = (tg) => askApproval(body, {
      id: 'tg-link',
      question: t('linked.telegram.ask', { name: telegramName(t, tg) }),
      note: t('linked.telegram.ask_note'),
      yes: t('linked.telegram.approve'),
      no: t('linked.telegram.decline'),
      answer: async (approve) => {
        try {
          const res = await ctx.api.post('/link/telegram/approve', { code: r.code, approve });
          if (!res.linked) { ended('linked.telegram.declined'); return; }
          onLinked();   // this session ended with the merge: its next request signs out, explained
        } catch (err) {
          if (err && err.status === 400) { ended('linked.telegram.expired'); return; }
          ctx.fail(err);
          throw err;   // the question stays, to answer again
        }
      },
    });
    timer = setTimeout(poll, POLL_MS);
  }

  body.replaceChildren(startButton());
  return { el: card, cleanup() { alive = false; stop(); } };
}

export function oauthLinkCard(ctx, providers) {
  const { t } = ctx;
  const list = h('ul', { class: 'auth-oauth oauth-link-list' }, providers.map((p) => h('li', {},
    h('button', {
      class: 'btn', type: 'button',
      onclick: async (e) => {
        const btn = e.currentTarget;
        if (ctx.demo) { ctx.toast(t('linked.demo'), 'info'); return; }
        btn.disabled = true;
        try {
          const r = await ctx.api.get('/auth/oauth/' + encodeURIComponent(p) + '/authorize');
          const to = safeUrl(r.authorize_url);
          if (!to) throw new Error('authorize_url is not a link');
          sessionStorage.setItem('cabinet.oauth.provider', p);
          sessionStorage.setItem('cabinet.oauth.link', '1');
          location.assign(to);
        } catch (err) {
          btn.disabled = false;
          ctx.fail(err);
        }
      },
    }, t('linked.oauth.link', { name: PROVIDERS[p] || p })))));
  return h('article', { class: 'card oauth-link-card', 'aria-labelledby': 'oauth-link-title' },
    h('h2', { class: 'card-title', id: 'oauth-link-title' }, t('linked.oauth.add')),
    h('p', { class: 'muted' }, t('linked.oauth.add_text')),
    list);
}
