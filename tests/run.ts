/**
 * `deno task test`: builds the client if needed, runs every test (unit tests beside the code,
 * integration, storage contract on both backends, browser), and ends with one plain line
 * `N passed, N failed` for CI. Extra arguments go to `deno test` (e.g. a file to run alone).
 *
 * @module
 */
import { ensureBuild } from "@/lib/framework/build.ts";

const root = new URL("../", import.meta.url).pathname;
await ensureBuild(root);

const args = Deno.args.length > 0
  ? Deno.args
  : ["lib/", "tests/", "routes/", "islands/", "components/", "lint/"];
const child = new Deno.Command(Deno.execPath(), {
  args: ["test", "-A", "--parallel", ...args],
  cwd: root,
  stdout: "piped",
  stderr: "inherit",
  env: { NO_COLOR: "1" },
}).spawn();

// Echo the output as it comes, and keep the tail to read the summary from.
let tail = "";
const decoder = new TextDecoder();
for await (const chunk of child.stdout) {
  await Deno.stdout.write(chunk);
  tail = (tail + decoder.decode(chunk, { stream: true })).slice(-4000);
}
const { code } = await child.status;

// Deno prints e.g. "ok | 41 passed (18 steps) | 0 failed | 2 ignored (1s)".
const summary = [...tail.matchAll(/(\d+) passed(?: \(\d+ steps?\))? \| (\d+) failed/g)].at(-1);
const passed = summary ? Number(summary[1]) : 0;
const failed = summary ? Number(summary[2]) : 1;
console.log(`${passed} passed, ${failed} failed`);
Deno.exit(code !== 0 && failed === 0 ? 1 : code);
