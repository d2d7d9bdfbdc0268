// The few browser globals the client's modules touch when imported (i18n.js reads the
// language from localStorage and sets <html lang>): enough for `node --test` to import
// the pure modules of majiang/server/static. Import it first.

/** A Storage (localStorage, sessionStorage) kept in memory. */
export class MemoryStorage {
  constructor() {
    this.map = new Map();
  }

  get length() {
    return this.map.size;
  }

  key(i) {
    return [...this.map.keys()][i] ?? null;
  }

  getItem(key) {
    return this.map.has(key) ? this.map.get(key) : null;
  }

  setItem(key, value) {
    this.map.set(key, String(value));
  }

  removeItem(key) {
    this.map.delete(key);
  }

  clear() {
    this.map.clear();
  }
}

globalThis.localStorage ??= new MemoryStorage();
globalThis.sessionStorage ??= new MemoryStorage();
globalThis.document ??= { documentElement: {} };
