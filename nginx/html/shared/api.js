// The cabinet API client: one base URL, one credential header, one error type.
//
//   const api = createApi({ base, credential: () => 'tma …' | 'Bearer …' | null });
//   await api.get('/me'); await api.post('/purchase', body, { idempotencyKey });
//
// Every non-2xx answer becomes an ApiError carrying the server's {detail} text, its status
// and, for 429/503, the Retry-After seconds; a network failure is an ApiError with status 0
// (the page shows "offline, retry"). A custom `transport` (the demo data) replaces fetch.

export class ApiError extends Error {
  constructor(status, detail, { retryAfter = null, body = null, code = null } = {}) {
    super(detail);
    this.name = 'ApiError';
    this.status = status;
    this.detail = detail;
    this.retryAfter = retryAfter;
    this.body = body;
    // The reason's stable name (errors.hpp); the pages say it in the user's language.
    this.code = code || (body && typeof body.code === 'string' ? body.code : null);
  }
  get offline() { return this.status === 0; }
}

// window.__CABINET_API_BASE__ (set in the page's config.js) points the client at an API on
// another origin; by default it is this origin.
export function apiBase(win = window) {
  const b = win.__CABINET_API_BASE__;
  return (typeof b === 'string' && /^https?:\/\//.test(b) ? b.replace(/\/+$/, '') : '') + '/api/cabinet';
}

function newKey() {
  return crypto.randomUUID ? crypto.randomUUID()
    : Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

// The answer the mini-app's page already asked for (GET /config and /me at page start: the
// inline script of app/index.html), once, when it was asked with this base URL and
// credential; else null.
function takeEarly(base, credential, path, win = globalThis) {
  const early = win.__cabinetEarly;
  if (!early || early.base !== base || early.credential !== credential || !early.answers[path]) return null;
  const answer = early.answers[path];
  delete early.answers[path];
  return answer;
}

async function fetchTransport(base, method, path, body, headers, early = null) {
  let res = early && await early;   // null when the early request failed: ask again
  try {
    res = res || await fetch(base + path, {
      method,
      headers: body === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      cache: 'no-store',
    });
  } catch {
    throw new ApiError(0, null);
  }
  let data = null;
  const text = await res.text();
  if (text) {
    try { data = JSON.parse(text); } catch { data = null; }
  }
  if (!res.ok) {
    const ra = Number(res.headers.get('Retry-After'));
    throw new ApiError(res.status, data && typeof data.detail === 'string' ? data.detail : null, {
      retryAfter: Number.isFinite(ra) && ra > 0 ? ra : null,
      body: data,
    });
  }
  return data;
}

export function createApi({ base = apiBase(), credential = () => null, transport = null, onError = null } = {}) {
  const call = async (method, path, body, opts = {}) => {
    const headers = {};
    const c = credential();
    if (c) headers.Authorization = c;
    if (opts.idempotencyKey) headers['Idempotency-Key'] = opts.idempotencyKey;
    try {
      return transport
        ? await transport(method, path, body)
        : await fetchTransport(base, method, path, body, headers, method === 'GET' ? takeEarly(base, c, path) : null);
    } catch (e) {
      if (e instanceof ApiError && onError) onError(e);
      throw e;
    }
  };
  return {
    get: (path) => call('GET', path),
    post: (path, body = {}, opts) => call('POST', path, body, opts),
    put: (path, body = {}, opts) => call('PUT', path, body, opts),
    del: (path) => call('DELETE', path),
    newKey,
  };
}
