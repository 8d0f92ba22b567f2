// Connect: a guided setup as the original's (SPEC-GAPS "What the original's pages taught").
// The platform is detected; "this device" lists the owner's enabled apps with the store link
// for the platform and "Add subscription", which opens /dl (Telegram's browser cannot open a
// client's custom scheme; /dl can); "another device" shows the subscription link as a QR
// code. The link itself with Copy, unless the owner hides it. The link can be reset (asked
// first; once per 10 minutes, the wait counts down). No subscription (404): an empty state
// with the trial or the plans, not an error.

import { ApiError } from '../../shared/api.js';
import { h } from '../../shared/dom.js';
import { qrSvg } from '../../shared/qr.js';
import { PLATFORMS, copyText, detectPlatform, dlUrl, storeLink } from '../connect-help.js';
import { buttonLabel, colorButton, ownerBlocks } from '../owner.js';

function noSubscription(ctx, view, rerender) {
  // The server refuses a trial over a subscription that is disabled or still has paid days
  // (out of traffic): only none or an expired one is offered it.
  const sub = ctx.me.subscription;
  const trial = ctx.me.user.is_trial_available && (!sub || sub.status === 'expired');
  const takeTrial = async (e) => {
    const btn = e.currentTarget;
    btn.disabled = true;
    try {
      await ctx.api.post('/trial');
      await ctx.reloadMe();
      ctx.success(ctx.t('connect.trial.done'));
      await rerender();
    } catch (err) {
      ctx.fail(err);
      btn.disabled = false;
    }
  };
  view.replaceChildren(...[h('div', { class: 'empty connect-empty' },
    h('p', {}, ctx.t(trial ? 'connect.none.trial' : 'connect.none.text')),
    h('div', { class: 'btn-row' },
      trial ? colorButton(ctx, 'trial', h('button', { class: 'btn btn-primary', type: 'button', onclick: takeTrial }, buttonLabel(ctx, 'trial', 'connect.none.take_trial'))) : null,
      h('a', { class: trial ? 'btn' : 'btn btn-primary', href: '#/plans' }, ctx.t('connect.none.plans')))),
  ownerBlocks(ctx, 'connect')].filter(Boolean));
}

function appCard(ctx, app, platform, first) {
  const store = storeLink(app, platform);
  const open = (url) => (ev) => { ev.preventDefault(); ctx.tg.openLink(url); };
  return h('li', { class: 'card app-card' + (first ? ' app-card-first' : '') },
    h('div', { class: 'app-head' },
      h('h3', { class: 'card-title app-name' }, app.label),
      first ? h('span', { class: 'badge badge-recommended' }, ctx.t('connect.app.recommended')) : null),
    h('ol', { class: 'app-steps' },
      h('li', {}, ctx.t('connect.step.install', { app: app.label })),
      h('li', {}, ctx.t('connect.step.add')),
      h('li', {}, ctx.t('connect.step.on'))),
    h('div', { class: 'btn-row' },
      store ? h('a', { class: 'btn', href: store, target: '_blank', rel: 'noopener', onclick: open(store) }, ctx.t('connect.app.install', { app: app.label })) : null,
      app.deep_link ? h('button', {
        class: 'btn btn-primary', type: 'button', 'aria-label': ctx.t('connect.app.add_to', { app: app.label }),
        onclick: () => ctx.tg.openLink(dlUrl(app.deep_link)),
      }, ctx.t('connect.app.add')) : null));
}

function thisDevice(ctx, st) {
  const select = h('select', { class: 'input', id: 'connect-platform' },
    PLATFORMS.map((p) => h('option', { value: p, selected: p === st.platform }, ctx.t('connect.platform.' + p))));
  select.addEventListener('change', () => { st.platform = select.value; st.paint(); document.getElementById('connect-platform').focus(); });
  const apps = st.conn.apps || [];
  return [
    h('div', { class: 'field connect-platform' },
      h('label', { for: 'connect-platform' }, ctx.t('connect.platform')), select),
    apps.length
      ? h('ul', { class: 'app-list', 'aria-label': ctx.t('connect.apps') }, apps.map((a, i) => appCard(ctx, a, st.platform, i === 0)))
      : h('div', { class: 'empty' }, h('p', {}, ctx.t('connect.apps.none'))),
  ];
}

function otherDevice(ctx, st) {
  const url = st.conn.subscription_url;
  if (!url || st.conn.hide_link) {
    return h('div', { class: 'card connect-other' }, h('p', {}, ctx.t('connect.other.hidden')));
  }
  return h('figure', { class: 'card qr-box' },
    qrSvg(url, { label: ctx.t('connect.qr.label') }),
    h('figcaption', { class: 'muted' }, ctx.t('connect.other.scan')));
}

function linkCard(ctx, st) {
  const url = st.conn.subscription_url;
  if (!url || st.conn.hide_link) return null;
  const input = h('input', { class: 'input link-input', id: 'connect-link', type: 'text', readonly: true, value: url, spellcheck: 'false' });
  const copy = h('button', { class: 'btn', type: 'button' }, ctx.t('action.copy'));
  copy.addEventListener('click', async () => {
    if (await copyText(url, input)) {
      ctx.success(ctx.t('action.copied'));
      copy.textContent = ctx.t('action.copied');
      setTimeout(() => { copy.textContent = ctx.t('action.copy'); }, 2000);
    } else {
      input.focus();
      input.select();
      ctx.toast(ctx.t('connect.link.copy_failed'));
    }
  });
  return h('article', { class: 'card connect-link' },
    h('div', { class: 'field' },
      h('label', { for: 'connect-link' }, ctx.t('connect.link')),
      h('div', { class: 'link-row' }, input, copy)),
    h('p', { class: 'muted' }, ctx.t('connect.link.hint')));
}

