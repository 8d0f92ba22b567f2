// Maintenance: the mode (on/off, manual or the watchdog's, who and when), the panel check
// streak, the switch (with an optional message; switching on is confirmed first), "back up
// now" (the job is queued, then the audit log is polled for its backup.done entry) and the
// host actions (each confirmed; the answer is "scheduled" with its audit id).

import { h } from '../../shared/dom.js';
import { confirmInPlace, facts } from '../kit.js';

const HOST_ACTIONS = ['update', 'restart-panel', 'restart-bot', 'reboot-server'];
const POLL_MS = 1500;
const SLOW_MS = 20000;
const GIVE_UP_MS = 10 * 60 * 1000;

function actorText(ctx, who) {
  if (!who) return ctx.t('admin.none');
  return ctx.t.has('admin.actor.' + who) ? ctx.t('admin.actor.' + who) : who;
}

function statusCard(ctx, m) {
  const on = m.enabled;
  return h('section', { class: 'card admin-status', 'aria-labelledby': 'adm-status' },
    h('h2', { class: 'card-title', id: 'adm-status' }, ctx.t('admin.mode.title')),
    h('p', { class: 'admin-mode' },
      h('span', { class: 'badge ' + (on ? 'badge-limited' : 'badge-active') }, ctx.t(on ? 'admin.mode.on' : 'admin.mode.off')),
      on && m.source ? h('span', { class: 'muted' }, ctx.t(m.source === 'auto' ? 'admin.source.auto' : 'admin.source.manual')) : null),
    facts([
      [ctx.t('admin.mode.message'), m.message || null],
      [ctx.t('admin.mode.changedBy'), actorText(ctx, m.changed_by)],
      [ctx.t('admin.mode.changedAt'), m.changed_at ? ctx.fmt.dateTime(m.changed_at) : ctx.t('admin.never')],
      [ctx.t('admin.mode.auto'), ctx.t(m.auto_maintenance_enabled ? 'admin.auto.on' : 'admin.auto.off')],
    ]));
}

function panelCard(ctx, p) {
  p = p || {};
  const failing = (p.consecutive_failures || 0) > 0;
  return h('section', { class: 'card admin-panel', 'aria-labelledby': 'adm-panel' },
    h('h2', { class: 'card-title', id: 'adm-panel' }, ctx.t('admin.panel.title')),
    h('p', { class: 'admin-mode' }, h('span', { class: 'badge ' + (failing ? 'badge-expired' : 'badge-active') },
      ctx.t(failing ? 'admin.panel.failing' : 'admin.panel.ok'))),
    facts([
      [ctx.t('admin.panel.failures'), ctx.fmt.number(p.consecutive_failures || 0)],
      [ctx.t('admin.panel.checked'), p.checked_at ? ctx.fmt.dateTime(p.checked_at) : ctx.t('admin.never')],
      [ctx.t('admin.panel.error'), p.last_error || ctx.t('admin.none')],
    ]));
}

function switchCard(ctx, m, refresh) {
  const box = h('section', { class: 'card admin-switch', 'aria-labelledby': 'adm-switch' },
    h('h2', { class: 'card-title', id: 'adm-switch' }, ctx.t(m.enabled ? 'admin.switch.offTitle' : 'admin.switch.onTitle')));
  const send = async (body, button) => {
    button.disabled = true;
    try {
      await ctx.api.post('/maintenance/mode', body);
      ctx.success(ctx.t(body.enabled ? 'admin.switch.doneOn' : 'admin.switch.doneOff'));
      await refresh();
    } catch (e) {
      button.disabled = false;
      ctx.fail(e);
    }
  };
  if (m.enabled) {
    const off = h('button', { class: 'btn btn-primary', type: 'button', disabled: ctx.readOnly }, ctx.t('admin.switch.off'));
    off.addEventListener('click', () => send({ enabled: false }, off));
    box.append(h('p', { class: 'muted' }, ctx.t('admin.switch.offHint')), off);
    return box;
  }
  const input = h('textarea', { class: 'textarea', id: 'adm-message', rows: 3, maxlength: 1024, 'aria-describedby': 'adm-message-hint', disabled: ctx.readOnly });
  const on = h('button', { class: 'btn btn-danger', type: 'button', disabled: ctx.readOnly }, ctx.t('admin.switch.on'));
  on.addEventListener('click', async () => {
    if (!await confirmInPlace(ctx, on, ctx.t('admin.switch.ask'), ctx.t('admin.switch.yes'), true)) return;
    const message = input.value.trim();
    await send(message ? { enabled: true, message } : { enabled: true }, on);
  });
  box.append(
    h('div', { class: 'field' },
      h('label', { for: 'adm-message' }, ctx.t('admin.switch.message')),
      input,
      h('p', { class: 'muted field-hint', id: 'adm-message-hint' }, ctx.t('admin.switch.messageHint'))),
    on);
  return box;
}

