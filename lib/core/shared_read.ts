/**
 * A read shared by the requests of a short interval: what every page reads from storage but may
 * show a second late (the feature flags, the museum's settings) costs each instance at most one
 * storage read per interval, whatever the traffic.
 *
 * @module
 */

interface Held<V> {
  at: number;
  value?: V;
  promise: Promise<V>;
}

/**
 * Wraps `read` so that calls for one key (a store) within `maxAgeMs` of a read share it: concurrent
 * calls one promise, later ones its value itself once it is there (no turn of the event loop to
 * wait). A failed read is not kept; each key has its own (held weakly).
 *
 * @example
 * ```ts
 * const flagsForPages = sharedRead(readFlags, 1000);
 * const flags = await flagsForPages(store); // at most a second old
 * ```
 */
export function sharedRead<K extends object, V>(
  read: (key: K) => Promise<V>,
  maxAgeMs: number,
): (key: K, now?: number) => V | Promise<V> {
  const held = new WeakMap<K, Held<V>>();
  return (key, now = performance.now()) => {
    const last = held.get(key);
    if (last && now - last.at < maxAgeMs && now >= last.at) {
      return "value" in last ? last.value! : last.promise;
    }
    const entry: Held<V> = { at: now, promise: read(key) };
    held.set(key, entry);
    entry.promise.then((value) => entry.value = value, () => {
      if (held.get(key) === entry) held.delete(key);
    });
    return entry.promise;
  };
}
