// Numbers people read: money from minor units with the currency's sign, stars, bytes,
// dates and durations, all in the user's locale through Intl.

const moneyFormats = new Map();
function moneyFormat(locale, currency) {
  const key = locale + '|' + currency;
  if (!moneyFormats.has(key)) {
    let f;
    try {
      f = new Intl.NumberFormat(locale, { style: 'currency', currency, currencyDisplay: 'narrowSymbol' });
    } catch {
      f = new Intl.NumberFormat(locale, { style: 'currency', currency: 'RUB', currencyDisplay: 'narrowSymbol' });
    }
    moneyFormats.set(key, f);
  }
  return moneyFormats.get(key);
}

// 19900 RUB -> "199 ₽" (ru) or "RUB 199.00"-style per locale; whole amounts lose ".00".
export function money(minor, currency, locale) {
  if (currency === 'XTR') return stars(minor, locale);
  const f = moneyFormat(locale, currency);
  const digits = f.resolvedOptions().maximumFractionDigits;
  const value = Number(minor) / 10 ** digits;
  if (Number.isInteger(value)) {
    return new Intl.NumberFormat(locale, {
      style: 'currency', currency: f.resolvedOptions().currency, currencyDisplay: 'narrowSymbol',
      minimumFractionDigits: 0, maximumFractionDigits: 0,
    }).format(value);
  }
  return f.format(value);
}

export function stars(n, locale) {
  return '⭐\u00a0' + new Intl.NumberFormat(locale).format(n);
}

export function number(n, locale) {
  return new Intl.NumberFormat(locale).format(n);
}

const GB = 1024 ** 3;
const MB = 1024 ** 2;
// Bytes as GB (one decimal under 10 GB) or MB below one GB, with the units as the
// language writes them (ГБ, МБ in Russian).
export function bytes(n, locale) {
  const v = Number(n) || 0;
  const ru = String(locale).startsWith('ru');
  const nf = (max) => new Intl.NumberFormat(locale, { maximumFractionDigits: max });
  if (v >= GB) return nf(v >= 10 * GB ? 0 : 1).format(v / GB) + (ru ? '\u00a0ГБ' : '\u00a0GB');
  return nf(v >= 10 * MB ? 0 : 1).format(v / MB) + (ru ? '\u00a0МБ' : '\u00a0MB');
}

export function date(iso, locale) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', year: 'numeric' }).format(d);
}

export function dateTime(iso, locale) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(d);
}

// Whole days from now until `iso` (0 once it has passed; a part day counts as a day).
export function daysLeft(iso, now = Date.now()) {
  const ms = new Date(iso).getTime() - now;
  return ms <= 0 ? 0 : Math.ceil(ms / 86400000);
}

// Seconds as "9 min 30 s" / "45 s" (a wait such as a 429's Retry-After).
export function duration(seconds, t) {
  const s = Math.max(0, Math.ceil(seconds));
  const m = Math.floor(s / 60);
  const r = s % 60;
  if (m === 0) return t('unit.seconds', { n: r });
  return r === 0 ? t('unit.minutes', { n: m }) : t('unit.minutes', { n: m }) + ' ' + t('unit.seconds', { n: r });
}

// The formatters a page's screens get as ctx.fmt, bound to the user's locale (t.locale) and
// currency.
export function formatters(t, currency = 'RUB') {
  const locale = t.locale;
  return {
    money: (minor, cur = currency) => money(minor, cur, locale),
    stars: (n) => stars(n, locale),
    number: (n) => number(n, locale),
    bytes: (n) => bytes(n, locale),
    date: (iso) => date(iso, locale),
    dateTime: (iso) => dateTime(iso, locale),
    daysLeft: (iso) => daysLeft(iso),
    duration: (secs) => duration(secs, t),
  };
}
