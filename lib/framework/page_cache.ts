/**
 * The page cache: a page's server-rendered HTML kept as a template, so that a request which would
 * render the same HTML again costs a lookup and a string join instead of a render.
 *
 * A route asks for it with `ctx.renderCached({ key, data, slots })` (see `context.ts`):
 *
 * - The cache key is the route file, the request's full URL (path and query: layouts render
 *   links from them), whether the response has a CSP nonce, and the route's own `key`, which must
 *   name every other input that changes the HTML (language, flags, mode…). Requests with equal
 *   keys get the same HTML but for the slots.
 * - Slots are what differs per response: the CSP nonce (always, handled here) and what the route
 *   declares (e.g. a per-visit signing key). On a miss the page renders once with unguessable
 *   markers in place of the slot values ({@link Slots}); the HTML is cut at the markers, and every
 *   response joins the pieces with its own values. A value must be made of characters that need no
 *   escaping anywhere in HTML or JSON (letters, digits, `. _ : + / = -`), and is refused otherwise.
 * - Bounded: at most `maxEntries` templates (128) and `maxBytes` of pages and keys together (4 MB),
 *   least recently used dropped first; a key longer than `maxKeyLength` (2,048 characters) or a
 *   page larger than `maxBytes` is not cached (the page is rendered as usual). A query string is
 *   part of the key, so any visitor can add entries: the bounds, not the traffic, set what the
 *   cache may hold. Loading another client build empties the cache, since pages carry the build's
 *   file names.
 * - Only a 200 answer to GET or HEAD is cached; anything else renders as usual.
 *
 * The cache never sees a response's slot values: templates hold markers only.
 *
 * @module
 */
import { currentBuild, type LoadedBuild } from "./assets.ts";

/** Characters a slot value may contain: nothing HTML or JSON would escape. */
const SAFE_VALUE = /^[A-Za-z0-9._:+/=-]*$/;
/** A slot's name. */
const SLOT_NAME = /^[A-Za-z][A-Za-z0-9]*$/;
const encoder = new TextEncoder();

/** The slot the framework fills with the response's CSP nonce. */
export const NONCE_SLOT = "nonce";

/**
 * Makes the stand-ins a page renders where per-response values go, on a miss. On a request that
 * is not cached, the same functions answer the real values instead.
 */
export interface Slots {
  /** A text slot. */
  text(name: string): string;
  /** A number slot (an integer, written in digits by the page, e.g. inside JSON). */
  number(name: string): number;
}

/**
 * A page cut at its slots: `parts[0] + value(names[0]) + parts[1] + … + parts[n]`, the parts
 * UTF-8 encoded once (encoding the whole page again for every response would cost more than
 * joining it).
 */
export interface PageTemplate {
  parts: Uint8Array[];
  names: string[];
  /** Bytes of the parts together. */
  size: number;
}

/** What an entry costs the cache's byte bound: the page's bytes, and the key's (two a character). */
const entryBytes = (key: string, template: PageTemplate) => template.size + 2 * key.length;

/** Options of {@link PageCache}. */
export interface PageCacheOptions {
  /** Templates kept (default 128). */
  maxEntries?: number;
  /**
   * Bytes kept, the pages' UTF-8 parts and the keys (two bytes a character) together (default
   * 4 MB: a page's template is 10 to 20 KB, so 128 entries of the five languages' pages and their
   * variants fit; long query strings fill it first).
   */
  maxBytes?: number;
  /** Longest key cached (default 2048 characters). */
  maxKeyLength?: number;
}

/**
 * A bounded LRU of page templates with per-response slots.
 *
 * @example
 * ```ts
 * const cache = new PageCache({ maxEntries: 64 });
 * const html = `<p data-k="${cache.slots.text("key")}">`;
 * const template = cache.cut(html, ["key"]);
 * new TextDecoder().decode(cache.fill(template, { key: "abc" })); // '<p data-k="abc">'
 * ```
 */
export class PageCache {
  readonly maxEntries: number;
  readonly maxBytes: number;
  readonly maxKeyLength: number;
  #entries = new Map<string, PageTemplate>();
  #bytes = 0;
  #build: LoadedBuild | null = null;
  #token = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0"))
    .join("");
  #markers = new Map<string, { text: string; number: number }>();
  #hits = 0;
  #misses = 0;

  constructor(options: PageCacheOptions = {}) {
    this.maxEntries = options.maxEntries ?? 128;
    this.maxBytes = options.maxBytes ?? 4 * 1024 * 1024;
    this.maxKeyLength = options.maxKeyLength ?? 2048;
  }

  /** The markers a page renders on a miss. */
  readonly slots: Slots = {
    text: (name) => this.#marker(name).text,
    number: (name) => this.#marker(name).number,
  };

