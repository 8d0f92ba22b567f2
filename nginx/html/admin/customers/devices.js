// The card's devices, as the panel knows them (GET …/customers/{id}/devices): platform,
// model, hardware id, when it was bound, and per device "Unbind" (owner, support; asks for
// the reason in place, customers/actions.js sends it). When the panel cannot be reached the
// section says so and the rest of the card is unaffected.

import { ApiError } from '../../shared/api.js';
import { h } from '../../shared/dom.js';

export function devicesSection(ctx, card, answer, unbind) {
  const head = h('h2', { class: 'card-title', id: 'cust-devices' }, ctx.t('customers.devices'));
  const box = h('section', { class: 'card', 'aria-labelledby': 'cust-devices' }, head);
  if (answer instanceof Error || !answer) {
    const panel = answer instanceof ApiError && (answer.status === 502 || answer.status === 503 || answer.status === 504);
    box.append(h('p', { class: 'muted', role: 'note' }, panel ? ctx.t('customers.devices.panelDown') : ctx.errorText(answer)));
    return box;
  }
  const items = answer.items || [];
  const limit = answer.device_limit ?? (card.subscription ? card.subscription.device_limit : null);
  box.append(h('p', { class: 'muted' }, limit
    ? ctx.t('customers.devices.countOf', { n: items.length, limit })
    : ctx.t('customers.devices.count', { n: items.length })));
  if (!items.length) return box;
  box.append(h('ul', { class: 'list cust-devices', 'aria-label': ctx.t('customers.devices') }, items.map((d) => {
    const name = [d.platform, d.device_model].filter(Boolean).join(' · ') || ctx.t('customers.devices.unknown');
    return h('li', { class: 'list-item cust-device' },
      h('div', { class: 'cust-device-main' },
        h('p', { class: 'cust-device-name' }, name),
        h('p', { class: 'muted cust-device-meta' }, h('span', { class: 'atable-code' }, d.hwid),
          d.created_at ? [' · ', h('time', { datetime: d.created_at }, ctx.fmt.dateTime(d.created_at))] : null)),
      unbind ? unbind(d, name) : null);
  })));
  return box;
}