function backupCard(ctx, timers) {
  const status = h('div', { class: 'admin-job', role: 'status', 'aria-live': 'polite' });
  const run = h('button', { class: 'btn btn-primary', type: 'button', disabled: ctx.readOnly }, ctx.t('admin.backup.run'));
  run.addEventListener('click', async () => {
    run.disabled = true;
    let answer;
    try {
      answer = await ctx.api.post('/maintenance/backup', {});
    } catch (e) {
      run.disabled = false;
      return ctx.fail(e);
    }
    const id = answer.task_id;
    const started = Date.now();
    const line = h('p', {}, ctx.t('admin.backup.queued', { id }));
    const slow = h('p', { class: 'muted' });
    status.replaceChildren(line, slow);
    const poll = async () => {
      timers.poll = null;
      let done = null;
      try {
        const log = await ctx.api.get('/audit?limit=50');
        done = (log.items || []).find((e) => e.action === 'backup.done' && e.entity === 'job:' + id);
      } catch (e) {
        if (e.status === 401 || e.status === 403) return ctx.fail(e);
      }
      if (done) {
        const p = done.payload || {};
        const ok = Boolean(p.file);   // result is the worker's text; no file: no archive made
        run.disabled = false;
        status.replaceChildren(
          h('p', {}, h('span', { class: 'badge ' + (ok ? 'badge-active' : 'badge-expired') },
            ctx.t(ok ? 'admin.backup.ok' : 'admin.backup.failed')), ' ', ctx.t('admin.backup.job', { id })),
          facts([
            [ctx.t('admin.backup.file'), p.file || null],
            [ctx.t('admin.backup.size'), typeof p.size === 'number' ? ctx.fmt.bytes(p.size) : null],
            [ctx.t('admin.backup.delivered'), p.delivered === undefined ? null : ctx.t(p.delivered ? 'admin.yes' : 'admin.no')],
            [ctx.t('admin.backup.result'), p.result === undefined ? null : String(p.result)],
            [ctx.t('admin.backup.at'), ctx.fmt.dateTime(done.at)],
          ]));
        return;
      }
      const waited = Date.now() - started;
      if (waited > GIVE_UP_MS) {
        run.disabled = false;
        slow.textContent = ctx.t('admin.backup.gaveUp');
        return;
      }
      if (waited > SLOW_MS) slow.textContent = ctx.t('admin.backup.slow');
      timers.poll = setTimeout(poll, POLL_MS);
    };
    timers.poll = setTimeout(poll, 500);
  });
  return h('section', { class: 'card admin-backup', 'aria-labelledby': 'adm-backup' },
    h('h2', { class: 'card-title', id: 'adm-backup' }, ctx.t('admin.backup.title')),
    h('p', { class: 'muted' }, ctx.t('admin.backup.hint')),
    run, status);
}

function hostCard(ctx) {
  const items = HOST_ACTIONS.map((action) => {
    const button = h('button', { class: 'btn btn-ghost', type: 'button', disabled: ctx.readOnly }, ctx.t('admin.host.' + action));
    const result = h('p', { class: 'admin-host-result', role: 'status' });
    button.addEventListener('click', async () => {
      if (!await confirmInPlace(ctx, button, ctx.t('admin.host.ask', { action: ctx.t('admin.host.' + action) }),
        ctx.t('admin.host.yes'), action === 'reboot-server')) return;
      button.disabled = true;
      try {
        const a = await ctx.api.post('/maintenance/' + action, {});
        result.textContent = ctx.t('admin.host.scheduled', { id: a.audit_id });
        ctx.success();
      } catch (e) {
        ctx.fail(e);
      } finally {
        button.disabled = false;
      }
    });
    return h('li', { class: 'admin-host-item' }, button, result);
  });
  return h('section', { class: 'card admin-host', 'aria-labelledby': 'adm-host' },
    h('h2', { class: 'card-title', id: 'adm-host' }, ctx.t('admin.host.title')),
    h('p', { class: 'muted' }, ctx.t('admin.host.hint')),
    h('ul', { class: 'admin-host-list' }, items));
}

export default {
  title: 'admin.maintenance.title',
  tab: 'maintenance',
  async render(view, ctx) {
    const timers = { poll: null };
    const top = h('div', { class: 'admin-top' });
    view.append(h('div', { class: 'skeleton skeleton-card' }), h('div', { class: 'skeleton skeleton-line' }));
    const refresh = async () => {
      const m = await ctx.api.get('/maintenance');
      top.replaceChildren(statusCard(ctx, m), switchCard(ctx, m, refresh), panelCard(ctx, m.panel));
    };
    await refresh();   // nothing but the skeleton until the server said this is an admin
    view.replaceChildren(top, backupCard(ctx, timers), hostCard(ctx));
    return () => { if (timers.poll) clearTimeout(timers.poll); };
  },
};
