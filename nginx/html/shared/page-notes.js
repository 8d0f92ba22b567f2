// The two kinds of note a page shows beside its screens, the same on every page (the
// mini-app's shell, the owner's cabinet's): toasts that go by themselves, and notices kept
// until replaced (demo mode, read-only, maintenance). Text only, never markup.

import { h } from './dom.js';

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
