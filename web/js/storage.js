// What the browser keeps between visits (local storage): the guest identity (its token is the
// guest's secret), the language, and the tables this browser has been at (for their replays).

/** @typedef {{id: string, name: string, token: string, username?: string}} Identity  `username`: signed in with an account (the token is a session). */
/** @typedef {{id: string, name: string, game: string, at: number}} SeenTable */

const KEY_GUEST = 'yezi.guest';
const KEY_LANG = 'yezi.lang';
const KEY_TABLES = 'yezi.tables';

/** @param {string} key @returns {unknown} */
function read(key) {
  try {
    const s = localStorage.getItem(key);
    return s ? JSON.parse(s) : null;
  } catch {
    return null;
  }
}

/** @param {string} key @param {unknown} value */
function write(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Private browsing or full storage: the page still works for this visit.
  }
}

/** @returns {Identity | null} */
export function loadIdentity() {
  const v = /** @type {any} */ (read(KEY_GUEST));
  if (v && typeof v.id === 'string' && typeof v.name === 'string' && typeof v.token === 'string') return v;
  return null;
}

/** @param {Identity | null} id */
export function saveIdentity(id) {
  write(KEY_GUEST, id);
}

/** @returns {'en' | 'zh' | null} */
export function loadLang() {
  const v = read(KEY_LANG);
  return v === 'en' || v === 'zh' ? v : null;
}

/** @param {'en' | 'zh'} lang */
export function saveLang(lang) {
  write(KEY_LANG, lang);
}

/** @returns {SeenTable[]} */
export function seenTables() {
  const v = read(KEY_TABLES);
  return Array.isArray(v) ? v.filter((t) => t && typeof t.id === 'string') : [];
}

/** Remembers a table this browser was at (the 30 most recent). @param {SeenTable} t */
export function rememberTable(t) {
  const list = [t, ...seenTables().filter((x) => x.id !== t.id)].slice(0, 30);
  write(KEY_TABLES, list);
}

/** How many finished hands' scorings a tab keeps for a table (the newest). */
const ENDS_KEEP = 100;

/** @param {string} table @param {number | null} seat */
function endsKey(table, seat) {
  return `yezi.ends.${table}.${seat === null ? 'watch' : seat}`;
}

/**
 * The final views of a table's finished hands this tab has seen (session storage: kept through a
 * reload, gone with the tab), by hand; `{}` when none.
 * @param {string} table @param {number | null} seat the seat they were seen from (null: watching)
 * @returns {Record<number, any>}
 */
export function loadEnds(table, seat) {
  try {
    const s = typeof sessionStorage === 'undefined' ? null : sessionStorage.getItem(endsKey(table, seat));
    const v = s ? JSON.parse(s) : null;
    return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

/**
 * Keeps the final views of a table's finished hands for this tab (the newest ENDS_KEEP).
 * @param {string} table @param {number | null} seat @param {Record<number, unknown>} ends
 */
export function saveEnds(table, seat, ends) {
  const hands = Object.keys(ends).map(Number).sort((a, b) => a - b).slice(-ENDS_KEEP);
  /** @type {Record<number, unknown>} */
  const kept = {};
  for (const h of hands) kept[h] = ends[h];
  try {
    sessionStorage.setItem(endsKey(table, seat), JSON.stringify(kept));
  } catch {
    // Full or unavailable storage: the scorings stay in the page until it is left.
  }
}
