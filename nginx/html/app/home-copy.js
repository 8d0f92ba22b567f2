// Home as /me last showed it, kept on the device (localStorage), so that the next opening
// draws home at once and /me brings it up to date in place (issue 51; docs/decisions.md,
// "The mini-app's first screen"). Only what home shows: never the subscription or
// connection link (a credential), a token or the init data. One copy, for one Telegram
// user at one API base: another user, another base or an older shape finds none, and the
// copy that was there is dropped. app/main.js keeps it after every /me and forgets it on a
// 401 or 403; demo mode and a page without init data neither read nor keep one.

const KEY = 'cabinet.home';
const VERSION = 1;   // a new shape of what is kept: raise it, and older copies are dropped

const pick = (o, keys) => (o && typeof o === 'object'
  ? Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]]))
  : null);
const homeOnes = (list) => (Array.isArray(list) ? list.filter((b) => b && (b.screen || 'home') === 'home') : undefined);

// What screens/home.js, owner.js and shared/theme.js paintShop read of /me, and nothing else.
function homeOnly(me) {
  const sub = me.subscription;
  const ui = pick(me.app.ui, ['sections', 'hidden', 'buttons', 'scale', 'blocks', 'buttons_extra']) || {};
  return {
    user: pick(me.user, ['language', 'currency', 'balance_minor', 'is_trial_available']),
    subscription: sub
      ? { ...pick(sub, ['status', 'is_trial', 'plan_name', 'expire_at', 'device_limit']), traffic: pick(sub.traffic, ['used_bytes', 'limit_bytes', 'unlimited']) }
      : null,
    app: {
      ...pick(me.app, ['template', 'title', 'greeting', 'accent_color', 'balance_enabled', 'show_traffic_usage']),
      // Whether the proxy card shows; its link is taken from /me when tapped (screens/home.js).
      mtproto_proxy: Boolean(me.app.mtproto_proxy),
      ui: { ...ui, blocks: homeOnes(ui.blocks), buttons_extra: homeOnes(ui.buttons_extra) },
    },
  };
}

function drop() {
  try { localStorage.removeItem(KEY); } catch { /* storage off: nothing kept */ }
}

// The kept home of Telegram user `userId` at API base `base`, marked `kept: true`, else null.
export function keptHome(userId, base) {
  let copy = null;
  try { copy = JSON.parse(localStorage.getItem(KEY) || 'null'); } catch { /* garbled or off */ }
  if (!copy) return null;
  const me = copy.me;
  if (!userId || copy.v !== VERSION || copy.user !== String(userId) || copy.base !== base
    || !me || !me.user || !me.app || me.subscription === undefined) {
    drop();
    return null;
  }
  const sub = me.subscription;
  // Run out since it was kept: said as the server would, until /me says the rest.
  if (sub && (sub.status === 'active' || sub.status === 'trial') && Date.parse(sub.expire_at) <= Date.now()) sub.status = 'expired';
  return { ...me, kept: true };
}

export function keepHome(userId, base, me) {
  if (!userId) return;
  try {
    localStorage.setItem(KEY, JSON.stringify({ v: VERSION, user: String(userId), base, me: homeOnly(me) }));
  } catch { /* storage off or full: the next opening waits for /me */ }
}

export const forgetHome = drop;