  /** How many templates are held, their bytes with their keys', and how requests fared. */
  get stats(): { size: number; bytes: number; hits: number; misses: number } {
    return { size: this.#entries.size, bytes: this.#bytes, hits: this.#hits, misses: this.#misses };
  }

  /** The template of a key, or `undefined` (counted as a miss). */
  get(key: string): PageTemplate | undefined {
    this.#checkBuild();
    const found = this.#entries.get(key);
    if (!found) {
      this.#misses++;
      return undefined;
    }
    this.#hits++;
    // Most recently used last.
    this.#entries.delete(key);
    this.#entries.set(key, found);
    return found;
  }

  /**
   * Keeps a template, dropping the least recently used ones beyond `maxEntries` or `maxBytes`; a
   * template larger than `maxBytes` by itself is not kept.
   */
  set(key: string, template: PageTemplate): void {
    this.#checkBuild();
    this.#drop(key);
    const bytes = entryBytes(key, template);
    if (bytes > this.maxBytes) return;
    this.#entries.set(key, template);
    this.#bytes += bytes;
    while (this.#entries.size > this.maxEntries || this.#bytes > this.maxBytes) {
      this.#drop(this.#entries.keys().next().value!);
    }
  }

  /** Drops every template. */
  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }

  #drop(key: string): void {
    const template = this.#entries.get(key);
    if (!template) return;
    this.#entries.delete(key);
    this.#bytes -= entryBytes(key, template);
  }

  /**
   * Cuts HTML rendered with this cache's markers at every slot. Each slot in `required` must appear
   * (a page that transforms a value, e.g. formats the number, cannot be filled in later); the nonce
   * slot may be absent (a page without islands has no script).
   */
  cut(html: string, required: string[]): PageTemplate {
    const byMarker = new Map<string, string>();
    const alternatives: string[] = [];
    for (const [name, { text, number }] of this.#markers) {
      byMarker.set(text, name);
      byMarker.set(String(number), name);
      alternatives.push(text, `(?<!\\d)${number}(?!\\d)`);
    }
    const pattern = new RegExp(alternatives.join("|"), "g");
    const parts: string[] = [];
    const names: string[] = [];
    let at = 0;
    if (alternatives.length > 0) {
      for (const m of html.matchAll(pattern)) {
        parts.push(html.slice(at, m.index));
        names.push(byMarker.get(m[0])!);
        at = m.index + m[0].length;
      }
    }
    parts.push(html.slice(at));
    for (const name of required) {
      if (!names.includes(name)) {
        throw new Error(`page cache: slot "${name}" does not appear verbatim in the rendered page`);
      }
    }
    const encoded = parts.map((part) => encoder.encode(part));
    return { parts: encoded, names, size: encoded.reduce((n, part) => n + part.length, 0) };
  }

  /**
   * Joins a template's parts with this response's values: the page's UTF-8 bytes. A value is
   * copied character by character: it is ASCII (checked), and an encoder call per slot cost more
   * than the copy (`bench/README.md`, request pipeline).
   */
  fill(template: PageTemplate, values: Record<string, string>): Uint8Array<ArrayBuffer> {
    const { parts, names } = template;
    let size = template.size;
    for (const name of names) {
      const value = values[name];
      if (value === undefined) throw new Error(`page cache: no value for slot "${name}"`);
      if (!SAFE_VALUE.test(value)) {
        throw new Error(`page cache: the value of slot "${name}" has characters that would need escaping`);
      }
      size += value.length; // ASCII: one byte a character
    }
    const out = new Uint8Array(size);
    out.set(parts[0]);
    let at = parts[0].length;
    for (let i = 0; i < names.length; i++) {
      const value = values[names[i]];
      for (let j = 0; j < value.length; j++) out[at + j] = value.charCodeAt(j);
      at += value.length;
      out.set(parts[i + 1], at);
      at += parts[i + 1].length;
    }
    return out;
  }

  #marker(name: string): { text: string; number: number } {
    let marker = this.#markers.get(name);
    if (marker) return marker;
    if (!SLOT_NAME.test(name)) {
      throw new Error(`page cache: "${name}" is not a slot name (letters and digits)`);
    }
    // Text: letters, digits and `_`, which no HTML or JSON writer escapes, with 128 random bits.
    // Number: 16 random digits (below 2^53), matched only where no digit surrounds them.
    marker = {
      text: `slot_${this.#token}_${name}_`,
      number: 1_000_000_000_000_000 + Math.floor(Math.random() * 8_000_000_000_000_000),
    };
    this.#markers.set(name, marker);
    return marker;
  }

  #checkBuild(): void {
    let build: LoadedBuild | null = null;
    try {
      build = currentBuild();
    } catch { /* no client build loaded: pages that use no assets */ }
    if (build !== this.#build) {
      this.clear();
      this.#build = build;
    }
  }
}
