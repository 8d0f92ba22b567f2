// /cabinet/reset?token= (the "forgot password" mail's link): a new password for the
// account the link was sent for → POST /auth/password/reset, which signs this browser in
// and every other session out. A link that is invalid, used or expired says so and sends
// the customer back to ask for a new one. The token leaves the address bar once used.

import { h, mount } from '../../shared/dom.js';
import { ApiError } from '../../shared/api.js';
import { explain, isOff, showOff } from './signin.js';

export default {
  async render(view, ctx) {
    const t = ctx.t;
    const token = new URLSearchParams(location.search).get('token') || '';
    const password = h('input', { class: 'input', id: 'reset-password', name: 'password', type: 'password', required: true,
      autocomplete: 'new-password', minlength: '8', maxlength: '128', 'aria-describedby': 'reset-hint' });
    const message = h('p', { class: 'field-error auth-message', role: 'alert', id: 'reset-message' });
    const submit = h('button', { class: 'btn btn-primary', type: 'submit' }, t('cabinet.reset.submit'));
    const back = h('a', { class: 'btn btn-ghost', href: '/cabinet/' }, t('cabinet.signin.back'));
    const form = h('form', { class: 'auth-form' },
      h('div', { class: 'field' }, h('label', { for: 'reset-password' }, t('cabinet.field.new_password')), password,
        h('p', { class: 'field-hint', id: 'reset-hint' }, t('cabinet.reset.text'))),
      message, h('div', { class: 'btn-row' }, submit, back));
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      if (password.value.length < 8) { message.textContent = t('cabinet.reset.short'); password.focus(); return; }
      submit.disabled = true;
      message.textContent = '';
      try {
        const s = await ctx.api.post('/auth/password/reset', { token, password: password.value });
        history.replaceState(null, '', '/cabinet/');
        ctx.session.adopt(s);
        ctx.toast(t('cabinet.reset.done'), 'success');
      } catch (e) {
        if (isOff(e)) { showOff(view, ctx); return; }
        message.textContent = e instanceof ApiError && e.status === 400 && /reset link/.test(e.detail || '')
          ? t('cabinet.reset.invalid') : explain(ctx, e);
        submit.disabled = false;
      }
    });
    mount(view, h('section', { class: 'auth', 'aria-labelledby': 'view-title' },
      h('h1', { class: 'view-title', id: 'view-title' }, t('cabinet.reset.title')),
      token ? form : h('p', { role: 'alert' }, t('cabinet.reset.invalid')),
      token ? null : back));
    if (token) password.focus();
    return null;
  },
};
