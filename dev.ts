/**
 * Development entry. `deno task build` runs `dev.ts build` (regenerates `manifest.gen.ts` and the
 * client build, then exits); `deno task dev` runs it under `--watch`: every change rebuilds and
 * restarts the server.
 *
 * @module
 */
import { build, BuildError } from "@/lib/framework/build.ts";

const root = new URL(".", import.meta.url).pathname;
try {
  const started = performance.now();
  const manifest = await build(root);
  const n = Object.keys(manifest.islands).length;
  console.log(
    `build: ${n} islands, ${Object.keys(manifest.files).length} files in ${
      Math.round(performance.now() - started)
    } ms`,
  );
} catch (e) {
  if (e instanceof BuildError) {
    console.error(`Build error: ${e.message}`);
    Deno.exit(1);
  }
  throw e;
}
if (Deno.args[0] !== "build") await import("./in.ts");
