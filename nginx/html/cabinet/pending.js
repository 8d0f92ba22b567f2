// The web cabinet's online payment in flight, kept in sessionStorage (this tab only) so the
// page knows what to wait for when the buyer comes back from the gateway's page, whatever
// the gateway appends to the return URL (`WEB_CABINET_URL/?payment=<transaction id>`).
//
//   { id: transaction id, kind: 'gateway'|'stars', url: payment page or invoice link,
//     before: the subscription's expiry before paying (null: none), away: true while the
//     tab went to the gateway's page, at: ms when it was opened }

const KEY = 'cabinet.payment';
const MAX_AGE_MS = 24 * 3600 * 1000;   // an unpaid invoice ends long before (PAYMENT_PENDING_TTL_S)

export function readPending() {
  try {
    const p = JSON.parse(sessionStorage.getItem(KEY) || 'null');
    if (!p || !Number.isSafeInteger(p.id) || p.id <= 0 || !(Date.now() - Number(p.at) < MAX_AGE_MS)) return null;
    return p;
  } catch {
    return null;
  }
}

export function savePending(p) {
  sessionStorage.setItem(KEY, JSON.stringify({ at: Date.now(), ...p }));
}

export function clearPending() {
  sessionStorage.removeItem(KEY);
}

// `?payment=<id>` of the return URL: the id as a number, else null.
export function paymentParam(search = location.search) {
  const v = new URLSearchParams(search).get('payment');
  return v && /^\d{1,18}$/.test(v) && Number.isSafeInteger(Number(v)) ? Number(v) : null;
}
