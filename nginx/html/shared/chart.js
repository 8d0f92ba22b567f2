// A bar chart as inline SVG: no library, no canvas, colours from the theme through classes
// (.chart-bar { fill: var(--accent) } in screens.css), and readable without sight: the SVG is
// role="img" with a summary label, and a visually hidden table carries every value.
//
//   barChart({ bars: [{ key, label, value, text }], label, caption, columns: [day, value] })
//   → <figure class="chart"> (svg + hidden table)
// `label` is the short name of a bar (an axis tick, e.g. the day of the month); `text` is the
// value as people read it ("1.2 GB"); bars with value 0 draw a thin baseline mark.

import { h, s } from './dom.js';

const W = 300;      // viewBox units; the SVG scales to its box
const H = 120;
const AXIS = 14;    // room under the bars for the tick labels

export function barChart({ bars, label, caption, columns, ticks = 6 }) {
  const n = Math.max(1, bars.length);
  const max = Math.max(1, ...bars.map((b) => b.value));
  const slot = W / n;
  const gap = Math.min(2, slot * 0.25);
  const plot = H - AXIS;
  const every = Math.max(1, Math.ceil(n / ticks));

  const svg = s('svg', {
    class: 'chart-svg', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': label,
    preserveAspectRatio: 'none', focusable: 'false',
  },
  s('line', { class: 'chart-axis', x1: 0, x2: W, y1: plot + 0.5, y2: plot + 0.5 }),
  bars.map((b, i) => {
    const bh = b.value > 0 ? Math.max(1.5, (b.value / max) * (plot - 4)) : 0;
    return s('rect', {
      class: b.value > 0 ? 'chart-bar' : 'chart-bar chart-bar-zero',
      x: (i * slot + gap / 2).toFixed(2), width: Math.max(0.5, slot - gap).toFixed(2),
      y: (plot - bh).toFixed(2), height: bh.toFixed(2), 'data-key': b.key,
    }, s('title', {}, `${b.key}: ${b.text}`));
  }));

  // Tick labels are HTML under the SVG (an SVG stretched with preserveAspectRatio=none
  // would distort text).
  const axis = h('div', { class: 'chart-ticks', 'aria-hidden': 'true' },
    bars.map((b, i) => h('span', { class: 'chart-tick' }, i % every === 0 || i === n - 1 ? b.label : '')));
  axis.style.setProperty('--n', String(n));

  // The table for screen readers sits in a hidden box: a table is never shorter than its
  // rows, so hidden itself it still made the page a screen taller.
  const table = h('div', { class: 'visually-hidden' }, h('table', {},
    caption ? h('caption', {}, caption) : null,
    h('thead', {}, h('tr', {}, columns.map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', {}, bars.map((b) => h('tr', {}, h('th', { scope: 'row' }, b.key), h('td', {}, b.text))))));

  return h('figure', { class: 'chart' }, svg, axis, table);
}

// Daily use from daily cumulative snapshots (oldest first): a day's use is its value minus
// the day before's; a value below the previous one means the counter was reset, and then the
// day's use is its own value. The first snapshot is only the starting point.
export function dailyUse(series) {
  const out = [];
  for (let i = 1; i < series.length; i++) {
    const prev = Number(series[i - 1].used_bytes) || 0;
    const cur = Number(series[i].used_bytes) || 0;
    out.push({ day: series[i].day, used: cur >= prev ? cur - prev : cur });
  }
  return out;
}
