// The broadcast's compose form: the audience (with the live count of who gets it), the text
// in Telegram's formatting with a preview drawn from the server's parse of it (never the
// owner's markup itself), an optional URL button, a test to the owner's own Telegram, and
// the send, confirmed with the count, made once however often it is clicked (one
// Idempotency-Key per composed message).

import { h } from '../../shared/dom.js';
import { FieldError, field, formStatus, input, select, send, textarea } from '../form.js';
import { confirmInPlace, guard } from '../kit.js';

const KINDS = ['all', 'active', 'trial', 'expired', 'never_paid', 'promo_group', 'customer'];
const PREVIEW_WAIT_MS = 300;

// The server's tree of the text (POST /broadcasts/preview `nodes`) as elements: every tag
// Telegram formats has its own element; text is always text.
export function drawNodes(nodes) {
  return (nodes || []).map((n) => {
    if (!n.tag) return n.text || '';
    const kids = drawNodes(n.children);
    switch (n.tag) {
      case 'b': return h('strong', {}, kids);
      case 'i': return h('em', {}, kids);
      case 'u': return h('u', {}, kids);
      case 's': return h('s', {}, kids);
      case 'code': return h('code', {}, kids);
      case 'pre': return h('pre', {}, kids);
      case 'blockquote': return h('blockquote', {}, kids);
      case 'tg-spoiler': return h('span', { class: 'bc-spoiler' }, kids);
      case 'a': return h('a', { href: n.href, target: '_blank', rel: 'noopener noreferrer' }, kids);
      default: return h('span', {}, kids);
    }
  });
}

