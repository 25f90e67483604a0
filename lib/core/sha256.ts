/**
 * SHA-256 and HMAC-SHA256 in plain JavaScript, synchronous. The server signs a browser key on
 * every donation page (`signature_check.ts`); `node:crypto` did it synchronously but costs about
 * 40 ms of CPU to load, on top of Node's compatibility layer, at every server start
 * (bench/README.md, cold start), and WebCrypto is asynchronous and slower for such short inputs.
 *
 * An HMAC key's two padded blocks are compressed once and kept ({@link hmacSha256} remembers the
 * last few keys: the app signs with one), so signing a short message is two compressions, not four.
 * Checked against `node:crypto` by `sha256_test.ts`.
 *
 * @module
 */

// The first 32 bits of the fractional parts of the cube roots of the first 64 primes, and of the
// square roots of the first 8 (FIPS 180-4, 4.2.2 and 5.3.3).
const PRIMES: number[] = [];
for (let n = 2; PRIMES.length < 64; n++) if (PRIMES.every((p) => n % p !== 0)) PRIMES.push(n);
const frac32 = (x: number) => Math.floor((x - Math.floor(x)) * 2 ** 32) >>> 0;
const K = Uint32Array.from(PRIMES, (p) => frac32(Math.cbrt(p)));
const H0 = Uint32Array.from(PRIMES.slice(0, 8), (p) => frac32(Math.sqrt(p)));
const W = new Uint32Array(64);
const encoder = new TextEncoder();

/** Compresses the 64-byte blocks of `view` from `offset` to `end` into `state` (FIPS 180-4, 6.2.2). */
function compress(state: Uint32Array, view: DataView, offset: number, end: number): void {
  let h0 = state[0], h1 = state[1], h2 = state[2], h3 = state[3];
  let h4 = state[4], h5 = state[5], h6 = state[6], h7 = state[7];
  for (; offset < end; offset += 64) {
    for (let i = 0; i < 16; i++) W[i] = view.getUint32(offset + i * 4);
    for (let i = 16; i < 64; i++) {
      const x = W[i - 15], y = W[i - 2];
      const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
      const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
      W[i] = (W[i - 16] + s0 + W[i - 7] + s1) | 0;
    }
    let a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, h = h7;
    for (let i = 0; i < 64; i++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const t1 = (h + S1 + ((e & f) ^ (~e & g)) + K[i] + W[i]) | 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
    h5 = (h5 + f) | 0;
    h6 = (h6 + g) | 0;
    h7 = (h7 + h) | 0;
  }
  state[0] = h0, state[1] = h1, state[2] = h2, state[3] = h3;
  state[4] = h4, state[5] = h5, state[6] = h6, state[7] = h7;
}

/**
 * The digest of `data`, continuing from `state` after `prefix` bytes were compressed into it: the
 * data padded (its length counted from the start), compressed, and the state written out. The
 * padding goes in a scratch buffer kept between calls (they are synchronous, so never overlap).
 */
function finish(state: Uint32Array, prefix: number, data: Uint8Array): Uint8Array<ArrayBuffer> {
  load(data);
  finishScratch(state, prefix, data.length);
  return digest(state);
}

/** Copies `data` into the scratch buffer, made large enough for it and its padding. */
function load(data: Uint8Array): void {
  room(data.length);
  scratch.set(data);
}

/** A state as the 32 bytes of its digest. */
function digest(state: Uint32Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(32);
  const view = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) view.setUint32(i * 4, state[i]);
  return out;
}

/** Makes the scratch buffer hold `length` bytes of data and their padding. */
function room(length: number): void {
  const size = ((length + 9 + 63) >>> 6) << 6;
  if (scratch.length < size) {
    scratch = new Uint8Array(size * 2);
    scratchView = new DataView(scratch.buffer);
  }
}

/** Pads the first `length` bytes of the scratch buffer and compresses them into `state`. */
function finishScratch(state: Uint32Array, prefix: number, length: number): void {
  const size = ((length + 9 + 63) >>> 6) << 6;
  scratch[length] = 0x80;
  scratch.fill(0, length + 1, size - 8);
  const bits = (prefix + length) * 8;
  scratchView.setUint32(size - 8, Math.floor(bits / 2 ** 32));
  scratchView.setUint32(size - 4, bits >>> 0);
  compress(state, scratchView, 0, size);
}
let scratch = new Uint8Array(256);
let scratchView = new DataView(scratch.buffer);

