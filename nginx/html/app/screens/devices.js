// Devices: the devices the panel has bound to the subscription ("N of limit"), each with an
// unbind button (asked twice, DELETE /devices/{hwid}), the list fetched again after.
// The panel being down (502) is an error with a retry, not an empty list.

import { h } from '../../shared/dom.js';

function confirmRow(ctx, name) {
  const yes = h('button', { class: 'btn btn-danger', type: 'button' }, ctx.t('devices.unbind.yes'));
  const no = h('button', { class: 'btn btn-ghost', type: 'button' }, ctx.t('action.cancel'));
  const box = h('div', { class: 'device-confirm', role: 'group', 'aria-label': ctx.t('devices.unbind.ask', { name }) },
    h('p', {}, ctx.t('devices.unbind.ask', { name })), h('div', { class: 'btn-row' }, yes, no));
  return { box, yes, no };
}

function deviceItem(ctx, d, refresh) {
  const name = d.model || d.platform || ctx.t('devices.unknown');
  const unbind = h('button', { class: 'btn btn-ghost device-unbind', type: 'button', 'aria-label': ctx.t('devices.unbind.label', { name }) },
    ctx.t('devices.unbind'));
  const item = h('li', { class: 'list-item device' },
    h('div', { class: 'device-info' },
      h('span', { class: 'device-name' }, name),
      h('span', { class: 'muted device-meta' },
        [d.platform && d.model ? d.platform : null, d.created_at ? ctx.t('devices.added', { date: ctx.fmt.date(d.created_at) }) : null]
          .filter(Boolean).join(' · '))),
    unbind);
  unbind.addEventListener('click', () => {
    const { box, yes, no } = confirmRow(ctx, name);
    unbind.replaceWith(box);
    yes.focus();
    no.addEventListener('click', () => { box.replaceWith(unbind); unbind.focus(); });
    yes.addEventListener('click', async () => {
      yes.disabled = true; no.disabled = true;
      try {
        await ctx.api.del('/devices/' + encodeURIComponent(d.hwid));
        ctx.success(ctx.t('devices.unbound', { name }));
      } catch (e) {
        ctx.fail(e);
      }
      await refresh();
    });
  });
  return item;
}

async function load(view, ctx) {
  let data;
  try {
    data = await ctx.api.get('/devices');
  } catch (e) {
    ctx.fail(e, { inline: view });
    return;
  }
  const refresh = () => load(view, ctx);
  if (data.device_limit === null || data.device_limit === undefined) {
    view.replaceChildren(h('div', { class: 'empty' },
      h('p', {}, ctx.t('devices.none')),
      h('a', { class: 'btn btn-primary', href: '#/plans' }, ctx.t('devices.none.action'))));
    return;
  }
  const count = h('p', { class: 'devices-count', role: 'status' },
    data.device_limit > 0
      ? ctx.t('devices.count', { n: data.items.length, limit: data.device_limit })
      : ctx.t('devices.count.unlimited', { n: data.items.length }));
  if (!data.items.length) {
    view.replaceChildren(count, h('div', { class: 'empty' },
      h('p', {}, ctx.t('devices.empty')),
      h('a', { class: 'btn', href: '#/connect' }, ctx.t('devices.empty.action'))));
    return;
  }
  view.replaceChildren(count,
    h('ul', { class: 'list devices-list', 'aria-label': ctx.t('devices.title') }, data.items.map((d) => deviceItem(ctx, d, refresh))),
    h('p', { class: 'muted devices-hint' }, ctx.t('devices.hint')));
}

export default {
  title: 'devices.title',
  tab: 'account',
  parent: 'account',
  async render(view, ctx) {
    view.replaceChildren(h('div', { class: 'skeleton skeleton-line' }), h('div', { class: 'skeleton skeleton-line' }));
    await load(view, ctx);
  },
};
