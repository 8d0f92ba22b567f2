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

// A table, fetched once (asked again after a failure); part '.first': the mini-app's first
// screen's strings only (firstTranslator).
export function loadTable(lang, part = '') {
  if (!LANGUAGES.includes(lang)) lang = 'en';
  const name = lang + part;
  if (!tables.has(name)) {
    const url = new URL(`./i18n/${name}.json`, import.meta.url);
    const table = fetch(url).then((r) => {
      if (!r.ok) throw new Error(`i18n ${name}: ${r.status}`);
      return r.json();
    });
    table.catch(() => tables.delete(name));
    tables.set(name, table);
  }
  return tables.get(name);
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

// The mini-app's first screen starts with <lang>.first.json, the few strings it can show
// (tools/i18n-first copies them from the whole table); t.whole() loads the whole table
// into the same translator (the page calls it once home is shown, and before any other
// screen), so a screen never shows a key for a string still on its way.
export async function firstTranslator(lang) {
  const rest = {};
  const t = makeT(lang, await loadTable(lang, '.first'), rest);
  let whole = null;
  t.whole = () => {
    whole = whole || loadTable(lang).then((table) => { Object.assign(rest, table); return t; });
    whole.catch(() => { whole = null; });
    return whole;
  };
  return t;
}
