// What a page shows besides its screens, the same on every page (the mini-app's shell, the
// owner's cabinet's): toasts that go by themselves, notices kept until replaced (demo mode,
// read-only, maintenance), and a whole-page state in place of the screen (not allowed,
// offline). Text only, never markup.

import { h, mount } from './dom.js';

// toast(text, kind = 'error'|'success'): an error stays 6 s, anything else 3.5 s.
export function toaster(container) {
  return (text, kind = 'error') => {
    const el = h('div', { class: 'toast toast-' + kind }, text);
    container.append(el);
    setTimeout(() => el.remove(), kind === 'error' ? 6000 : 3500);
  };
}

// setNotice(id, node): shows `node` as notice `id` (replacing the one shown), or removes it (null).
export function noticeBoard(container) {
  return (id, node) => {
    const old = container.querySelector(`[data-notice="${id}"]`);
    if (old) old.remove();
    if (node) { node.dataset.notice = id; container.append(node); }
  };
}

// Shows a whole-page state in `screenEl` (its kind also on <html data-screen>), with an
// optional action button {label, onClick} and an optional plainer second one (`secondary`).
export function showPageState(screenEl, { kind, title, text, action, secondary }) {
  document.documentElement.dataset.screen = 'state-' + kind;
  mount(screenEl, h('section', { class: 'state state-' + kind, role: 'alert' },
    h('div', { class: 'state-mark', 'aria-hidden': 'true' }),
    h('h1', { class: 'view-title' }, title),
    h('p', { class: 'state-text' }, text),
    action ? h('button', { class: 'btn btn-primary', type: 'button', onclick: action.onClick }, action.label) : null,
    secondary ? h('button', { class: 'btn', type: 'button', onclick: secondary.onClick }, secondary.label) : null));
  screenEl.setAttribute('aria-busy', 'false');
}
