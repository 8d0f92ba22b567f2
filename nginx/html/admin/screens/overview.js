// Overview: GET /api/admin/overview — today's revenue against yesterday's, active and trial
// subscriptions, new customers in 24 h, trial conversion, the 30-day revenue chart, and
// the health of the panel, the worker, the last backup, the money check and maintenance.

import { barChart } from '../../shared/chart.js';
import { h } from '../../shared/dom.js';

function stat(label, value, note = null) {
  return h('div', { class: 'card admin-stat' }, h('dt', {}, label), h('dd', {}, value,
    note ? h('span', { class: 'admin-stat-note' }, h('br'), note) : null));
}

function health(ctx, name, ok, text, detail = null) {
  const cls = ok === true ? 'badge-active' : ok === false ? 'badge-expired' : 'badge-pending';
  return h('li', {}, h('span', { class: 'admin-health-name' }, name),
    h('span', { class: 'badge ' + cls }, text), detail ? h('span', { class: 'muted' }, detail) : null);
}

const when = (ctx, iso) => (iso ? ctx.fmt.dateTime(iso) : ctx.t('admin.never'));

function healthCard(ctx, o) {
  const p = o.panel || {};
  const w = o.worker || {};
  const b = o.backup || {};
  const bOk = b.status === 'completed' ? true : b.status === 'failed' ? false : null;
  const m = o.maintenance || {};
  const l = o.ledger || {};
  const lOk = l.checked_at ? l.problems === 0 : null;
  return h('section', { class: 'card', 'aria-labelledby': 'ov-health' },
    h('h2', { class: 'card-title', id: 'ov-health' }, ctx.t('admin.overview.health')),
    h('ul', { class: 'admin-health' },
      health(ctx, ctx.t('admin.overview.panel'), p.ok ?? null,
        ctx.t(p.ok === true ? 'admin.overview.ok' : p.ok === false ? 'admin.overview.failing' : 'admin.overview.unknown'),
        [ctx.t('admin.overview.checked', { at: when(ctx, p.checked_at) }), p.error ? ' · ' + p.error : ''].join('')),
      health(ctx, ctx.t('admin.overview.worker'), Boolean(w.ok),
        ctx.t(w.ok ? 'admin.overview.running' : 'admin.overview.stopped'),
        ctx.t('admin.overview.heartbeat', { at: when(ctx, w.heartbeat_at) })),
      health(ctx, ctx.t('admin.overview.backup'), bOk,
        b.status ? ctx.t('admin.overview.backup.' + b.status) : ctx.t('admin.overview.backup.none'),
        [b.at ? ctx.fmt.dateTime(b.at) : '', b.error ? ' · ' + b.error : ''].join('') || null),
      health(ctx, ctx.t('admin.overview.ledger'), lOk,
        ctx.t(lOk === null ? 'admin.overview.unknown' : lOk ? 'admin.overview.ledger.ok' : 'admin.overview.ledger.problems',
          { n: l.problems }),
        [ctx.t('admin.overview.checked', { at: when(ctx, l.checked_at) }), l.first_problem ? ' · ' + l.first_problem : ''].join('')),
      health(ctx, ctx.t('admin.overview.maintenance'), !m.enabled,
        ctx.t(m.enabled ? 'admin.mode.on' : 'admin.mode.off'))));
}

function chartCard(ctx, o) {
  const days = o.revenue_30d || [];
  const total = days.reduce((sum, d) => sum + Number(d.amount_minor || 0), 0);
  const bars = days.map((d) => ({
    key: d.day, label: String(Number(d.day.slice(8, 10))), value: Number(d.amount_minor) || 0,
    text: ctx.fmt.money(d.amount_minor, o.currency),
  }));
  return h('section', { class: 'card', 'aria-labelledby': 'ov-chart' },
    h('h2', { class: 'card-title', id: 'ov-chart' }, ctx.t('admin.overview.chart')),
    h('p', { class: 'muted' }, ctx.t('admin.overview.chartTotal', { total: ctx.fmt.money(total, o.currency) })),
    barChart({ bars, label: ctx.t('admin.overview.chartLabel', { total: ctx.fmt.money(total, o.currency) }),
      caption: ctx.t('admin.overview.chart'), columns: [ctx.t('admin.overview.day'), ctx.t('admin.overview.revenue')], ticks: 10 }));
}

export default {
  title: 'admin.overview.title',
  async render(view, ctx) {
    view.append(h('div', { class: 'skeleton skeleton-card' }));
    const o = await ctx.api.get('/overview');
    if (o.currency) ctx.currency = o.currency;
    const money = (m) => ctx.fmt.money(m, o.currency);
    const r = o.revenue || {};
    const s = o.subscriptions || {};
    const c = o.trial_conversion || {};
    const reload = h('button', { class: 'btn btn-ghost btn-small', type: 'button' }, ctx.t('admin.audit.reload'));
    reload.addEventListener('click', () => ctx.go('overview'));
    view.replaceChildren(
      h('div', { class: 'admin-toolbar' }, reload),
      h('dl', { class: 'admin-stats', 'aria-label': ctx.t('admin.overview.figures') },
        stat(ctx.t('admin.overview.today'), money(r.today_minor || 0), ctx.t('admin.overview.yesterday', { amount: money(r.yesterday_minor || 0) })),
        stat(ctx.t('admin.overview.active'), ctx.fmt.number(s.active || 0)),
        stat(ctx.t('admin.overview.trial'), ctx.fmt.number(s.trial || 0)),
        stat(ctx.t('admin.overview.new24h'), ctx.fmt.number(o.new_customers_24h || 0)),
        stat(ctx.t('admin.overview.conversion'),
          new Intl.NumberFormat(ctx.t.locale, { maximumFractionDigits: 1 }).format(c.pct || 0) + '\u00a0%',
          ctx.t('admin.overview.conversionNote', { converted: ctx.fmt.number(c.converted || 0), trials: ctx.fmt.number(c.trials || 0) }))),
      h('div', { class: 'admin-pair' }, chartCard(ctx, o), healthCard(ctx, o)));
  },
};
