// Money the owner types, in currency units ("199.90", "1 299,5", "300"), to the minor units
// the API stores, and back, by string arithmetic only: the digits are moved, never
// multiplied through a float (0.1 + 0.2 stays a problem of other programs).

// The currency's minor digits as Intl knows them (RUB, USD: 2; JPY: 0); 2 when unknown.
export function currencyDigits(currency) {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits;
  } catch {
    return 2;
  }
}

const MAX_DIGITS = 15;   // every integer of 15 digits is exact in a JS number

// "199.90" → 19990 (digits = 2). Spaces (also non-breaking) and apostrophes group thousands;
// "." or "," is the decimal mark. null when the text is not a plain non-negative amount
// with at most `digits` decimals (no sign, no exponent, no second mark, not empty).
export function parseMoney(text, digits = 2) {
  const s = String(text ?? '').trim().replace(/[\s\u00a0\u202f']/g, '');
  const m = s.match(/^(\d*)(?:[.,](\d*))?$/);
  if (!m || (m[1] === '' && (m[2] || '') === '')) return null;
  const whole = m[1];
  const frac = m[2] || '';
  if (frac.length > digits) return null;
  const all = (whole + frac.padEnd(digits, '0')).replace(/^0+(?=\d)/, '');
  if (all.length > MAX_DIGITS) return null;
  return Number(all);   // an integer's own digits: exact, no arithmetic on fractions
}

// 19990 → "199.90" (digits = 2); 30000 → "300.00"; what an input shows for a stored price.
export function formatMinor(minor, digits = 2) {
  const n = Number(minor);
  if (!Number.isSafeInteger(n)) return '';
  const s = String(Math.abs(n)).padStart(digits + 1, '0');
  const text = digits > 0 ? s.slice(0, -digits) + '.' + s.slice(-digits) : s;
  return (n < 0 ? '-' : '') + text;
}
