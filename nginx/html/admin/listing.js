// What a filtered admin list shares (customers, payments): the filters
// as they stand in the URL (only the list's own keys), a row's detail link that keeps them,
// the page loader (cursor paging into the shared table, aria-busy while asking, the count
// line, a late answer to an older question dropped), a click anywhere on a row opening its
// detail, and the "Export CSV" button (the filtered list fetched with the credential and
// saved as a file).

import { h } from '../shared/dom.js';
import { fieldFor, formStatus, send } from './form.js';
import { saveBlob } from './kit.js';

// The list's filters from the URL (only those of `keys` that are set).
export function filtersFrom(params, keys) {
  const f = new URLSearchParams();
  for (const k of keys) {
    const v = (params.get(k) || '').trim();
    if (v) f.set(k, v);
  }
  return f;
}

// "#/section?filters" or, with `id`, "#/section?filters&id=N".
export function sectionHash(section, params, keys, id = null) {
  const f = filtersFrom(params, keys);
  if (id !== null) f.set('id', String(id));
  const qs = f.toString();
  return '#/' + section + (qs ? '?' + qs : '');
}

// load(cursor?) asks `path?filters&limit&cursor` and fills `table` (the first page replaces,
// "More" adds); `count` gets `countKey` ("… more below": `countMoreKey`); onPage(page, cursor)
// sees each answer. The table says it is busy while asking (the tests wait on it).
export function pagedLoader(ctx, table, { path, filters, limit = 50, count, countKey, countMoreKey, onPage = null }) {
  let seq = 0;
  async function load(cursor = null) {
    const mine = ++seq;
    const qs = new URLSearchParams(filters());
    qs.set('limit', String(limit));
    if (cursor) qs.set('cursor', cursor);
    table.el.setAttribute('aria-busy', 'true');
    let page;
    try {
      page = await ctx.api.get(path + '?' + qs);
    } finally {
      if (mine === seq) table.el.setAttribute('aria-busy', 'false');
    }
    if (mine !== seq) return;
    const items = page.items || [];
    if (cursor) table.addRows(items); else table.setRows(items);
    if (onPage) onPage(page, cursor);
    table.setMore(page.next_cursor ? () => load(page.next_cursor) : null);
    count.textContent = ctx.t(page.next_cursor ? countMoreKey : countKey, { n: table.rows.length });
  }
  return load;
}

// The first page; filters the server refuses (a date that is not one, from a URL typed by
// hand) are said next to their field, with the form still there to correct them.
export async function firstLoad(ctx, load, fields, table) {
  try {
    await load();
  } catch (e) {
    const f = fieldFor(e, fields);
    if (!f) throw e;
    f.error(ctx.errorText(e));
    table.setRows([]);
  }
}

// A click anywhere on a row opens its detail (the row's link is the one keyboards use).
export function rowsOpen(table, hashOf) {
  table.el.addEventListener('click', (e) => {
    if (e.target.closest('a, button')) return;
    const tr = e.target.closest('tbody tr[data-key]');
    if (tr) location.hash = hashOf(tr.dataset.key);
  });
}

// "Export CSV": GET `path()` saved under the server's file name (else `name`-date.csv).
export function exportButton(ctx, { label, busy, done, path, name }) {
  const btn = h('button', { class: 'btn', type: 'button' }, label);
  const status = formStatus();
  btn.addEventListener('click', () => send(ctx, { button: btn, status }, async () => {
    status.textContent = busy;
    const file = await ctx.download(path());
    const saved = file.name || `${name}-${new Date().toISOString().slice(0, 10)}.csv`;
    saveBlob(file.blob, saved);
    status.textContent = done(saved);
    status.dataset.kind = 'ok';
  }));
  return h('div', { class: 'admin-export' }, btn, status);
}
