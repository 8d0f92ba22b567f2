// The pages that finish a sign-in started elsewhere: /cabinet/verify?token= (the link of
// the verification mail) posts the token; /cabinet/oauth/callback?code=&state= (where the
// provider sends the browser back) posts {provider, code, state} with a same-origin fetch,
// so the __Host- cookie set by /authorize goes along. Either lands signed in or explains.
// An OAuth link started from a signed-in web session (screens/linked.js marks it in
// sessionStorage; main.js restored that session, so the callback carries its Bearer
// credential, which the server requires in link mode) lands back on the sign-in methods
// as the same account, with a fresh session for it (the old one is ended).
// With the web cabinet off, both pages say so and point to the bot, as the sign-in does.
// A link of an address registered more than once asks for its registration's password
// first (409 from /auth/verify: askPassword). A verify link opened in a browser that is
// signed in already asks before it replaces that session (askSwitch): otherwise anyone's
// link, sent to a signed-in customer, silently signed every tab in to the sender's
// account (login CSRF), where the customer's next payment or Telegram link would go.

import { h, mount } from '../../shared/dom.js';
import { explain, isOff, showOff } from './signin.js';
import { ApiError, apiBase } from '../../shared/api.js';

// The provider is not in the callback URL: the state names it (oauth.cpp puts the provider
// in the cookie); we remember it in sessionStorage when the sign-in starts, and fall back
// to asking the server with each provider the shop offers.
const PROVIDERS = { google: 'Google', yandex: 'Yandex', vk: 'VK ID' };

// The session this browser holds: its refresh token and user, or null.
function storedSession() {
  try {
    const st = JSON.parse(localStorage.getItem('cabinet.session'));
    return st && st.refresh ? st : null;
  } catch { return null; }
}

// The new session for every tab; the one it replaces (read now: another tab may have
// rotated it since the page opened) is ended on the server, so nobody is left holding it.
function adoptReplacing(ctx, s) {
  const prev = (storedSession() || {}).refresh;
  ctx.session.adopt(s);
  if (!prev || prev === s.refresh_token) return;
  fetch(apiBase() + '/auth/logout', {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ refresh_token: prev }),
  }).catch(() => {});
}

// Signed in already: go on with the link (resolves) or stay (a link back to the cabinet).
function askSwitch(view, ctx, current) {
  const t = ctx.t;
  const name = (current.user && current.user.email) || t('cabinet.verify.switch.unnamed');
  return new Promise((resolve) => {
    const go = h('button', { class: 'btn btn-primary', type: 'button', onclick: () => resolve() }, t('cabinet.verify.switch.go'));
    mount(view, h('section', { class: 'auth', 'aria-labelledby': 'view-title' },
      h('h1', { class: 'view-title', id: 'view-title' }, t('cabinet.verify.title')),
      h('p', { id: 'verify-switch-text' }, t('cabinet.verify.switch.text', { name })),
      h('div', { class: 'btn-row' }, go,
        h('a', { class: 'btn', href: '/cabinet/' }, t('cabinet.verify.switch.stay')))));
    go.focus();
  });
}

// The address was registered more than once (by its owner and maybe by someone else): the
// link confirms the mailbox, and the password of the link's own registration confirms who
// registered it, so nobody's click switches on a password someone else chose.
function askPassword(view, ctx, token) {
  const t = ctx.t;
  const password = h('input', { class: 'input', id: 'verify-password', name: 'password', type: 'password', required: true, autocomplete: 'current-password', maxlength: '128' });
  const message = h('p', { class: 'field-error auth-message', role: 'alert', id: 'verify-message' });
  const submit = h('button', { class: 'btn btn-primary', type: 'submit' }, t('cabinet.verify.password.submit'));
  const form = h('form', { class: 'auth-form' },
    h('p', { id: 'verify-password-text' }, t('cabinet.verify.password.text')),
    h('div', { class: 'field' }, h('label', { for: 'verify-password' }, t('cabinet.field.password')), password),
    message, h('div', { class: 'btn-row' }, submit));
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    submit.disabled = true;
    message.textContent = '';
    try {
      const s = await ctx.api.post('/auth/verify', { token, password: password.value });
      history.replaceState(null, '', '/cabinet/');
      adoptReplacing(ctx, s);
    } catch (e) {
      message.textContent = e instanceof ApiError && e.status === 401 ? t('cabinet.verify.password.wrong')
        : e instanceof ApiError && e.status === 400 ? t('cabinet.verify.invalid') : explain(ctx, e);
      submit.disabled = false;
    }
  });
  mount(view, h('section', { class: 'auth', 'aria-labelledby': 'view-title' },
    h('h1', { class: 'view-title', id: 'view-title' }, t('cabinet.verify.title')), form));
  password.focus();
  return null;
}