function resetCard(ctx, st) {
  const status = h('p', { class: 'reset-status', role: 'status' });
  const button = h('button', { class: 'btn btn-danger', type: 'button' }, ctx.t('connect.reset'));
  const area = h('div', { class: 'reset-area' }, button);

  const showWait = () => {
    const left = Math.ceil((st.waitUntil - Date.now()) / 1000);
    if (left <= 0) {
      clearInterval(st.timer); st.timer = null; st.waitUntil = 0;
      status.textContent = '';
      button.disabled = false;
      return;
    }
    button.disabled = true;
    status.textContent = ctx.t('connect.reset.wait', { time: ctx.fmt.duration(left) });
  };
  const startWait = (seconds) => {
    st.waitUntil = Date.now() + seconds * 1000;
    clearInterval(st.timer);
    st.timer = setInterval(showWait, 1000);
    showWait();
  };

  const reset = async (yes, no) => {
    yes.disabled = true; no.disabled = true;
    try {
      const r = await ctx.api.post('/subscription/reset-devices');
      st.conn = {
        ...st.conn,
        subscription_url: r.subscription_url,
        deep_links: r.deep_links || st.conn.deep_links,
        apps: (st.conn.apps || []).map((a) => ({ ...a, deep_link: (r.deep_links && r.deep_links[a.key]) || a.deep_link })),
      };
      ctx.success(ctx.t('connect.reset.done'));
      st.paint();
      const link = document.getElementById('connect-link');
      if (link) link.focus();
    } catch (e) {
      area.replaceChildren(button);
      if (e instanceof ApiError && e.status === 429) {
        ctx.tg.haptic('warning');
        startWait(e.retryAfter || 600);
      } else {
        ctx.fail(e);
      }
      button.focus();
    }
  };

  button.addEventListener('click', () => {
    const yes = h('button', { class: 'btn btn-danger', type: 'button' }, ctx.t('connect.reset.yes'));
    const no = h('button', { class: 'btn btn-ghost', type: 'button' }, ctx.t('action.cancel'));
    yes.addEventListener('click', () => reset(yes, no));
    no.addEventListener('click', () => { area.replaceChildren(button); button.focus(); });
    area.replaceChildren(h('div', { class: 'reset-confirm', role: 'group', 'aria-labelledby': 'reset-ask' },
      h('p', { id: 'reset-ask' }, ctx.t('connect.reset.ask')), h('div', { class: 'btn-row' }, yes, no)));
    yes.focus();
  });
  if (st.waitUntil > Date.now()) { st.timer = setInterval(showWait, 1000); showWait(); }

  return h('article', { class: 'card connect-reset', 'aria-labelledby': 'reset-title' },
    h('h2', { class: 'card-title', id: 'reset-title' }, ctx.t('connect.reset.title')),
    h('p', { class: 'muted' }, ctx.t('connect.reset.text')),
    area, status);
}

function modeSwitch(ctx, st) {
  const radio = (value, label) => {
    const id = 'connect-mode-' + value;
    const input = h('input', { type: 'radio', name: 'connect-mode', id, value, checked: st.mode === value });
    input.addEventListener('change', () => { st.mode = value; st.paintPanel(); });
    return h('div', { class: 'segment' }, input, h('label', { for: id }, label));
  };
  return h('fieldset', { class: 'segments connect-mode' },
    h('legend', { class: 'segments-legend' }, ctx.t('connect.mode')),
    radio('this', ctx.t('connect.mode.this')),
    radio('other', ctx.t('connect.mode.other')));
}

export default {
  title: 'connect.title',
  tab: 'connect',

  async render(view, ctx) {
    const st = { conn: null, mode: 'this', platform: detectPlatform(ctx.tg.platform) || 'android', waitUntil: 0, timer: null };
    const load = async () => {
      view.replaceChildren(h('div', { class: 'skeleton skeleton-card' }), h('div', { class: 'skeleton skeleton-line' }));
      try {
        st.conn = await ctx.api.get('/connection');
      } catch (e) {
        if (e instanceof ApiError && e.status === 404) return noSubscription(ctx, view, load);
        return ctx.fail(e, { inline: view });
      }
      st.paint();
    };
    const panel = h('div', { class: 'connect-panel' });
    // Telegram's Main button adds the subscription to the recommended app on this device.
    st.paintPanel = () => {
      panel.replaceChildren(...[st.mode === 'this' ? thisDevice(ctx, st) : otherDevice(ctx, st)].flat());
      const app = st.mode === 'this' && (st.conn.apps || []).find((a) => a.deep_link);
      if (app) ctx.tg.mainButton.show({ text: ctx.t('connect.app.add_to', { app: app.label }), onClick: () => ctx.tg.openLink(dlUrl(app.deep_link)) });
      else ctx.tg.mainButton.hide();
    };
    st.paint = () => {
      clearInterval(st.timer); st.timer = null;
      st.paintPanel();
      view.replaceChildren(
        h('p', { class: 'connect-until muted' }, ctx.t('connect.until', { date: ctx.fmt.date(st.conn.expires_at) })),
        ...[modeSwitch(ctx, st), panel, linkCard(ctx, st), resetCard(ctx, st), ownerBlocks(ctx, 'connect')].filter(Boolean));
    };
    await load();
    return () => clearInterval(st.timer);
  },
};
