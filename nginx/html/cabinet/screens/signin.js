// The web cabinet's sign-in screen: e-mail and password (sign in or create an account;
// "forgot password?" mails a reset link; an unverified address can have its link again),
// Telegram (the bot confirms; the page polls) and the shop's OAuth providers. Every answer
// of the API is explained in the user's language; 403 on the auth routes means the owner
// switched the web cabinet off.

import { ApiError } from '../../shared/api.js';
import { askApproval, telegramName } from '../../shared/approval.js';
import { h, mount, safeUrl } from '../../shared/dom.js';
import { qrSvg } from '../../shared/qr.js';

export function explain(ctx, e, { login = false } = {}) {
  const t = ctx.t;
  if (!(e instanceof ApiError)) return t('error.generic');
  if (e.status === 429) return e.retryAfter ? t('cabinet.error.wait', { seconds: e.retryAfter }) : t('error.429');
  if (login && e.status === 401) return t('cabinet.error.credentials');
  if (login && e.status === 403 && e.detail === 'e-mail is not verified') return t('cabinet.error.unverified');
  return ctx.errorText(e);
}

export function isOff(e) {
  return e instanceof ApiError && e.status === 403 && (!e.detail || /web cabinet/i.test(e.detail));
}

// The owner switched the web cabinet off: say so and send people to the bot (its name is
// on /public/landing, which answers either way).
export async function showOff(view, ctx) {
  let bot = ctx.config && ctx.config.bot_username;
  if (!bot) {
    try { bot = (await ctx.api.get('/public/landing')).bot_username; } catch { bot = null; }
  }
  const url = bot ? safeUrl('https://t.me/' + encodeURIComponent(bot)) : null;
  mount(view, h('section', { class: 'state state-off', 'aria-labelledby': 'view-title' },
    h('h1', { class: 'view-title', id: 'view-title' }, ctx.t('cabinet.off.title')),
    h('p', { class: 'state-text' }, ctx.t('cabinet.off.text')),
    url ? h('a', { class: 'btn btn-primary', href: url, rel: 'noopener' }, ctx.t('cabinet.off.bot')) : null));
}

const PROVIDERS = { google: 'Google', yandex: 'Yandex', vk: 'VK ID' };

