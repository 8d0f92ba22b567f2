// The admin's table: columns that sort (a header button; aria-sort says how), an empty
// state, "More" for cursor paging, and under 700 px each row a list item whose cells carry
// their column's name (themes/admin.css, from data-label).
//
//   const t = dataTable(ctx, { label, columns: [{ key, label, cell?(row), value?(row),
//     sortable?, num? }], empty, sortParam: 'sort', rowKey?(row) });
//   t.setRows(rows); t.addRows(more); t.setMore(async () => …) | t.setMore(null); t.el
// The sort is kept in the URL (?sort=code or ?sort=-code) when `sortParam` is given.

import { h } from '../shared/dom.js';

function compare(a, b, locale) {
  if (a === b) return 0;
  if (a === null || a === undefined || a === '') return 1;
  if (b === null || b === undefined || b === '') return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return a ? -1 : 1;
  return String(a).localeCompare(String(b), locale, { numeric: true, sensitivity: 'base' });
}

export function dataTable(ctx, { label, columns, empty, sortParam = null, rowKey = null, selected = null }) {
  let rows = [];
  let more = null;
  const fromUrl = sortParam && ctx.params ? ctx.params.get(sortParam) : null;
  let sort = fromUrl ? { key: fromUrl.replace(/^-/, ''), dir: fromUrl.startsWith('-') ? -1 : 1 } : null;
  if (sort && !columns.some((c) => c.key === sort.key && c.sortable)) sort = null;

  const head = h('thead');
  const body = h('tbody');
  const table = h('table', { class: 'atable', 'aria-label': label }, head, body);
  const emptyEl = h('div', { class: 'empty' }, h('p', {}, empty || ctx.t('admin.table.empty')));
  const moreBtn = h('button', { class: 'btn btn-ghost', type: 'button', hidden: true }, ctx.t('admin.table.more'));
  const status = h('p', { class: 'visually-hidden', role: 'status' });
  const el = h('div', { class: 'atable-wrap' }, table, emptyEl, moreBtn, status);

  const valueOf = (c, r) => (c.value ? c.value(r) : r[c.key]);

  function renderHead() {
    head.replaceChildren(h('tr', {}, columns.map((c) => {
      const on = sort && sort.key === c.key;
      const ariaSort = on ? (sort.dir > 0 ? 'ascending' : 'descending') : (c.sortable ? 'none' : null);
      const inner = c.sortable
        ? h('button', { class: 'atable-sort', type: 'button', onclick: () => sortBy(c.key) },
          c.label, h('span', { class: 'atable-arrow', 'aria-hidden': 'true' }, on ? (sort.dir > 0 ? '▲' : '▼') : '↕'))
        : c.label;
      return h('th', { scope: 'col', class: c.num ? 'num' : null, 'aria-sort': ariaSort }, inner);
    })));
  }

  function ordered() {
    if (!sort) return rows;
    const c = columns.find((x) => x.key === sort.key);
    return rows.map((r, i) => [r, i]).sort((x, y) => sort.dir * compare(valueOf(c, x[0]), valueOf(c, y[0]), ctx.t.locale) || x[1] - y[1])
      .map((x) => x[0]);
  }

  function renderBody() {
    body.replaceChildren(...ordered().map((r) => h('tr', {
      'data-key': rowKey ? rowKey(r) : null,
      'aria-selected': selected && rowKey ? String(selected() === rowKey(r)) : null,
    }, columns.map((c) => {
      const v = c.cell ? c.cell(r) : valueOf(c, r);
      return h('td', { class: c.num ? 'num' : null, 'data-label': c.listLabel === false ? '' : c.label }, v === null || v === undefined ? '' : v);
    }))));
    table.hidden = rows.length === 0;
    emptyEl.hidden = rows.length !== 0;
  }

  function sortBy(key) {
    sort = sort && sort.key === key ? { key, dir: -sort.dir } : { key, dir: 1 };
    if (sortParam && ctx.setParams) ctx.setParams({ [sortParam]: (sort.dir < 0 ? '-' : '') + key });
    renderHead();
    renderBody();
    status.textContent = ctx.t(sort.dir > 0 ? 'admin.table.sortedUp' : 'admin.table.sortedDown',
      { column: columns.find((c) => c.key === key).label });
  }

  moreBtn.addEventListener('click', async () => {
    if (!more) return;
    moreBtn.disabled = true;
    try { await more(); } catch (e) { ctx.fail(e); } finally { moreBtn.disabled = false; }
  });

  renderHead();
  renderBody();
  return {
    el,
    setRows(next) { rows = next.slice(); renderBody(); },
    addRows(next) { rows = rows.concat(next); renderBody(); status.textContent = ctx.t('admin.table.added', { n: next.length }); },
    setMore(fn) { more = fn; moreBtn.hidden = !fn; },
    refresh() { renderBody(); },
    get rows() { return rows; },
  };
}
