// The sign-in methods screen's "change password" card (an account with an e-mail sign-in
// and a password): the current password and a new one → POST /auth/password/change. The
// other sessions end (this one stays) and the address is told; the answer says how many
// ended. A wrong current password is said next to its field; nothing else changes.

import { h } from '../shared/dom.js';

let seq = 0;

export function passwordCard(ctx) {
  const { t } = ctx;
  const id = 'password-change-' + (++seq);
  const current = h('input', { class: 'input', id: id + '-current', type: 'password', name: 'current_password', required: true,
    autocomplete: 'current-password', maxlength: '128', 'aria-describedby': id + '-error' });
  const next = h('input', { class: 'input', id: id + '-new', type: 'password', name: 'password', required: true,
    autocomplete: 'new-password', minlength: '8', maxlength: '128', 'aria-describedby': id + '-hint ' + id + '-error' });
  const error = h('p', { class: 'field-error', id: id + '-error', role: 'alert' });
  const submit = h('button', { class: 'btn btn-primary', type: 'submit' }, t('linked.password.submit'));
  const form = h('form', { class: 'form-grid', novalidate: true },
    h('div', { class: 'field' }, h('label', { for: id + '-current' }, t('linked.password.current')), current),
    h('div', { class: 'field' }, h('label', { for: id + '-new' }, t('linked.password.new')), next,
      h('p', { class: 'muted field-hint', id: id + '-hint' }, t('linked.email.password_hint'))),
    error, submit);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    if (!current.value) { error.textContent = t('linked.password.wrong'); current.focus(); return; }
    if (next.value.length < 8 || next.value.length > 128) { error.textContent = t('linked.error.password'); next.focus(); return; }
    error.textContent = '';
    submit.disabled = true;
    try {
      const r = await ctx.api.post('/auth/password/change', { current_password: current.value, password: next.value });
      current.value = '';
      next.value = '';
      ctx.success(t('linked.password.done', { n: Number(r && r.ended) || 0 }));
    } catch (e) {
      if (e && e.status === 422) { ctx.tg.haptic('error'); error.textContent = t('linked.password.wrong'); current.focus(); }
      else if (e && e.status === 429) error.textContent = t('linked.error.wait', { time: ctx.fmt.duration(e.retryAfter || 60) });
      else ctx.fail(e);
    } finally {
      submit.disabled = false;
    }
  });
  return h('article', { class: 'card password-card', 'aria-labelledby': id + '-title' },
    h('h2', { class: 'card-title', id: id + '-title' }, t('linked.password.title')),
    form);
}
