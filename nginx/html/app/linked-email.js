// The "link an e-mail" form of the sign-in methods screen (screens/linked.js), in two
// steps: e-mail + new password → POST /link/email (a 6-digit code is mailed), then the
// code → POST /link/email/confirm. Known refusals are said under the form: the e-mail
// belongs to another account (409), a wrong or expired code (400), too many wrong codes
// (429: a new code must be requested). Anything else goes to ctx.fail.

import { h } from '../shared/dom.js';

let seq = 0;

export function emailForm(ctx, { onLinked, pending = null }) {
  const id = 'email-link-' + (++seq);
  const card = h('article', { class: 'card email-link', 'aria-labelledby': id + '-title' });
  let lastEmail = pending || '';
  let lastPassword = '';

  const inlineError = (el, err, fallbackKey) => {
    ctx.tg.haptic('error');
    let text;
    if (err.status === 409) text = ctx.t(err.detail && /another account/.test(err.detail) ? 'linked.error.taken' : 'linked.error.has_email');
    else if (err.status === 429 && el.dataset.step === 'code') text = ctx.t('linked.error.attempts');
    else if (err.status === 429) text = ctx.t('linked.error.wait', { time: ctx.fmt.duration(err.retryAfter || 60) });
    else if (err.status === 400) text = ctx.errorText(err) || ctx.t(fallbackKey);
    el.textContent = text;
  };

  function stepEmail(message = '') {
    const email = h('input', { class: 'input', id: id + '-email', type: 'email', name: 'email', autocomplete: 'email', required: true, maxlength: '254', value: lastEmail, 'aria-describedby': id + '-error' });
    const pass = h('input', { class: 'input', id: id + '-password', type: 'password', name: 'password', autocomplete: 'new-password', required: true, minlength: '8', maxlength: '128', 'aria-describedby': id + '-pass-hint ' + id + '-error' });
    const error = h('p', { class: 'field-error', id: id + '-error', role: 'alert', 'data-step': 'email' }, message);
    const submit = h('button', { class: 'btn btn-primary', type: 'submit' }, ctx.t('linked.email.send'));
    async function onSubmit(e) {
      e.preventDefault();
      const addr = email.value.trim();
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(addr)) { error.textContent = ctx.t('linked.error.email'); email.focus(); return; }
      if (pass.value.length < 8 || pass.value.length > 128) { error.textContent = ctx.t('linked.error.password'); pass.focus(); return; }
      error.textContent = '';
      submit.disabled = true;
      try {
        const r = await ctx.api.post('/link/email', { email: addr, password: pass.value });
        lastEmail = (r && r.email) || addr;
        lastPassword = pass.value;
        stepCode();
      } catch (err) {
        if ([400, 409, 429].includes(err && err.status)) inlineError(error, err, 'linked.error.email');
        else ctx.fail(err);
      } finally {
        submit.disabled = false;
      }
    }
    card.replaceChildren(
      h('h2', { class: 'card-title', id: id + '-title' }, ctx.t('linked.email.add')),
      h('p', { class: 'muted' }, ctx.t('linked.email.add_text')),
      h('form', { class: 'form-grid', novalidate: true, onsubmit: onSubmit },
        h('div', { class: 'field' }, h('label', { for: id + '-email' }, ctx.t('linked.email.address')), email),
        h('div', { class: 'field' }, h('label', { for: id + '-password' }, ctx.t('linked.email.new_password')), pass,
          h('p', { class: 'muted field-hint', id: id + '-pass-hint' }, ctx.t('linked.email.password_hint'))),
        error,
        submit));
  }

  function stepCode() {
    const code = h('input', { class: 'input input-code', id: id + '-code', type: 'text', name: 'code', inputmode: 'numeric', autocomplete: 'one-time-code', required: true, maxlength: '6', 'aria-describedby': id + '-code-hint ' + id + '-error' });
    const error = h('p', { class: 'field-error', id: id + '-error', role: 'alert', 'data-step': 'code' });
    const submit = h('button', { class: 'btn btn-primary', type: 'submit' }, ctx.t('linked.code.confirm'));
    const again = h('button', { class: 'btn btn-ghost', type: 'button', onclick: resend }, ctx.t('linked.code.resend'));
    async function resend() {
      again.disabled = true;
      try {
        await ctx.api.post('/link/email', { email: lastEmail, password: lastPassword });
        error.textContent = '';
        ctx.success(ctx.t('linked.code.resent', { email: lastEmail }));
      } catch (err) {
        if ([400, 409, 429].includes(err && err.status)) { error.dataset.step = 'email'; inlineError(error, err, 'linked.error.email'); error.dataset.step = 'code'; }
        else ctx.fail(err);
      } finally {
        again.disabled = false;
      }
    }
    async function onSubmit(e) {
      e.preventDefault();
      const value = code.value.replace(/\s+/g, '');
      if (!/^\d{6}$/.test(value)) { error.textContent = ctx.t('linked.error.code'); code.focus(); return; }
      error.textContent = '';
      submit.disabled = true;
      try {
        await ctx.api.post('/link/email/confirm', { code: value });
        lastPassword = '';
        ctx.success(ctx.t('linked.email.done', { email: lastEmail }));
        onLinked();
      } catch (err) {
        submit.disabled = false;
        if ([400, 409, 429].includes(err && err.status)) {
          inlineError(error, err, 'linked.error.code');
          if (err.status === 429) submit.disabled = true;
          code.select();
        } else ctx.fail(err);
      }
    }
    card.replaceChildren(
      h('h2', { class: 'card-title', id: id + '-title' }, ctx.t('linked.code.title')),
      h('form', { class: 'form-grid', novalidate: true, onsubmit: onSubmit },
        h('div', { class: 'field' }, h('label', { for: id + '-code' }, ctx.t('linked.code.label')), code,
          h('p', { class: 'muted field-hint', id: id + '-code-hint' }, ctx.t('linked.code.sent', { email: lastEmail }))),
        error,
        h('div', { class: 'btn-row' }, submit, again,
          h('button', { class: 'btn btn-ghost', type: 'button', onclick: () => stepEmail() }, ctx.t('linked.code.change')))));
    code.focus();
  }

  stepEmail();
  return card;
}
