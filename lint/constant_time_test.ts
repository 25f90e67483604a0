import assert from "node:assert/strict";
import plugin, { ROOT } from "./constant_time.ts";

const found = (path: string, source: string) =>
  Deno.lint.runPlugin(plugin, `${ROOT}${path}`, source).map((d) => source.slice(d.range[0], d.range[1]));

Deno.test("constant-time: a MAC, a signature or a signed token compared with === or !== is refused", () => {
  const source = [
    "const a = mac === given;",
    "const b = expectedHmac !== request.hmac;",
    "const c = p.signature == computed;",
    "const d = (await signInToken(key, id)) === token;",
    "const e = sig != other;",
    "const f = digestOf(x) === y;",
  ].join("\n");
  assert.deepEqual(found("lib/donor_portal/x.ts", source), [
    "mac === given",
    "expectedHmac !== request.hmac",
    "p.signature == computed",
    "(await signInToken(key, id)) === token",
    "sig != other",
    "digestOf(x) === y",
  ]);
  assert.deepEqual(found("routes/api/x.ts", "if (a.signature === b) f();"), ["a.signature === b"]);
});

Deno.test("constant-time: literals, typeof, lengths, other names and tests are fine", () => {
  const source = [
    'if (typeof p.signature !== "string" || p.signature === "") f();',
    "if (mac.length !== MAC_CHARS) f();",
    "if (signature === undefined) f();",
    "if (machine === other) f();", // "machine" is not the word "mac"
    "if (design === other) f();",
    "if (signedInAt === other) f();", // a name with "signed" is no signing call
    "if (token === other) f();",
    'if (kind === "mac") f();',
  ].join("\n");
  assert.deepEqual(found("lib/x.ts", source), []);
  assert.deepEqual(found("lib/x_test.ts", "const a = mac === given;"), [], "tests compare freely");
  assert.deepEqual(found("tests/x.ts", "const a = mac === given;"), []);
});

/** Every source file (`.ts`, `.tsx`) under the app's folders, as absolute paths. */
async function appFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) out.push(...await appFiles(path));
    else if (/\.tsx?$/.test(entry.name)) out.push(path);
  }
  return out;
}

Deno.test("constant-time: the app's own sources compare no MAC with === or !==", async () => {
  const reports: string[] = [];
  const folders = ["lib", "routes", "islands", "components"];
  for (const path of (await Promise.all(folders.map((f) => appFiles(`${ROOT}${f}`)))).flat()) {
    const source = await Deno.readTextFile(path);
    for (const d of Deno.lint.runPlugin(plugin, path, source)) {
      const line = source.slice(0, d.range[0]).split("\n").length;
      reports.push(`${path.slice(ROOT.length)}:${line}: ${source.slice(d.range[0], d.range[1])}`);
    }
  }
  assert.deepEqual(reports, []);
});
