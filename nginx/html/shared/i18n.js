// Translations: one JSON table per language (shared/i18n/<lang>.json), flat keys such as
// "home.title". A value is a string with {name} placeholders, or an object of plural
// forms chosen by Intl.PluralRules ({"one": "{n} day", "few": "{n} дня", ...}).
// The server's language rule (SPEC-GAPS: "en" when language_code starts with en, else
// "ru") is followed here too, so the table can be fetched before /me answers.

export const LANGUAGES = ['en', 'ru'];

export function pickLanguage(code) {
  return String(code || '').toLowerCase().startsWith('en') ? 'en' : 'ru';
}

const tables = new Map();

export function loadTable(lang) {
  if (!LANGUAGES.includes(lang)) lang = 'en';
  if (!tables.has(lang)) {
    const url = new URL(`./i18n/${lang}.json`, import.meta.url);
    tables.set(lang, fetch(url).then((r) => {
      if (!r.ok) throw new Error(`i18n ${lang}: ${r.status}`);
      return r.json();
    }));
  }
  return tables.get(lang);
}

// A translator for one language: t(key, params). A missing key shows the key itself (and
// the tests fail on it), never an empty string.
export function makeT(lang, table, fallback = {}) {
  const locale = lang === 'ru' ? 'ru-RU' : 'en-GB';
  const plural = new Intl.PluralRules(locale);
  const t = (key, params = {}) => {
    let v = table[key] ?? fallback[key];
    if (v === undefined) {
      console.warn(`i18n: missing ${lang} string "${key}"`);
      return key;
    }
    if (typeof v === 'object') v = v[plural.select(Number(params.n ?? 0))] ?? v.other;
    return v.replace(/\{(\w+)\}/g, (m, name) => (params[name] !== undefined ? String(params[name]) : m));
  };
  t.lang = lang;
  t.locale = locale;
  t.has = (key) => key in table || key in fallback;
  return t;
}

// Only the user's own table is loaded (every key is in both; a missing one shows as its
// key and the browser tests fail on it), so a Russian first screen carries no English.
export async function translator(lang) {
  return makeT(lang, await loadTable(lang));
}