export default {
  async render(view, ctx) {
    const t = ctx.t;
    const q = new URLSearchParams(location.search);
    const isVerify = location.pathname.replace(/\/+$/, '') === '/cabinet/verify';
    const linking = !isVerify && sessionStorage.getItem('cabinet.oauth.link') === '1';
    sessionStorage.removeItem('cabinet.oauth.link');
    mount(view, h('section', { class: 'auth', 'aria-labelledby': 'view-title' },
      h('h1', { class: 'view-title', id: 'view-title' }, t(isVerify ? 'cabinet.verify.title' : linking ? 'linked.oauth.title' : 'cabinet.oauth.title')),
      h('div', { class: 'skeleton skeleton-card' })));
    // /public/plans answers 403 exactly when the web cabinet is off.
    try {
      await ctx.api.get('/public/plans');
    } catch (e) {
      if (isOff(e)) return showOff(view, ctx);
    }
    const current = isVerify ? storedSession() : null;
    if (current) await askSwitch(view, ctx, current);
    try {
      let s;
      if (isVerify) {
        s = await ctx.api.post('/auth/verify', { token: q.get('token') || '' });
      } else {
        if (q.get('error')) throw new ApiError(400, null);
        const provider = sessionStorage.getItem('cabinet.oauth.provider') || '';
        s = await ctx.api.post('/auth/oauth/callback', {
          provider, code: q.get('code') || '', state: q.get('state') || '',
          ...(q.get('device_id') ? { device_id: q.get('device_id') } : {}),
        });
        sessionStorage.removeItem('cabinet.oauth.provider');
        if (linking) {
          history.replaceState(null, '', '/cabinet/#/linked');
          // The session that started the link is no longer needed.
          adoptReplacing(ctx, s);
          ctx.success(ctx.t('linked.oauth.done', { name: PROVIDERS[provider] || provider }));
          return null;
        }
      }
      history.replaceState(null, '', '/cabinet/');
      adoptReplacing(ctx, s);
    } catch (e) {
      if (e instanceof ApiError && e.status === 403 && /web cabinet/i.test(e.detail || '')) return showOff(view, ctx);
      if (isVerify && e instanceof ApiError && e.status === 409) return askPassword(view, ctx, q.get('token') || '');
      const text = isVerify && e instanceof ApiError && e.status === 400 ? t('cabinet.verify.invalid')
        : linking && e instanceof ApiError && e.status === 409 ? t('linked.oauth.taken')
          : linking && e instanceof ApiError && e.status === 403 ? t('linked.oauth.other_account')
            : !isVerify && e instanceof ApiError && e.status === 400 ? t('cabinet.oauth.failed') : explain(ctx, e);
      mount(view, h('section', { class: 'auth', 'aria-labelledby': 'view-title' },
        h('h1', { class: 'view-title', id: 'view-title' }, t(isVerify ? 'cabinet.verify.title' : linking ? 'linked.oauth.title' : 'cabinet.oauth.title')),
        h('p', { role: 'alert' }, text),
        h('a', { class: 'btn btn-primary', href: linking ? '/cabinet/#/linked' : '/cabinet/' }, t(linking ? 'linked.oauth.back' : 'cabinet.signin.back'))));
    }
    return null;
  },
};
