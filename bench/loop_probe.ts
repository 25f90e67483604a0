/**
 * The event loop's delay in a benchmarked app, loaded before its main module
 * (`deno run --preload bench/loop_probe.ts`, `bench/mail.ts`), so it measures any checkout of the
 * app, old or new, without a line of the app changed. A timer asks to run every
 * {@link INTERVAL_MS}; how late each run is, is how long the thread was busy with other work (or
 * waiting for a core). Each second, one line is appended to `LOOP_PROBE_FILE`: the time
 * (`Date.now()`) and that second's delays in ms, for the benchmark to read the ones of its window.
 *
 * @module
 */
const INTERVAL_MS = 10;
const file = Deno.env.get("LOOP_PROBE_FILE");
if (file) {
  let delays: number[] = [];
  let expected = performance.now() + INTERVAL_MS;
  let flushed = Date.now();
  const timer = setInterval(() => {
    const now = performance.now();
    delays.push(Math.max(0, now - expected));
    expected = now + INTERVAL_MS;
    if (Date.now() - flushed >= 1000) {
      flushed = Date.now();
      Deno.writeTextFileSync(file, JSON.stringify({ at: flushed, delays }) + "\n", { append: true });
      delays = [];
    }
  }, INTERVAL_MS);
  Deno.unrefTimer(timer);
}