export default {
  title: 'cabinet.signin.title',
  // merged: the session ended while a Telegram link waited in the bot (cabinet/main.js).
  async render(view, ctx, { merged = false } = {}) {
    const t = ctx.t;
    // /public/plans answers 403 exactly when the web cabinet is off; its methods say
    // whether a guest can buy (an online gateway is on).
    let guestMethods = [];
    try {
      const plans = await ctx.api.get('/public/plans');
      guestMethods = (plans && plans.payment_methods) || [];
    } catch (e) {
      if (isOff(e)) return showOff(view, ctx);
    }
    let mode = 'login';
    const message = h('p', { class: 'field-error auth-message', role: 'alert', id: 'cab-message' });
    const email = h('input', { class: 'input', id: 'cab-email', name: 'email', type: 'email', required: true, autocomplete: 'email', maxlength: '254' });
    const password = h('input', { class: 'input', id: 'cab-password', name: 'password', type: 'password', required: true, autocomplete: 'current-password', maxlength: '128' });
    const hint = h('p', { class: 'field-hint', id: 'cab-password-hint', hidden: true }, t('cabinet.register.hint'));
    const submit = h('button', { class: 'btn btn-primary', type: 'submit' }, t('cabinet.signin.submit'));
    const heading = h('h1', { class: 'view-title', id: 'view-title' }, t('cabinet.signin.title'));
    const switchBtn = h('button', { class: 'btn btn-ghost auth-switch', type: 'button' }, t('cabinet.register.switch'));
    const resend = h('button', { class: 'btn', type: 'button', hidden: true }, t('cabinet.verify.resend'));
    const forgot = h('button', { class: 'btn btn-ghost auth-forgot', type: 'button' }, t('cabinet.forgot.link'));

    function setMode(m) {
      mode = m;
      const reg = m === 'register';
      heading.textContent = t(reg ? 'cabinet.register.title' : 'cabinet.signin.title');
      submit.textContent = t(reg ? 'cabinet.register.submit' : 'cabinet.signin.submit');
      switchBtn.textContent = t(reg ? 'cabinet.signin.switch' : 'cabinet.register.switch');
      password.autocomplete = reg ? 'new-password' : 'current-password';
      if (reg) { password.minLength = 8; password.setAttribute('aria-describedby', 'cab-password-hint'); } else { password.removeAttribute('minlength'); password.removeAttribute('aria-describedby'); }
      hint.hidden = !reg;
      forgot.hidden = reg;
      resend.hidden = true;
      message.textContent = '';
    }
    switchBtn.addEventListener('click', () => setMode(mode === 'login' ? 'register' : 'login'));

    async function register() {
      // The page's language becomes the account's: its mails are written in it.
      const r = await ctx.api.post('/auth/register', { email: email.value.trim(), password: password.value, language: t.lang || 'en' });
      if (r && r.access_token) return ctx.session.adopt(r);
      mount(view, h('section', { class: 'auth auth-check-mail', 'aria-labelledby': 'view-title' },
        h('h1', { class: 'view-title', id: 'view-title' }, t('cabinet.register.check.title')),
        h('p', {}, t('cabinet.register.check.text', { email: (r && r.email) || email.value.trim() })),
        h('a', { class: 'btn', href: '/cabinet/' }, t('cabinet.signin.back'))));
      return null;
    }

    // Not verified yet: a new link (POST /auth/verify/resend, at most one a minute; the
    // answer is the same for any address).
    resend.addEventListener('click', async () => {
      resend.disabled = true;
      const addr = email.value.trim();
      try {
        await ctx.api.post('/auth/verify/resend', { email: addr });
        message.textContent = t('cabinet.verify.resent', { email: addr });
      } catch (e) { if (isOff(e)) return showOff(view, ctx); message.textContent = explain(ctx, e); } finally { resend.disabled = false; }
      return null;
    });

    // "Forgot password?": the address → POST /auth/password/forgot; the same answer
    // whether it has an account or not, so the page says "if".
    function showForgot() {
      const addr = h('input', { class: 'input', id: 'forgot-email', name: 'email', type: 'email', required: true,
        autocomplete: 'email', maxlength: '254', value: email.value.trim() });
      const note = h('p', { class: 'field-error auth-message', role: 'alert', id: 'forgot-message' });
      const send = h('button', { class: 'btn btn-primary', type: 'submit' }, t('cabinet.forgot.submit'));
      const back = h('button', { class: 'btn btn-ghost', type: 'button', onclick: () => { mount(view, page); email.focus(); } },
        t('cabinet.signin.back'));
      const box = h('form', { class: 'auth-form' },
        h('p', {}, t('cabinet.forgot.text')),
        h('div', { class: 'field' }, h('label', { for: 'forgot-email' }, t('cabinet.field.email')), addr),
        note, h('div', { class: 'btn-row' }, send, back));
      box.addEventListener('submit', async (ev) => {
        ev.preventDefault();
        const value = addr.value.trim();
        if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) { note.textContent = t('linked.error.email'); addr.focus(); return; }
        send.disabled = true;
        note.textContent = '';
        try {
          await ctx.api.post('/auth/password/forgot', { email: value });
          mount(view, h('section', { class: 'auth auth-check-mail', 'aria-labelledby': 'view-title' },
            h('h1', { class: 'view-title', id: 'view-title', tabindex: '-1' }, t('cabinet.forgot.title')),
            h('p', { role: 'status' }, t('cabinet.forgot.sent', { email: value })),
            h('a', { class: 'btn', href: '/cabinet/' }, t('cabinet.signin.back'))));
          view.querySelector('#view-title').focus();
        } catch (e) {
          if (isOff(e)) { showOff(view, ctx); return; }
          note.textContent = explain(ctx, e);
          send.disabled = false;
        }
      });
      mount(view, h('section', { class: 'auth', 'aria-labelledby': 'view-title' },
        h('h1', { class: 'view-title', id: 'view-title' }, t('cabinet.forgot.title')), box));
      addr.focus();
    }
    forgot.addEventListener('click', showForgot);

    const form = h('form', { class: 'auth-form', novalidate: false },
      h('div', { class: 'field' }, h('label', { for: 'cab-email' }, t('cabinet.field.email')), email),
      h('div', { class: 'field' }, h('label', { for: 'cab-password' }, t('cabinet.field.password')), password, hint),
      message, h('div', { class: 'btn-row' }, submit, resend), forgot);
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      submit.disabled = true;
      message.textContent = '';
      resend.hidden = true;
      try {
        if (mode === 'register') await register();
        else ctx.session.adopt(await ctx.api.post('/auth/login', { email: email.value.trim(), password: password.value }));
      } catch (e) {
        if (isOff(e)) return showOff(view, ctx);
        message.textContent = explain(ctx, e, { login: mode === 'login' });
        if (mode === 'login' && e instanceof ApiError && e.status === 403) resend.hidden = false;
      } finally {
        submit.disabled = false;
      }
      return null;
    });

    const tgBox = h('div', { class: 'auth-telegram', 'aria-live': 'polite' });
    let pollTimer = null;
    const stopPoll = () => { clearTimeout(pollTimer); pollTimer = null; };
    async function startTelegram() {
      stopPoll();
      mount(tgBox, h('div', { class: 'skeleton skeleton-line' }));
      let start;
      try {
        // Approved here: whoever reads the QR code off this screen and confirms first is
        // named and can be declined, instead of signing this browser in to their account.
        start = await ctx.api.post('/auth/telegram/start', { approve_in_browser: true });
      } catch (e) {
        if (isOff(e)) return showOff(view, ctx);
        mount(tgBox, h('p', { role: 'alert' }, explain(ctx, e)), tgButton());
        return null;
      }
      const url = safeUrl(start.url);
      const status = h('p', { class: 'auth-status' }, t('cabinet.telegram.waiting'));
      mount(tgBox,
        h('a', { class: 'btn btn-primary', href: url, target: '_blank', rel: 'noopener' }, t('cabinet.telegram.open')),
        qrSvg(start.url, { label: t('cabinet.telegram.qr') }),
        status);
      const until = Date.now() + (Number(start.expires_in) || 300) * 1000;
      const poll = async () => {
        if (Date.now() > until) { mount(tgBox, h('p', {}, t('cabinet.telegram.expired')), tgButton(t('cabinet.telegram.restart'))); return; }
        try {
          const r = await ctx.api.post('/auth/telegram/poll', { code: start.code });
          if (r && r.access_token) { stopPoll(); ctx.session.adopt(r); return; }
          if (r && r.telegram) { stopPoll(); askTelegram(start.code, r.telegram); return; }
        } catch (e) {
          if (e instanceof ApiError && e.status === 400 && /cancel/i.test(e.detail || '')) { mount(tgBox, h('p', { role: 'alert' }, t('cabinet.telegram.cancelled'))); return; }
          if (e instanceof ApiError && (e.status === 400 || e.status === 404 || e.status === 410)) { mount(tgBox, h('p', {}, t('cabinet.telegram.expired')), tgButton(t('cabinet.telegram.restart'))); return; }
          if (isOff(e)) { showOff(view, ctx); return; }
          if (e instanceof ApiError && e.status === 403) { mount(tgBox, h('p', { role: 'alert' }, t('cabinet.blocked.text'))); return; }
          // An outage or a 429: keep asking, a little slower.
          pollTimer = setTimeout(poll, 5000);
          return;
        }
        pollTimer = setTimeout(poll, 2000);
      };
      pollTimer = setTimeout(poll, 1500);
      return null;
    }
    // "X confirmed in Telegram. Is this your Telegram account?" Yes signs in; No ends the code.
    function askTelegram(code, tg) {
      askApproval(tgBox, {
        id: 'tg-approve',
        question: t('cabinet.telegram.ask', { name: telegramName(t, tg) }),
        note: t('cabinet.telegram.ask_note'),
        yes: t('cabinet.telegram.approve'),
        no: t('cabinet.telegram.decline'),
        answer: async (approve) => {
          try {
            const r = await ctx.api.post('/auth/telegram/approve', { code, approve });
            if (r && r.access_token) { ctx.session.adopt(r); return; }
            mount(tgBox, h('p', {}, t('cabinet.telegram.declined')), tgButton(t('cabinet.telegram.restart')));
          } catch (e) {
            if (isOff(e)) { showOff(view, ctx); return; }
            if (e instanceof ApiError && e.status === 403) { mount(tgBox, h('p', { role: 'alert' }, t('cabinet.blocked.text'))); return; }
            if (e instanceof ApiError && e.status === 400) { mount(tgBox, h('p', {}, t('cabinet.telegram.expired')), tgButton(t('cabinet.telegram.restart'))); return; }
            ctx.fail(e);
            throw e;   // the question stays, to answer again
          }
        },
      });
    }
    const tgButton = (label = t('cabinet.telegram.start')) => h('button', { class: 'btn', type: 'button', onclick: startTelegram }, label);
    mount(tgBox, tgButton());

    const providers = ((ctx.config && ctx.config.oauth_providers) || []).filter((p) => PROVIDERS[p]);
    const oauth = providers.length ? h('ul', { class: 'auth-oauth' }, providers.map((p) => h('li', {},
      h('button', {
        class: 'btn', type: 'button',
        onclick: async (ev) => {
          ev.currentTarget.disabled = true;
          try {
            const r = await ctx.api.get('/auth/oauth/' + p + '/authorize');
            sessionStorage.setItem('cabinet.oauth.provider', p);
            const to = safeUrl(r.authorize_url);
            if (to) location.assign(to);
          } catch (e) {
            if (isOff(e)) return showOff(view, ctx);
            message.textContent = explain(ctx, e);
          }
          return null;
        },
      }, t('cabinet.oauth.with', { provider: PROVIDERS[p] }))))) : null;

    const page = h('section', { class: 'auth', 'aria-labelledby': 'view-title' },
      heading,
      merged ? h('p', { class: 'notice auth-merged', role: 'status' }, t('cabinet.merged')) : null,
      form, switchBtn,
      h('h2', { class: 'auth-or' }, t('cabinet.signin.other')),
      tgBox, oauth,
      guestMethods.length ? h('p', { class: 'auth-guest' }, h('a', { class: 'btn btn-ghost', href: '/cabinet/buy' }, t('cabinet.buy.link'))) : null);
    mount(view, page);
    // The mail's "if it was not you" link (/cabinet/login?forgot=1) opens the form at once.
    if (new URLSearchParams(location.search).get('forgot') === '1') showForgot();
    return stopPoll;
  },
};
