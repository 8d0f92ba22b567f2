// Look: the mini-app's template (eight live previews), title, greeting, accent colour,
// `ui` (scale, home sections, buttons, blocks, extra buttons) and the landing's copy, with a
// big live preview fed the unsaved edits. Nothing reaches the server until Save, which
// PUTs only the app-config values that changed:
//   GET /api/admin/app-config → {items: [{name, value}], published_at}
//   PUT /api/admin/app-config/{name} {"value": "text"}   (owner; a viewer sees it all disabled)
// (ctx.api.put: the admin client's, shared/api.js put() from helper A's branch)
// The pieces live in admin/look/ (state, fields, lists, the sections, the previews).

import { ApiError } from '../../shared/api.js';
import { append, h } from '../../shared/dom.js';
import { brandSection } from '../look/brand.js';
import { createForm } from '../look/fields.js';
import { homeSection } from '../look/home.js';
import { landingSection } from '../look/landing-copy.js';
import { bigPreview, createPreviews } from '../look/preview.js';
import { changes, clone, configValues, lookFromConfig, pathOfDetail, problems } from '../look/state.js';
import { templateChooser } from '../look/templates.js';

// The Look section's own stylesheet, added once (style-src 'self'); the screen is shown
// once it has loaded, so the form never flashes unstyled.
let stylesheet = null;
function styles() {
  stylesheet = stylesheet || new Promise((resolve) => {
    const link = h('link', { id: 'look-css', rel: 'stylesheet', href: new URL('../look/look.css', import.meta.url).href });
    link.addEventListener('load', resolve);
    link.addEventListener('error', resolve);
    document.head.append(link);
  });
  return stylesheet;
}

// Unsaved edits outlive a visit to another section (the shell renders screens afresh):
// kept here with the saved look they were made on, and taken back only if the server
// still has that one. A reload or a closed tab asks first (beforeunload) while edits wait.
let draft = null;

export default {
  title: 'look.title',
  tab: 'look',
  async render(view, ctx) {
    const css = styles();
    const t = ctx.t;
    const readOnly = ctx.readOnly ?? (ctx.role === 'viewer');
    const loaded = await ctx.api.get('/app-config');
    await css;
    let saved = lookFromConfig(loaded.items);
    let look = clone(saved);
    const kept = !readOnly && draft && JSON.stringify(configValues(saved)) === JSON.stringify(draft.saved);
    if (kept) look = draft.look;
    draft = null;
    let busy = false;
    const getLook = () => look;

    const previews = createPreviews(ctx, getLook);
    const status = h('p', { class: 'look-status', role: 'status', tabindex: '-1' });
    const saveError = h('p', { class: 'field-error look-save-error', id: 'look-save-error' });
    const save = h('button', { class: 'btn btn-primary', type: 'button', 'aria-describedby': 'look-save-error' }, t('look.save'));
    const discard = h('button', { class: 'btn btn-ghost', type: 'button' }, t('look.discard'));
    const chooserBox = h('div', { class: 'look-chooser-box' });
    const formBox = h('div', { class: 'look-form-box' });
    const savebar = h('div', { class: 'look-savebar', role: 'region', 'aria-label': t('look.savebar') });
    let form = null;

    const refreshStatus = () => {
      const n = changes(saved, look).length;
      status.textContent = readOnly ? t('look.readOnly') : n ? t('look.unsaved', { n }) : t('look.clean');
      // Sticky at the bottom while there is something to save; else it waits at the end.
      savebar.classList.toggle('look-savebar-dirty', Boolean(n) || busy);
      save.disabled = readOnly || busy || !n;
      discard.disabled = readOnly || busy || !n;
    };
    const changed = () => { refreshStatus(); previews.update(); };

    // The form, built again from `look` (after Discard and after Save: what the server stored).
    // (A viewer's fieldsets are disabled: every control in them is, natively.)
    const paintForm = () => {
      form = createForm(ctx, getLook, changed);
      chooserBox.replaceChildren(h('fieldset', { class: 'look-form', disabled: readOnly },
        h('legend', { class: 'visually-hidden' }, t('look.templates.legend')),
        templateChooser(ctx, previews, getLook, changed)));
      const fields = h('fieldset', { class: 'look-form', disabled: readOnly },
        h('legend', { class: 'visually-hidden' }, t('look.form')),
        brandSection(ctx, form, getLook, changed),
        homeSection(ctx, form, getLook, changed),
        landingSection(ctx, form, getLook, changed));
      formBox.replaceChildren(...[
        saved.hasUi ? null : h('p', { class: 'notice', role: 'note' }, t('look.noUi')),
        fields].filter(Boolean));
      refreshStatus();
    };

    const publish = async () => {
      saveError.textContent = '';
      const wrong = problems(look, saved);
      const first = form.showErrors(wrong);
      if (wrong.length) {
        saveError.textContent = t('look.fix', { n: wrong.length });
        if (first) first.focus();
        return;
      }
      busy = true;
      refreshStatus();
      let done = 0;
      try {
        for (const [name, value] of changes(saved, look)) {
          await ctx.api.put('/app-config/' + encodeURIComponent(name), { value });
          done++;
        }
        const fresh = await ctx.api.get('/app-config');
        saved = lookFromConfig(fresh.items);
        look = clone(saved);
        busy = false;
        paintForm();
        previews.update();
        ctx.success(t('look.saved'));
        status.focus();   // Save is disabled now: the line that says so takes the focus
      } catch (e) {
        busy = false;
        // What went through is stored: the saved look is the server's again, the edits stay.
        if (done) saved = await ctx.api.get('/app-config').then((c) => lookFromConfig(c.items), () => saved);
        refreshStatus();
        if (e instanceof ApiError && (e.status === 400 || e.status === 422)) {
          const path = pathOfDetail(e.detail);
          const at = path && form.showErrors([{ path, text: e.detail }]);
          saveError.textContent = t('look.refused', { detail: e.detail || '' });
          (at || save).focus();
        } else {
          saveError.textContent = t('look.failed');
          ctx.fail(e);
        }
      }
    };
    save.addEventListener('click', publish);
    discard.addEventListener('click', () => {
      look = clone(saved);
      saveError.textContent = '';
      paintForm();
      previews.update();
      status.textContent = t('look.discarded');
      status.focus();
    });

    // On a phone the big preview sits below the form: a button in the save bar leads to it.
    const side = h('aside', { class: 'look-side', 'aria-label': t('look.preview.title') }, bigPreview(ctx, previews));
    const toPreview = h('button', { class: 'btn btn-ghost look-to-preview', type: 'button' }, t('look.preview.show'));
    toPreview.addEventListener('click', () => {
      side.scrollIntoView({ block: 'start' });
      side.querySelector('[aria-pressed="true"]').focus({ preventScroll: true });
    });

    paintForm();
    if (kept) status.textContent = t('look.kept', { n: changes(saved, look).length });
    const beforeUnload = (e) => { if (changes(saved, look).length) { e.preventDefault(); e.returnValue = ''; } };
    window.addEventListener('beforeunload', beforeUnload);
    view.replaceChildren(h('div', { class: 'look' },
      h('p', { class: 'muted look-intro' }, t('look.intro')),
      chooserBox,
      h('div', { class: 'look-columns' }, formBox, side),
      append(savebar, [status, toPreview, saveError,
        readOnly ? null : h('div', { class: 'btn-row look-save-buttons' }, discard, save)])));
    return () => {
      previews.destroy();
      window.removeEventListener('beforeunload', beforeUnload);
      if (!readOnly && changes(saved, look).length) draft = { saved: configValues(saved), look };
    };
  },
};
