/**
 * The test process's clock moved to a fixed instant: {@link shiftClock} makes `Date.now()` and
 * `new Date()` (without arguments) answer time as if the process had started at `to`, running on
 * from there, so an app served from this process (`tests/helpers/app.ts`) sees the same "now", and
 * draws the same pages, on any day the test runs. Dates made from a value, `Date.parse`, `Date.UTC`
 * and `instanceof Date` are untouched (the constructor is the same one behind a proxy). Workers (the
 * password and receipt pools) keep the real time.
 *
 * @module
 */

/**
 * Moves this process's clock so that now is `to`, and answers the function that puts it back.
 *
 * @example
 * ```ts
 * const restore = shiftClock(new Date("2026-03-10T10:00:00Z"));
 * try {
 *   new Date().toISOString(); // "2026-03-10T10:00:00.0…Z"
 * } finally {
 *   restore();
 * }
 * ```
 */
export function shiftClock(to: Date): () => void {
  const RealDate = globalThis.Date;
  const offset = to.getTime() - RealDate.now();
  const now = () => RealDate.now() + offset;
  globalThis.Date = new Proxy(RealDate, {
    construct: (target, args, newTarget) =>
      Reflect.construct(
        target,
        args.length === 0 ? [now()] : args,
        newTarget === globalThis.Date ? target : newTarget,
      ),
    apply: (target, self, args) =>
      args.length === 0 ? new target(now()).toString() : Reflect.apply(target, self, args),
    get: (target, key, receiver) => key === "now" ? now : Reflect.get(target, key, receiver),
  });
  return () => {
    globalThis.Date = RealDate;
  };
}
