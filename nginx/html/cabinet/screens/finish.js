// The pages that finish a sign-in started elsewhere: /cabinet/verify?token= (the link of
// the verification mail) posts the token; /cabinet/oauth/callback?code=&state= (where the
// provider sends the browser back) posts {provider, code, state} with a same-origin fetch,
// so the __Host- cookie set by /authorize goes along. Either lands signed in or explains.

import { h, mount } from '../../shared/dom.js';
import { explain, showOff } from './signin.js';
import { ApiError } from '../../shared/api.js';

// The provider is not in the callback URL: the state names it (oauth.cpp puts the provider
// in the cookie); we remember it in sessionStorage when the sign-in starts, and fall back
// to asking the server with each provider the shop offers.
export default {
  async render(view, ctx) {
    const t = ctx.t;
    const q = new URLSearchParams(location.search);
    const isVerify = location.pathname.replace(/\/+$/, '') === '/cabinet/verify';
    mount(view, h('section', { class: 'auth', 'aria-labelledby': 'view-title' },
      h('h1', { class: 'view-title', id: 'view-title' }, t(isVerify ? 'cabinet.verify.title' : 'cabinet.oauth.title')),
      h('div', { class: 'skeleton skeleton-card' })));
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
      }
      history.replaceState(null, '', '/cabinet/');
      ctx.session.adopt(s);
    } catch (e) {
      if (e instanceof ApiError && e.status === 403 && /web cabinet/i.test(e.detail || '')) return showOff(view, ctx);
      const text = isVerify && e instanceof ApiError && e.status === 400 ? t('cabinet.verify.invalid')
        : !isVerify && e instanceof ApiError && e.status === 400 ? t('cabinet.oauth.failed') : explain(ctx, e);
      mount(view, h('section', { class: 'auth', 'aria-labelledby': 'view-title' },
        h('h1', { class: 'view-title', id: 'view-title' }, t(isVerify ? 'cabinet.verify.title' : 'cabinet.oauth.title')),
        h('p', { role: 'alert' }, text),
        h('a', { class: 'btn btn-primary', href: '/cabinet/' }, t('cabinet.signin.back'))));
    }
    return null;
  },
};
