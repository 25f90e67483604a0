/**
 * What a server start does before its first answer (issue 29: start → first 200 on `/en/` within
 * 120 ms). Two things decide most of it, and both are checked here without timing anything:
 *
 * - **The modules loaded before the first answer**: `main.ts`'s static imports, what it imports
 *   before `Deno.serve` (the app, the services, the framework's server) and the donation page's
 *   route files, which it preloads. Every npm package
 *   they reach statically is loaded, evaluated and (for packages written for Node) pulls Node's
 *   built-ins; the mail, PDF, wallet, QR, JWT and schema libraries load when first used instead.
 * - **The client build check** (`ensureBuild` → `sourceHash`): it hashes only what the client build
 *   reads, so a start does not read and hash every server source, and a change to server code does
 *   not rebuild the client.
 *
 * @module
 */
import assert from "node:assert/strict";
import { sourceHash } from "@/lib/framework/build.ts";

const ROOT = new URL("../", import.meta.url);

/**
 * What `main.ts` imports (statically or with `import()`) before it calls `Deno.serve`, and the
 * modules of `/en/` (its page, layout and middleware, which `main.ts` preloads at once).
 */
const BEFORE_SERVE = [
  "main.ts",
  "lib/app/app.ts",
  "lib/app/services.ts",
  "lib/framework/server.ts",
  "routes/_app.tsx",
  "routes/[lang]/_layout.tsx",
  "routes/[lang]/_middleware.ts",
  "routes/[lang]/index.tsx",
];

/** The npm packages the first answer needs: the HTTP framework, rendering, translations, islands. */
const FIRST_PAGE_PACKAGES = ["hono", "preact", "preact-render-to-string", "i18next", "@preact/signals"];

type Dependency = { code?: { specifier: string }; isDynamic?: boolean };
type Info = {
  roots: string[];
  modules: { specifier: string; dependencies?: Dependency[] }[];
  redirects?: Record<string, string>;
};

/** The modules reached from `entry` through static imports only (`import()` left out), by specifier. */
async function staticClosure(entries: string[]): Promise<Set<string>> {
  const dir = await Deno.makeTempDir({ dir: ROOT.pathname, prefix: ".start-graph-" });
  try {
    const entry = `${dir}/entry.ts`;
    await Deno.writeTextFile(
      entry,
      entries.map((f) => `import ${JSON.stringify(new URL(f, ROOT).href)};\n`).join(""),
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", entry],
      cwd: ROOT.pathname,
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    assert.ok(out.success, `deno info failed: ${new TextDecoder().decode(out.stderr)}`);
    const info: Info = JSON.parse(new TextDecoder().decode(out.stdout));
    const modules = new Map(info.modules.map((m) => [m.specifier, m]));
    const resolve = (s: string) => info.redirects?.[s] ?? s;
    const seen = new Set<string>();
    const queue = [resolve(info.roots[0])];
    while (queue.length) {
      const specifier = queue.pop()!;
      if (seen.has(specifier)) continue;
      seen.add(specifier);
      for (const dep of modules.get(specifier)?.dependencies ?? []) {
        if (!dep.isDynamic && dep.code?.specifier) queue.push(resolve(dep.code.specifier));
      }
    }
    return seen;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** `nodemailer` for `npm:/nodemailer@10.6.0/lib/x`, `@preact/signals` for `npm:@preact/signals@2`. */
function npmPackage(specifier: string): string | null {
  const m = specifier.match(/^npm:\/?((?:@[^/@]+\/)?[^/@]+)/);
  return m ? m[1] : null;
}

Deno.test("start: before the first answer, only the first page's npm packages load", async () => {
  const reached = await staticClosure(BEFORE_SERVE);
  const packages = new Set([...reached].map(npmPackage).filter((p) => p !== null));
  const extra = [...packages].filter((p) => !FIRST_PAGE_PACKAGES.includes(p)).sort();
  assert.deepEqual(extra, [], `npm packages loaded before the first answer: ${extra.join(", ")}`);
  const builtIns = [...reached].filter((s) => s.startsWith("node:")).sort();
  assert.deepEqual(builtIns, [], `Node built-ins imported before the first answer: ${builtIns.join(", ")}`);
  // The memberships' barrel (cards, emails, wallet) and the POST's payment modules load later.
  const later = ["lib/memberships/mod.ts", "lib/donations/mod.ts", "lib/outbox/templates/mod.ts"]
    .filter((f) => reached.has(new URL(f, ROOT).href));
  assert.deepEqual(later, [], "modules the first page does not use");
  // The vendored PDF font library and postgres.js are project files: named here.
  const vendored = [...reached].filter((s) => s.startsWith(new URL("vendor/", ROOT).href));
  assert.deepEqual(vendored, [], "vendored libraries load when first used");
});

Deno.test("start: the client build check hashes what the client build reads, not the server's sources", async () => {
  const root = await Deno.makeTempDir();
  const write = async (path: string, text: string) => {
    await Deno.mkdir(`${root}/${path.split("/").slice(0, -1).join("/")}`, { recursive: true });
    await Deno.writeTextFile(`${root}/${path}`, text);
  };
  try {
    await write("islands/Counter.tsx", "export default () => null;\n");
    await write("lib/shared/money.ts", "export const CENTS = 100;\n");
    await write("lib/app/app.ts", "export const app = 1;\n");
    await write("locales/en.json", '{"a":"b"}\n');
    await write("components/Page.tsx", "export const Page = 1;\n");
    await write("routes/index.tsx", "export default () => null;\n");
    await write("static/styles.css", "body{}\n");
    await write("deno.json", "{}\n");
    const first = await sourceHash(root);

    // Server-only sources: the client build never reads them (it refuses an island that imports one).
    await write("lib/app/app.ts", "export const app = 2;\n");
    await write("locales/en.json", '{"a":"c"}\n');
    await write("components/Page.tsx", "export const Page = 2;\n");
    await write("routes/index.tsx", "export default () => 'changed';\n");
    assert.equal(await sourceHash(root), first, "a change to server-only code keeps the build");

    // What the client build reads: each change makes the build stale.
    const changes: [string, string][] = [
      ["islands/Counter.tsx", "export default () => 1;\n"],
      ["lib/shared/money.ts", "export const CENTS = 1000;\n"],
      ["static/styles.css", "body{color:red}\n"],
      ["routes/about.tsx", "export default () => null;\n"], // a new route: the generated manifests change
      ["deno.json", '{"imports":{}}\n'],
    ];
    let previous = first;
    for (const [path, text] of changes) {
      await write(path, text);
      const next = await sourceHash(root);
      assert.notEqual(next, previous, `${path} changed: the build is stale`);
      previous = next;
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
