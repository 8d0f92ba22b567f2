// Traffic: used of the limit (or unlimited) and a 30-day bar chart of the daily use,
// worked out from the daily cumulative snapshots of GET /traffic (shared/chart.js).
// Hidden entirely when the owner turned traffic display off (app.show_traffic_usage).

import { barChart, dailyUse } from '../../shared/chart.js';
import { h } from '../../shared/dom.js';

const DAY = 86400000;
const dayKey = (ms) => new Date(ms).toISOString().slice(0, 10);

function totals(ctx, tr) {
  const used = ctx.fmt.bytes(tr.used_bytes);
  if (tr.unlimited) {
    return h('article', { class: 'card traffic-total' },
      h('span', { class: 'stat-label' }, ctx.t('traffic.used')),
      h('span', { class: 'traffic-value' }, used),
      h('span', { class: 'muted' }, ctx.t('traffic.unlimited')));
  }
  const pct = tr.limit_bytes > 0 ? Math.min(100, Math.round((tr.used_bytes / tr.limit_bytes) * 100)) : 0;
  const meter = h('div', {
    class: pct >= 90 ? 'meter meter-warn' : 'meter', role: 'progressbar',
    'aria-valuemin': '0', 'aria-valuemax': '100', 'aria-valuenow': String(pct), 'aria-label': ctx.t('traffic.used'),
  }, h('div', { class: 'meter-fill' }));
  meter.firstChild.style.width = pct + '%';
  const left = Math.max(0, tr.limit_bytes - tr.used_bytes);
  return h('article', { class: 'card traffic-total' },
    h('span', { class: 'stat-label' }, ctx.t('traffic.used')),
    h('span', { class: 'traffic-value' }, ctx.t('traffic.of', { used, limit: ctx.fmt.bytes(tr.limit_bytes) })),
    meter,
    h('span', { class: 'muted' }, ctx.t('traffic.left', { left: ctx.fmt.bytes(left), pct })));
}

// The 30 days ending on the last snapshot's day, each with its use (0 where none is known).
function days(series) {
  const use = new Map(dailyUse(series).map((d) => [d.day, d.used]));
  const last = Date.parse(series[series.length - 1].day + 'T00:00:00Z');
  const out = [];
  for (let i = 29; i >= 0; i--) {
    const key = dayKey(last - i * DAY);
    out.push({ key, used: use.get(key) || 0 });
  }
  return out;
}

function chart(ctx, series) {
  const list = days(series);
  const total = list.reduce((a, d) => a + d.used, 0);
  const peak = list.reduce((a, d) => (d.used > a.used ? d : a), list[0]);
  const dayFmt = new Intl.DateTimeFormat(ctx.t.locale, { day: 'numeric', month: 'short', timeZone: 'UTC' });
  const label = ctx.t('traffic.chart.summary', {
    total: ctx.fmt.bytes(total),
    avg: ctx.fmt.bytes(total / list.length),
    peak: ctx.fmt.bytes(peak.used),
    day: dayFmt.format(Date.parse(peak.key)),
  });
  return h('article', { class: 'card traffic-chart', 'aria-labelledby': 'traffic-chart-title' },
    h('h2', { class: 'card-title', id: 'traffic-chart-title' }, ctx.t('traffic.chart.title')),
    barChart({
      bars: list.map((d) => ({
        key: dayFmt.format(Date.parse(d.key)),
        label: String(new Date(Date.parse(d.key)).getUTCDate()),
        value: d.used,
        text: ctx.fmt.bytes(d.used),
      })),
      label,
      caption: ctx.t('traffic.chart.title'),
      columns: [ctx.t('traffic.chart.day'), ctx.t('traffic.chart.used')],
    }),
    h('p', { class: 'muted chart-note' }, label));
}

export default {
  title: 'traffic.title',
  tab: 'account',
  parent: 'account',
  async render(view, ctx) {
    if (!ctx.me.app.show_traffic_usage) {
      view.replaceChildren(h('div', { class: 'empty' }, h('p', {}, ctx.t('traffic.off'))));
      return;
    }
    view.replaceChildren(h('div', { class: 'skeleton skeleton-card' }), h('div', { class: 'skeleton skeleton-card' }));
    let tr;
    try {
      tr = await ctx.api.get('/traffic');
    } catch (e) {
      ctx.fail(e, { inline: view });
      return;
    }
    if (!ctx.me.subscription) {
      view.replaceChildren(h('div', { class: 'empty' },
        h('p', {}, ctx.t('traffic.none')),
        h('a', { class: 'btn btn-primary', href: '#/plans' }, ctx.t('traffic.none.action'))));
      return;
    }
    view.replaceChildren(totals(ctx, tr),
      tr.series.length >= 2
        ? chart(ctx, tr.series)
        : h('div', { class: 'empty traffic-empty' }, h('p', {}, ctx.t('traffic.chart.empty'))));
  },
};
