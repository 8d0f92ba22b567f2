// The sign-in methods screen's last card: "sign out everywhere else"
// (POST /auth/logout-others). In the web cabinet it ends every other browser's session and
// keeps this one; in the mini-app (no web session of its own) every web cabinet session.
// Asked inline first, as an unlink is. The answer says how many sessions ended.

import { h } from '../shared/dom.js';

export function sessionsCard(ctx) {
  const { t } = ctx;
  const mode = ctx.web ? 'web' : 'app';
  const box = h('div', { class: 'linked-action sessions-action', 'aria-live': 'polite' });

  function idle() {
    const b = h('button', { class: 'btn', type: 'button', onclick: ask }, t('sessions.end.' + mode));
    box.replaceChildren(b);
    return b;
  }
  function ask() {
    const yes = h('button', { class: 'btn btn-danger', type: 'button', onclick: () => end(yes) }, t('sessions.end.yes'));
    box.replaceChildren(h('div', { class: 'linked-confirm', role: 'group', 'aria-label': t('sessions.end.ask.' + mode) },
      h('p', {}, t('sessions.end.ask.' + mode)),
      h('div', { class: 'btn-row' }, yes,
        h('button', { class: 'btn', type: 'button', onclick: () => idle().focus() }, t('action.cancel')))));
    yes.focus();
  }
  async function end(btn) {
    btn.disabled = true;
    try {
      const r = await ctx.api.post('/auth/logout-others', {});
      const n = Number(r && r.ended) || 0;
      ctx.success(n > 0 ? t('sessions.end.done', { n }) : t('sessions.end.none'));
      idle();
    } catch (e) {
      ctx.fail(e);
      idle().focus();
    }
  }

  idle();
  return h('article', { class: 'card sessions-card', 'aria-labelledby': 'sessions-title' },
    h('h2', { class: 'card-title', id: 'sessions-title' }, t('sessions.title')),
    h('p', { class: 'muted' }, t('sessions.text.' + mode)),
    box);
}
