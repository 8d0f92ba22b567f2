// The owner's live preview (admin/look/): in demo mode, inside a frame of a page of the same
// origin, the mini-app takes the unsaved look by postMessage and paints itself with it.
// Loaded only then (main.js). Only a message from this origin and from the parent frame
// counts; every field is checked again here (template letter, texts cut to their limits,
// colour and the ui's links re-checked by theme.js/owner.js when painted), and it changes
// nothing but this page.
//   parent → frame: {type: 'cabinet.look', look: {template, title, greeting, accent_color, ui}, screen?}
//   frame → parent: {type: 'cabinet.preview.ready'} once booted

import { safeColor } from '../shared/dom.js';
import { TEMPLATES, paintShop } from '../shared/theme.js';

const text = (v, max) => (typeof v === 'string' ? [...v].slice(0, max).join('') : '');

export function listenForLook(ctx) {
  let chain = Promise.resolve();
  const apply = async (look, screen) => {
    const app = ctx.me.app;
    if (TEMPLATES.includes(look.template)) app.template = look.template;
    app.title = text(look.title, 64) || app.title;
    app.greeting = text(look.greeting, 500);
    app.accent_color = safeColor(look.accent_color);
    app.ui = look.ui && typeof look.ui === 'object' && !Array.isArray(look.ui) ? look.ui : {};
    await paintShop(app, { forcedTemplate: app.template });
    if (screen && screen !== ctx.shell.current) ctx.go(screen);
    else await ctx.shell.show(ctx.shell.current || 'home');
  };
  window.addEventListener('message', (event) => {
    if (event.origin !== location.origin || event.source !== window.parent) return;
    const d = event.data;
    if (!d || d.type !== 'cabinet.look' || !d.look || typeof d.look !== 'object') return;
    const screen = ['home', 'connect', 'account'].includes(d.screen) ? d.screen : null;
    chain = chain.then(() => apply(d.look, screen)).catch((e) => console.error(e));
  });
  window.parent.postMessage({ type: 'cabinet.preview.ready' }, location.origin);
}