/**
 * The SHA-256 digest of `data`.
 *
 * @example
 * ```ts
 * sha256(new TextEncoder().encode("abc")); // Uint8Array(32) [0xba, 0x78, …]
 * ```
 */
export function sha256(data: Uint8Array): Uint8Array<ArrayBuffer> {
  return finish(H0.slice(), 0, data);
}

/** An HMAC key's states after its inner and outer padded blocks. */
interface KeyedStates {
  inner: Uint32Array;
  outer: Uint32Array;
}

/** The last keys used, by their string form (the app signs with one key; a few more are tests). */
const keyed = new Map<string, KeyedStates>();
const MAX_KEYS = 8;

/** The key used last, and its states: the app signs with one key. */
let lastKey: string | null = null;
let lastStates: KeyedStates | undefined;

function keyedStates(key: string | Uint8Array): KeyedStates {
  if (key === lastKey) return lastStates!;
  const states = keyedStatesOf(key);
  if (typeof key === "string") [lastKey, lastStates] = [key, states];
  return states;
}

function keyedStatesOf(key: string | Uint8Array): KeyedStates {
  const name = typeof key === "string" ? key : null;
  const known = name === null ? undefined : keyed.get(name);
  if (known) return known;
  let k = typeof key === "string" ? encoder.encode(key) : key;
  if (k.length > 64) k = sha256(k);
  const block = new Uint8Array(64);
  const view = new DataView(block.buffer);
  const states = { inner: H0.slice(), outer: H0.slice() };
  for (let i = 0; i < 64; i++) block[i] = (k[i] ?? 0) ^ 0x36;
  compress(states.inner, view, 0, 64);
  for (let i = 0; i < 64; i++) block[i] = (k[i] ?? 0) ^ 0x5c;
  compress(states.outer, view, 0, 64);
  if (name !== null) {
    if (keyed.size >= MAX_KEYS) keyed.delete(keyed.keys().next().value!);
    keyed.set(name, states);
  }
  return states;
}

/**
 * The HMAC-SHA256 of `message` under `key` (RFC 2104), strings taken as UTF-8.
 *
 * @example
 * ```ts
 * hmacSha256("key", "The quick brown fox jumps over the lazy dog"); // f7bc83f4…
 * ```
 */
export function hmacSha256(key: string | Uint8Array, message: string | Uint8Array): Uint8Array<ArrayBuffer> {
  hmacInto(key, message);
  return digest(work);
}

/** {@link hmacSha256} as lower-case hex. */
export function hmacSha256Hex(key: string | Uint8Array, message: string | Uint8Array): string {
  hmacInto(key, message);
  let hex = "";
  for (let i = 0; i < 8; i++) hex += (work[i] >>> 0).toString(16).padStart(8, "0");
  return hex;
}

/** The state being worked on by {@link hmacInto}: the digest, once it returns. */
const work = new Uint32Array(8);

/**
 * The HMAC of `message` under `key`, left in {@link work}: the key's inner state continued with the
 * message, then its outer state with that digest. A message of ASCII characters (a browser key's
 * id) is written into the scratch buffer directly, not encoded into a new array first; nothing is
 * allocated for a known key (`bench/README.md`, request pipeline).
 */
function hmacInto(key: string | Uint8Array, message: string | Uint8Array): void {
  const { inner, outer } = keyedStates(key);
  const length = typeof message === "string" ? asciiIntoScratch(message) : -1;
  work.set(inner);
  if (length >= 0) finishScratch(work, 64, length);
  else {
    const m = typeof message === "string" ? encoder.encode(message) : message;
    load(m);
    finishScratch(work, 64, m.length);
  }
  for (let i = 0; i < 8; i++) scratchView.setUint32(i * 4, work[i]);
  work.set(outer);
  finishScratch(work, 64, 32);
}

/** Writes `text` into the scratch buffer when it is all ASCII: its length, else -1. */
function asciiIntoScratch(text: string): number {
  const length = text.length;
  room(length);
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0x7f) return -1;
    scratch[i] = code;
  }
  return length;
}
