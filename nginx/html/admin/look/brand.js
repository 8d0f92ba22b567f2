// Title, greeting, accent colour and UI scale. The accent's contrast warning is the pages'
// own arithmetic (shared/theme.js contrast/readableOn): when the colour reads below 4.5:1 on
// a white page (the same figure as white text on it), the owner is told, and shown the
// colours the pages will use for text and buttons instead (they fit it themselves; nothing
// is refused). Dark pages are not warned about: no colour reads at 4.5:1 on both white and
// a dark page, and the pages lighten the accent's text there the same way.

import { h } from '../../shared/dom.js';
import { contrast, readableOn } from '../../shared/theme.js';
import { LIMITS } from './state.js';

const PRESETS = ['#2481cc', '#0a7e5a', '#6d28d9', '#c2410c', '#be123c', '#0f766e', '#1d4ed8', '#111827'];
const LIGHT = '#ffffff';

function button(color) {
  if (contrast(color, '#ffffff') >= 4.5) return { key: 'look.accent.buttonWhite', fill: color };
  const darker = readableOn(color, '#ffffff');
  if (contrast(darker, color) < 1.35) return { key: 'look.accent.buttonDarker', fill: darker };
  return { key: 'look.accent.buttonBlack', fill: color };
}

export function accentAdvice(color) {
  if (!/^#[0-9a-f]{6}$/i.test(color || '')) return null;
  const onLight = contrast(color, LIGHT);
  return {
    onLight,
    light: onLight < 4.5 ? readableOn(color, LIGHT) : null,
    // As applyAccent paints buttons: white text, on a slightly darker fill if that is all
    // it takes, else black text.
    button: button(color),
  };
}

function swatch(color) {
  const el = h('span', { class: 'look-swatch', 'aria-hidden': 'true' });
  el.style.backgroundColor = color;
  return el;
}

export function brandSection(ctx, form, getLook, changed) {
  const t = ctx.t;
  const warn = h('div', { class: 'look-contrast', id: 'look-contrast', role: 'status' });
  const fmt = (n) => (Math.floor(n * 10) / 10).toFixed(1);

  const paintWarning = () => {
    const a = accentAdvice(getLook().accent_color.trim());
    if (!a || !a.light) { warn.replaceChildren(); warn.hidden = true; return; }
    warn.hidden = false;
    warn.replaceChildren(...[
      h('p', { class: 'look-contrast-title' }, h('strong', {}, t('look.accent.lowTitle'))),
      h('p', {}, swatch(a.light), t('look.accent.lowLight', { ratio: fmt(a.onLight), fixed: a.light })),
      h('p', { class: 'muted' }, swatch(a.button.fill), t(a.button.key, { fill: a.button.fill }))].filter(Boolean));
  };

  const accent = form.color('accent_color', t('look.accent.label'), { hint: t('look.accent.hint'), allowEmpty: false });
  const hexInput = accent.querySelector('.look-hex');
  const presets = h('div', { class: 'look-presets', role: 'group', 'aria-label': t('look.accent.presets') },
    PRESETS.map((c) => {
      const b = h('button', { class: 'look-preset', type: 'button', 'aria-label': t('look.accent.use', { color: c }) }, swatch(c));
      b.addEventListener('click', () => { hexInput.value = c; hexInput.dispatchEvent(new Event('input')); });
      return b;
    }));
  hexInput.addEventListener('input', paintWarning);
  paintWarning();

  const scaleId = 'look-ui-scale';
  const scaleOut = h('output', { for: scaleId, class: 'look-scale-value' }, getLook().ui.scale + '%');
  const scale = h('input', { id: scaleId, type: 'range', min: LIMITS.scaleMin, max: LIMITS.scaleMax, step: 1, class: 'look-range',
    'aria-describedby': 'look-ui-scale-hint' });
  scale.value = String(getLook().ui.scale);
  scale.addEventListener('input', () => {
    getLook().ui.scale = Number(scale.value);
    scaleOut.textContent = scale.value + '%';
    changed('ui.scale');
  });

  return h('section', { class: 'card look-card', 'aria-labelledby': 'look-brand-h' },
    h('h2', { class: 'card-title', id: 'look-brand-h' }, t('look.brand.title')),
    h('div', { class: 'form-grid' },
      form.text('title', t('look.title.label'), { max: LIMITS.title, required: true, hint: t('look.title.hint') }),
      form.text('greeting', t('look.greeting.label'), { max: LIMITS.greeting, rows: 2, hint: t('look.greeting.hint') }),
      accent, presets, warn,
      h('div', { class: 'field' },
        h('label', { for: scaleId }, t('look.scale.label')),
        h('div', { class: 'look-scale-row' }, scale, scaleOut),
        h('p', { class: 'muted field-hint', id: 'look-ui-scale-hint' }, t('look.scale.hint')))));
}
