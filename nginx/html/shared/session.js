// The web cabinet's session (SPEC-GAPS "Auth and sessions"): the access token lives in
// memory only (the tabs hand it to each other); the refresh token is kept in localStorage under one key so a reload (or a
// second tab) stays signed in (docs/decisions.md, "Web cabinet session"). Tokens are
// rotated shortly before the access token ends and on a 401; one refresh is in flight
// across all tabs (Web Locks), and the tab holding the lock re-reads the stored token, so
// a tab that waited takes the other tab's new tokens instead of reusing a spent one. New
// tokens and logout are told to the other tabs (BroadcastChannel). A refused refresh logs
// out everywhere.
//
//   const session = createSession({ base });
//   session.adopt(answer)   // the session object of /login, /verify, /telegram/poll, …
//   await session.restore() // true when signed in (after a reload); null: the API could
//                           // not be reached (the stored session is kept)
//   session.credential()    // 'Bearer …' or null, for createApi
//   await session.refresh() // rotate now (single flight)
//   await session.logout()
//   session.onChange(fn)    // fn(signedIn) on sign-in, rotation elsewhere, logout

const KEY = 'cabinet.session';
const LOCK = 'cabinet-refresh';
const EARLY_S = 60;   // rotate this long before the access token ends
// How long a tab waits for the access token of a rotation another tab made, before it
// rotates itself (a second rotation is harmless but wasted).
const PEER_TOKEN_WAIT_MS = 2000;
// How long a tab that waited for the lock gives the tab before it to be heard from, when
// storage still shows the token this tab knows. Chromium hands a localStorage write to the
// other tabs' processes asynchronously, apart from the lock's release, so the tab before
// may have rotated although storage here does not show it yet (seen on a busy CI: both
// tabs rotated within a second).
const AFTER_LOCK_WAIT_MS = 1000;

function readStored() {
  try { return JSON.parse(localStorage.getItem(KEY) || 'null'); } catch { return null; }
}

