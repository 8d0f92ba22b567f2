// The live previews: same-origin frames of the mini-app in demo mode
// (/app/?mock=1&template=X), never a copy of it. Each frame says "ready" when it has booted
// (app/preview.js), and is then sent the unsaved look by postMessage, again after every edit
// (debounced). Messages go to this origin only, and only answers from our own frames count.

import { h } from '../../shared/dom.js';
import { appLook } from './state.js';

export const READY = 'cabinet.preview.ready';
export const LOOK = 'cabinet.look';

export function createPreviews(ctx, getLook) {
  const frames = new Set();   // {iframe, template|null, ready}
  let timer = null;

  // `screen` only when the owner picks one: otherwise the frame stays where it was clicked to.
  function send(f, screen = null) {
    if (!f.ready || !f.iframe.contentWindow) return;
    const look = appLook(getLook());
    if (f.template) look.template = f.template;
    f.iframe.contentWindow.postMessage({ type: LOOK, look, screen }, location.origin);
  }
  function onMessage(event) {
    if (event.origin !== location.origin || !event.data || event.data.type !== READY) return;
    const f = [...frames].find((x) => x.iframe.contentWindow === event.source);
    if (!f) return;
    f.ready = true;
    send(f);
  }
  window.addEventListener('message', onMessage);

  const src = (template, screen) => `/app/?mock=1&template=${template}&lang=${ctx.t.lang}#/${screen}`;

  // A frame; `template` fixes its template (a chooser's thumbnail), null follows the look.
  // It opens on `screen`.
  function frame({ template = null, title, cls, screen = 'home', lazy = false }) {
    const iframe = h('iframe', {
      class: cls, title, src: src(template || getLook().template, screen), loading: lazy ? 'lazy' : null,
      referrerpolicy: 'same-origin',
    });
    const f = { iframe, template, ready: false };
    frames.add(f);
    return { el: iframe, show(to) { send(f, to); } };
  }

  // The big preview follows typing closely; the eight thumbnails (which repaint their whole
  // page each time) wait for a pause, to spare a phone's processor.
  let thumbTimer = null;
  return {
    frame,
    update() {
      clearTimeout(timer);
      clearTimeout(thumbTimer);
      timer = setTimeout(() => { for (const f of frames) if (!f.template) send(f); }, 150);
      thumbTimer = setTimeout(() => { for (const f of frames) if (f.template) send(f); }, 600);
    },
    destroy() {
      clearTimeout(timer);
      clearTimeout(thumbTimer);
      window.removeEventListener('message', onMessage);
      frames.clear();
    },
  };
}

// The big preview: one frame at a phone's width, the screen it shows (home, connect,
// account: where the owner's blocks may sit) chosen above it.
export function bigPreview(ctx, previews) {
  const t = ctx.t;
  // Lazy too: on a phone it sits below the form and loads when the owner gets near it.
  const f = previews.frame({ title: t('look.preview.frame'), cls: 'look-preview-frame', lazy: true });
  const screens = ['home', 'connect', 'account'];
  const buttons = screens.map((s) => {
    const b = h('button', { class: 'btn btn-ghost look-screen-btn', type: 'button', 'aria-pressed': s === 'home' ? 'true' : 'false' },
      t('look.screen.' + s));
    b.addEventListener('click', () => {
      for (const x of buttons) x.setAttribute('aria-pressed', x === b ? 'true' : 'false');
      f.show(s);
    });
    return b;
  });
  return h('section', { class: 'card look-preview', 'aria-labelledby': 'look-preview-h' },
    h('h2', { class: 'card-title', id: 'look-preview-h' }, t('look.preview.title')),
    h('p', { class: 'muted look-preview-note' }, t('look.preview.note')),
    h('div', { class: 'btn-row look-screens', role: 'group', 'aria-label': t('look.preview.screens') }, buttons),
    h('div', { class: 'look-preview-box' }, f.el));
}
