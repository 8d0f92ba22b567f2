// The card's actions: each a small form (a disclosure, closed until asked for) with the
// owner's "reason" (kept in the audit log), sent as POST /api/admin/customers/{id}/{action}
// with an Idempotency-Key: one key per submitted form, kept while the same form is sent
// again after the answer was lost (a network error, a gateway timeout), so the second
// try does nothing twice; a new key as soon as the values change or an answer came. The
// button is disabled while the call is in flight; a refusal is shown next to the field it
// names (a 422's detail starts with the field), else under the form. After an action the
// card is drawn again and a toast says what happened.
// Roles: the owner every action; support the support work (devices, link, block, sync,
// message); a viewer sees them all disabled, with the read-only note.

import { h } from '../../shared/dom.js';
import { FieldError, field, formStatus, input, keyKeeper, send, textarea } from '../form.js';
import { confirmInPlace, guard } from '../kit.js';
import { actionSpecs } from './action-specs.js';

function reasonField(ctx, { small = false } = {}) {
  const control = small ? input({ maxlength: 500, autocomplete: 'off' }) : textarea({ rows: 2, maxlength: 500 });
  return field(ctx.t('customers.reason'), control, { names: ['reason'], hint: small ? null : ctx.t('customers.reasonHint'), wide: true });
}

function reasonOf(ctx, f) {
  const v = f.input.value.trim();
  if (!v) throw new FieldError(f, ctx.t('customers.reasonNeeded'));
  return v;
}

// Sends `body` (with the reason) to the action, confirming first when asked; the card is
// drawn again and the toast shown on success.
async function run(ctx, { card, path, keys, body, confirm, button, reload, actionId, done }) {
  if (confirm && !(await confirmInPlace(ctx, button, confirm.question, confirm.yes, confirm.danger))) return;
  let answer;
  try {
    answer = await ctx.api.post(`/customers/${card.customer.id}/${path}`, body, { idempotencyKey: keys.take(body) });
  } catch (e) {
    keys.settle(e);
    throw e;
  }
  keys.settle(null);
  ctx.success(done(answer, body));
  await reload(actionId).catch((e) => ctx.fail(e));
}

// One action as a disclosure with its form.
function actionForm(ctx, card, spec, reload) {
  const fields = spec.fields();
  const reasonF = reasonField(ctx);
  const all = [...fields, reasonF];
  const button = h('button', { class: spec.danger ? 'btn btn-danger' : 'btn btn-primary', type: 'submit' }, spec.submit);
  const status = formStatus();
  const keys = keyKeeper(ctx);
  const box = h('fieldset', {}, h('div', { class: 'admin-fields' }, all.map((f) => f.el)), spec.note || null,
    h('div', { class: 'btn-row' }, button), status);
  const form = h('form', { class: 'admin-form cust-action-form', 'aria-label': spec.title }, guard(ctx, box));
  if (spec.disabled) box.disabled = true;
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (button.disabled) return;
    send(ctx, { fields: all, button, status }, async () => {
      const body = { ...spec.body(), reason: reasonOf(ctx, reasonF) };
      await run(ctx, { card, path: spec.path, keys, body, button, reload, actionId: spec.id, done: spec.done,
        confirm: spec.confirm ? { question: spec.confirm, yes: spec.submit, danger: spec.danger } : null });
    });
  });
  return h('details', { class: 'cust-action', 'data-action': spec.id },
    h('summary', { class: 'cust-action-title' }, spec.title), spec.hint ? h('p', { class: 'muted cust-action-hint' }, spec.hint) : null, form);
}

export function actionPanel(ctx, card, { plans, groups, devices, reload }) {
  const role = ctx.role;
  const specs = actionSpecs(ctx, card, { plans, groups, devices })
    .filter((s) => role === 'viewer' || s.roles.includes(role));
  const forms = specs.map((s) => actionForm(ctx, card, s, reload));
  const el = h('section', { class: 'card cust-actions', 'aria-labelledby': 'cust-actions' },
    h('h2', { class: 'card-title', id: 'cust-actions' }, ctx.t('customers.actions')),
    ctx.readOnly ? h('p', { class: 'notice admin-readonly', role: 'note' }, ctx.t('customers.readOnly')) : null,
    forms);
  const mayUnbind = role === 'owner' || role === 'support' || role === 'viewer';

  // "Unbind" beside a device: asks for the reason in place, then sends it.
  function unbind(device, name) {
    const open = h('button', { class: 'btn btn-ghost btn-small', type: 'button', disabled: ctx.readOnly,
      'aria-label': ctx.t('customers.unbindNamed', { name }) }, ctx.t('customers.unbind'));
    const reasonF = reasonField(ctx, { small: true });
    const go = h('button', { class: 'btn btn-danger btn-small', type: 'submit' }, ctx.t('customers.unbind'));
    const cancel = h('button', { class: 'btn btn-ghost btn-small', type: 'button' }, ctx.t('action.cancel'));
    const status = formStatus();
    const keys = keyKeeper(ctx);
    const form = h('form', { class: 'admin-form cust-unbind', 'aria-label': ctx.t('customers.unbindNamed', { name }) },
      guard(ctx, h('fieldset', {}, reasonF.el, h('div', { class: 'btn-row' }, go, cancel), status)));
    const holder = h('div', { class: 'cust-unbind-box' }, open);
    open.addEventListener('click', () => { holder.replaceChildren(form); reasonF.input.focus(); });
    cancel.addEventListener('click', () => { holder.replaceChildren(open); open.focus(); });
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      if (go.disabled) return;
      send(ctx, { fields: [reasonF], button: go, status }, async () => {
        const body = { hwid: device.hwid, reason: reasonOf(ctx, reasonF) };
        await run(ctx, { card, path: 'unbind-device', keys, body, button: go, reload, actionId: null,
          done: () => ctx.t('customers.done.unbind', { name }) });
      });
    });
    return holder;
  }

  return {
    el,
    unbind: mayUnbind ? unbind : null,
    focus(actionId) {
      const s = el.querySelector(`details[data-action="${actionId}"] > summary`);
      if (s) s.focus(); else document.getElementById('cust-name')?.focus();
    },
  };
}