export function createSession({ base = '/api/cabinet', fetchImpl = (...a) => fetch(...a) } = {}) {
  let access = null;      // {token, exp (ms)}
  let user = null;
  let timer = null;
  let inflight = null;
  let mine = null;        // the refresh token that goes with `access` (ours or another tab's)
  const listeners = new Set();
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel('cabinet-session') : null;

  const notify = () => { for (const fn of listeners) { try { fn(Boolean(access)); } catch (e) { console.error(e); } } };

  function schedule() {
    clearTimeout(timer);
    if (!access) return;
    const wait = Math.max(1000, access.exp - Date.now() - EARLY_S * 1000);
    timer = setTimeout(() => { refresh().catch(() => {}); }, wait);
  }

  // A session answer: {access_token, refresh_token, expires_in, user}.
  function take(s, { store = true, broadcast = true } = {}) {
    access = { token: s.access_token, exp: Date.now() + (Number(s.expires_in) || 900) * 1000 };
    if (s.user) user = s.user;
    mine = s.refresh_token;
    if (store) localStorage.setItem(KEY, JSON.stringify({ refresh: s.refresh_token, user }));
    // The access token goes to the other tabs' memory, never to storage. The refresh token
    // goes along because storage may reach them later than this message.
    if (broadcast && channel) {
      channel.postMessage({ type: 'tokens', access: access.token, exp: access.exp, refresh: s.refresh_token, user });
    }
    schedule();
  }

  function clear({ broadcast = true } = {}) {
    const had = Boolean(access) || Boolean(readStored());
    access = null;
    user = null;
    mine = null;
    clearTimeout(timer);
    localStorage.removeItem(KEY);
    // Signing out forgets the mini-app's kept home too (app/home-copy.js): the same origin,
    // when the mini-app runs in a browser (Telegram Web) where the web cabinet is used.
    localStorage.removeItem('cabinet.home');
    if (broadcast && channel) channel.postMessage({ type: 'logout' });
    if (had) notify();
  }

  // Another tab's new tokens (its refresh token is in storage already).
  function fromTab(m) {
    if (!m.access) return false;
    access = { token: m.access, exp: m.exp };
    mine = m.refresh || (readStored() || {}).refresh;
    user = m.user || user;
    schedule();
    return true;
  }

  const fresh = () => Boolean(access) && access.exp - Date.now() > EARLY_S * 1000;
  let waiters = [];
  if (channel) {
    channel.onmessage = (e) => {
      if (!e.data) return;
      if (e.data.type === 'tokens') { if (fromTab(e.data)) notify(); const w = waiters; waiters = []; w.forEach((f) => f()); }
      if (e.data.type === 'logout') clear({ broadcast: false });
    };
  }
  window.addEventListener('storage', (e) => { if (e.key === KEY && !e.newValue && access) clear({ broadcast: false }); });

  async function post(path, body) {
    const res = await fetchImpl(base + path, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
      credentials: 'same-origin', cache: 'no-store',
    });
    let data = null;
    try { data = await res.json(); } catch { data = null; }
    return { status: res.status, data };
  }

  // `waited`: this tab found the lock taken, so the tab before it has just rotated (or tried).
  async function rotate(seen, waited = false) {
    const st = readStored();
    if (!st || !st.refresh) { clear(); return false; }
    // Another tab rotated: storage or its broadcast (which carries the refresh token too)
    // shows a token other than the one this tab's credential came with.
    const elsewhere = () => seen !== undefined && ((readStored() || {}).refresh !== seen || (mine && mine !== seen));
    const hear = (ms) => new Promise((resolve) => { waiters.push(resolve); setTimeout(resolve, ms); });
    // Its access token comes on the channel, posted before it released the lock but
    // delivered on its own schedule.
    if (elsewhere() && !fresh()) await hear(PEER_TOKEN_WAIT_MS);
    else if (waited && seen !== undefined && !fresh()) await hear(AFTER_LOCK_WAIT_MS);
    if (elsewhere() && fresh()) return true;
    const token = mine && mine !== seen ? mine : (readStored() || st).refresh;
    let r;
    try { r = await post('/auth/refresh', { refresh_token: token }); } catch { return null; }
    if (r.status === 200 && r.data && r.data.access_token) { take(r.data); return true; }
    if (r.status === 401 || r.status === 400 || r.status === 403) { clear(); return false; }
    return null;   // an outage: keep the session, try again later (null, not false)
  }

  // `seen` is the refresh token the caller's credential came with. It is the tab's own
  // (`mine`), not what storage holds now: a tab whose timer fires just after another tab
  // stored its new tokens, but before their broadcast arrived, must still see that
  // rotation as someone else's and wait for its access token rather than rotate again.
  function refresh(seen = mine || (readStored() || {}).refresh) {
    if (inflight) return inflight;
    const locks = navigator.locks;
    // The lock if it is free; otherwise wait for it, knowing another tab went first.
    const run = () => (locks
      ? locks.request(LOCK, { ifAvailable: true }, (lock) => (lock ? rotate(seen) : locks.request(LOCK, () => rotate(seen, true))))
      : rotate(seen));
    inflight = run().finally(() => { inflight = null; });
    return inflight;
  }

  return {
    adopt(s) { take(s); notify(); },
    async restore() {
      const st = readStored();
      if (!st || !st.refresh) return false;
      if (st.user) user = st.user;
      return refresh(st.refresh);
    },
    credential: () => (access ? 'Bearer ' + access.token : null),
    get user() { return user; },
    get signedIn() { return Boolean(access); },
    get expiresAt() { return access ? access.exp : 0; },
    refresh: () => refresh(),
    async logout() {
      const st = readStored();
      if (st && st.refresh) { try { await post('/auth/logout', { refresh_token: st.refresh }); } catch { /* offline: forget anyway */ } }
      clear();
    },
    onChange(fn) { listeners.add(fn); return () => listeners.delete(fn); },
  };
}
