/**
 * The server's memory settings (bench/README.md, memory): `deno task start`, the systemd unit and
 * the Docker image run `main.ts` with the same V8 heap flags and glibc's arenas capped at two.
 */
import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url).pathname;
const read = (file: string) => Deno.readTextFileSync(`${ROOT}/${file}`);

const startTask: string = JSON.parse(read("deno.json")).tasks.start;
const unit = read("deploy/museum-donations.service");
const dockerfile = read("deploy/Dockerfile");
const v8Flags = (text: string) => text.match(/--v8-flags=([^\s"]+)/)?.[1];

Deno.test("the start task and both recipes use the same V8 heap flags", () => {
  const flags = v8Flags(startTask);
  assert.ok(flags?.includes("--max-old-space-size="), startTask);
  assert.equal(v8Flags(unit.match(/^ExecStart=.*$/m)![0]), flags);
  assert.equal(v8Flags(dockerfile.match(/^CMD \[.*"main.ts"\]$/m)![0]), flags);
});

Deno.test("the start task and both recipes cap glibc's malloc arenas at two", () => {
  assert.match(startTask, /(^|&& )MALLOC_ARENA_MAX=2 deno run /);
  assert.match(unit, /^Environment=.*\bMALLOC_ARENA_MAX=2\b/m);
  assert.match(dockerfile, /^ENV [^\n]*\bMALLOC_ARENA_MAX=2\b/m);
});