export function composeForm(ctx, groups, { sent }) {
  const kindF = field(ctx.t('admin.broadcasts.audience'),
    select(KINDS.map((k) => [k, ctx.t('admin.broadcasts.kind.' + k)]), 'all'), { names: ['audience', 'audience.kind'] });
  const groupF = field(ctx.t('admin.broadcasts.group'),
    select(groups.map((g) => [g.name, g.name]), groups[0] ? groups[0].name : ''), { names: ['audience.promo_group'] });
  const customerF = field(ctx.t('admin.broadcasts.customer'), input({ inputmode: 'numeric', autocomplete: 'off' }),
    { names: ['audience.customer_id'], hint: ctx.t('admin.broadcasts.customerHint') });
  const textF = field(ctx.t('admin.broadcasts.text'), textarea({ rows: 6, maxlength: 16384, spellcheck: 'true' }),
    { names: ['text'], hint: ctx.t('admin.broadcasts.textHint'), wide: true });
  const buttonTextF = field(ctx.t('admin.broadcasts.buttonText'), input({ maxlength: 64, autocomplete: 'off' }), { names: ['button', 'button.text'] });
  const buttonUrlF = field(ctx.t('admin.broadcasts.buttonUrl'), input({ type: 'url', maxlength: 512, autocomplete: 'off', placeholder: 'https://' }),
    { names: ['button.url'] });
  const fields = [kindF, groupF, customerF, textF, buttonTextF, buttonUrlF];

  const countEl = h('p', { class: 'bc-count', role: 'status', 'aria-live': 'polite' });
  const bubble = h('div', { class: 'bc-bubble' });
  const previewCard = h('section', { class: 'card bc-preview', 'aria-labelledby': 'bc-preview-title' },
    h('h2', { class: 'card-title', id: 'bc-preview-title' }, ctx.t('admin.broadcasts.preview')), bubble);
  const testBtn = h('button', { class: 'btn', type: 'button' }, ctx.t('admin.broadcasts.test'));
  const sendBtn = h('button', { class: 'btn btn-primary', type: 'submit' }, ctx.t('admin.broadcasts.send'));
  const status = formStatus();
  const form = h('form', { class: 'admin-form', novalidate: true }, guard(ctx, h('fieldset', {},
    h('div', { class: 'admin-fields' }, fields.map((f) => f.el)), countEl,
    h('div', { class: 'btn-row' }, sendBtn, testBtn), status)));

  let count = null;
  let key = null;   // this message's Idempotency-Key: kept through retries and double clicks
  let timer = null;
  let seq = 0;

  const syncKind = () => {
    groupF.el.hidden = kindF.input.value !== 'promo_group';
    customerF.el.hidden = kindF.input.value !== 'customer';
  };

  function audience() {
    const kind = kindF.input.value;
    const a = { kind };
    if (kind === 'promo_group') {
      if (!groupF.input.value) throw new FieldError(groupF, ctx.t('admin.broadcasts.noGroups'));
      a.promo_group = groupF.input.value;
    }
    if (kind === 'customer') {
      const s = customerF.input.value.trim();
      if (!/^\d{1,18}$/.test(s) || Number(s) < 1) throw new FieldError(customerF, ctx.t('admin.broadcasts.customerHint'));
      a.customer_id = Number(s);
    }
    return a;
  }
  function button() {
    const text = buttonTextF.input.value.trim();
    const url = buttonUrlF.input.value.trim();
    if (!text && !url) return null;
    if (!text) throw new FieldError(buttonTextF, ctx.t('admin.broadcasts.buttonBoth'));
    if (!url) throw new FieldError(buttonUrlF, ctx.t('admin.broadcasts.buttonBoth'));
    return { text, url };
  }
  const body = () => {
    const b = { audience: audience(), text: textF.input.value };
    const btn = button();
    if (btn) b.button = btn;
    return b;
  };

  function drawPreview(p) {
    const kids = p.nodes && p.nodes.length ? drawNodes(p.nodes) : [h('span', { class: 'muted' }, ctx.t('admin.broadcasts.previewEmpty'))];
    bubble.replaceChildren(...[h('div', { class: 'bc-text' }, kids),
      p.button ? h('a', { class: 'bc-button', href: p.button.url, target: '_blank', rel: 'noopener noreferrer' }, p.button.text) : null,
      p.length ? h('p', { class: 'muted bc-length' }, ctx.t('admin.broadcasts.length', { n: p.length })) : null].filter(Boolean));
  }

  // The count and the preview, asked again a moment after the owner stops typing.
  async function refresh() {
    const mine = ++seq;
    countEl.textContent = ctx.t('admin.broadcasts.counting');
    let b;
    try { b = body(); } catch (e) {
      if (e instanceof FieldError) { countEl.textContent = ''; return; }
      throw e;
    }
    await send(ctx, { fields }, async () => {
      const p = await ctx.api.post('/broadcasts/preview', b);
      if (mine !== seq) return;
      count = p.count;
      countEl.textContent = ctx.t('admin.broadcasts.count', { n: p.count });
      sendBtn.textContent = ctx.t('admin.broadcasts.sendTo', { n: p.count });
      drawPreview(p);
    });
    if (mine === seq && count === null) countEl.textContent = '';
  }
  const later = () => {
    if (ctx.readOnly) return;   // the viewer's form is disabled: nothing to count
    key = null;   // another message: another broadcast
    count = null;
    clearTimeout(timer);
    timer = setTimeout(() => { refresh().catch((e) => ctx.fail(e)); }, PREVIEW_WAIT_MS);
  };
  kindF.input.addEventListener('change', () => { syncKind(); later(); });
  for (const f of [groupF, customerF, textF, buttonTextF, buttonUrlF]) f.input.addEventListener('input', later);
  groupF.input.addEventListener('change', later);

  testBtn.addEventListener('click', () => send(ctx, { fields, button: testBtn, status, done: ctx.t('admin.broadcasts.tested') }, async () => {
    if (!textF.input.value.trim()) throw new FieldError(textF, ctx.t('admin.broadcasts.textNeeded'));
    const b = { text: textF.input.value };
    const btn = button();
    if (btn) b.button = btn;
    await ctx.api.post('/broadcasts/test', b);
  }));

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    let b;
    try {
      b = body();
      if (!textF.input.value.trim()) throw new FieldError(textF, ctx.t('admin.broadcasts.textNeeded'));
    } catch (err) {
      if (err instanceof FieldError) { err.field.error(err.message); err.field.input.focus(); return; }
      throw err;
    }
    if (count === null) await refresh();
    if (count === null) return;
    if (count === 0) { status.textContent = ctx.t('admin.broadcasts.nobody'); status.dataset.kind = 'error'; return; }
    const yes = await confirmInPlace(ctx, sendBtn, ctx.t('admin.broadcasts.confirm', { n: count }), ctx.t('admin.broadcasts.confirmYes', { n: count }));
    if (!yes) return;
    if (!key) key = ctx.api.newKey();
    await send(ctx, { fields, button: sendBtn, status }, async () => {
      const made = await ctx.api.post('/broadcasts', b, { idempotencyKey: key });
      key = null;
      textF.input.value = '';
      buttonTextF.input.value = '';
      buttonUrlF.input.value = '';
      ctx.success(ctx.t('admin.broadcasts.queued', { n: count }));
      count = null;
      bubble.replaceChildren();
      await sent(made);
      later();
    });
  });

  syncKind();
  const compose = h('section', { class: 'card', 'aria-labelledby': 'bc-new' },
    h('h2', { class: 'card-title', id: 'bc-new' }, ctx.t('admin.broadcasts.new')), form);
  later();
  return { compose, preview: previewCard, stop: () => clearTimeout(timer) };
}
