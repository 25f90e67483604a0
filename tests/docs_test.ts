/**
 * The documentation holds together:
 *
 * - every setting the app reads is documented in `docs/configuration.md`: the variables of
 *   `lib/app/config.ts` and the groups it reads are exactly the rows of its first table (the settings), and every other
 *   environment variable read by the app or the scripts an operator runs (`lib/`, `main.ts`,
 *   `dev.ts`, `scripts/`, `deploy/`) is a row of one of its tables;
 * - every relative link of `README.md` and `docs/**\/*.md` reaches a file, and every `#anchor` a
 *   heading of the Markdown file it names (GitHub's slugs).
 *
 * Each check is also run on a planted mistake, so it is shown able to fail.
 *
 * @module
 */
import assert from "node:assert/strict";
import { loadConfig } from "@/lib/app/config.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const CONFIGURATION = "docs/configuration.md";
/** The modules that read settings: `lib/app/config.ts` and the groups it composes (`lib/<concept>/config.ts`, `lib/core/config_values.ts`). */
const CONFIG_MODULE = /^lib\/(?:[a-z_]+\/)?config[^/]*\.ts$/;

// ---- settings ------------------------------------------------------------------------------

/**
 * Code without its comments (block and line; `#` lines too in a Dockerfile), so examples in JSDoc
 * are not taken for reads.
 */
function withoutComments(source: string, hashComments = false): string {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  return hashComments ? code.replace(/^\s*#.*$/gm, "") : code;
}

/**
 * The variables read by `lib/app/config.ts` and the groups it reads, from its source: `env.X`, `env["X"]`, and the literal
 * names given to its readers `bool(env, "X", …)` and `need("X")`. Fails on a read it cannot name.
 */
function configReads(source: string): Set<string> {
  const code = withoutComments(source);
  const names = new Set<string>();
  for (const m of code.matchAll(/\benv\.([A-Z][A-Z0-9_]*)\b/g)) names.add(m[1]);
  for (const m of code.matchAll(/\benv\[\s*"([A-Z][A-Z0-9_]*)"\s*\]/g)) names.add(m[1]);
  for (const m of code.matchAll(/\b(?:bool\(\s*env\s*,|need\()\s*"([A-Z][A-Z0-9_]*)"/g)) names.add(m[1]);
  // Every other way of reading: only the readers' own `env[name]`, and every call passes a literal.
  const dynamic = [...code.matchAll(/\benv\[([^\]]*)\]/g)].map((m) => m[1].trim()).filter((k) =>
    !k.startsWith('"')
  );
  assert.deepEqual([...new Set(dynamic)].filter((k) => k !== "name"), [], "env is read by a computed name");
  for (const call of code.matchAll(/\b(bool\(\s*env\s*,|need\()\s*([^\s)])/g)) {
    const definition = /\bfunction\s+$/.test(code.slice(0, call.index));
    if (call[2] !== '"' && !definition) {
      assert.fail(`a reader is called with a computed name: ${code.slice(call.index, call.index + 40)}`);
    }
  }
  return names;
}

/**
 * The environment variables any other file reads: `Deno.env.get("X")` / `has("X")`, and `env.X` or
 * `env["X"]` of a `Deno.env.toObject()`. Fails on `Deno.env.get` with a computed name.
 */
function envReads(source: string, hashComments = false): Set<string> {
  const code = withoutComments(source, hashComments);
  const names = new Set<string>();
  for (const m of code.matchAll(/Deno\.env\.(?:get|has)\(\s*([^)]*)\)/g)) {
    const literal = m[1].match(/^["'`]([A-Z][A-Z0-9_]*)["'`]$/);
    assert.ok(literal, `Deno.env is read by a computed name: ${m[0]}`);
    names.add(literal[1]);
  }
  if (/Deno\.env\.toObject\(\)/.test(code)) {
    for (const m of code.matchAll(/\benv\.([A-Z][A-Z0-9_]*)\b/g)) names.add(m[1]);
    for (const m of code.matchAll(/\benv\[\s*["']([A-Z][A-Z0-9_]*)["']\s*\]/g)) names.add(m[1]);
  }
  return names;
}

/** The variables (`| \`NAME\` |` rows) of a Markdown text's tables, in order. */
function tableVariables(markdown: string): string[] {
  return [...markdown.matchAll(/^\|\s*`([A-Z][A-Z0-9_]*)`\s*\|/gm)].map((m) => m[1]);
}

/** The settings table: the table rows of `docs/configuration.md` before its first `##` section. */
function settingsTable(markdown: string): string[] {
  return tableVariables(markdown.split(/^## /m)[0]);
}

/** What a list of documented variables lacks, and what it lists that nothing reads. */
function compare(read: Set<string>, documented: string[]): { missing: string[]; extra: string[] } {
  return {
    missing: [...read].filter((name) => !documented.includes(name)).sort(),
    extra: documented.filter((name) => !read.has(name)),
  };
}

/** The files of a folder (recursively) whose names pass `keep`, as paths from the root. */
async function filesUnder(folder: string, keep: (name: string) => boolean): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(`${ROOT}${folder}`)) {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory) found.push(...await filesUnder(path, keep));
    else if (entry.isFile && keep(entry.name)) found.push(path);
  }
  return found.sort();
}

const read = (path: string) => Deno.readTextFile(`${ROOT}${path}`);
const isCode = (name: string) => /\.tsx?$/.test(name) && !/_test\.tsx?$/.test(name);

/** The variables `loadConfig` actually looks at for `env`, recorded through a proxy. */
async function loadedVariables(env: Record<string, string>, dataDir: string): Promise<Set<string>> {
  const seen = new Set<string>();
  const proxy = new Proxy(env, {
    get(target, key) {
      if (typeof key === "string") seen.add(key);
      return target[key as string];
    },
  });
  await loadConfig(proxy, { dataDir });
  return seen;
}

/** A complete production configuration with Pelecard, its token terminal and test terminals. */
const PROD: Record<string, string> = {
  DENO_ENV: "production",
  APP_SECRET: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
  PUBLIC_URL: "https://donate.museum.org",
  ADMIN_REGISTRATION: "approval",
  PAYMENT_PROVIDER: "pelecard",
  PELECARD_TERMINAL: "0962210",
  PELECARD_USER: "museum",
  PELECARD_PASSWORD: "secret",
  SMTP_URL: "smtps://donations:mail-secret@smtp.museum.org:465",
  MAIL_FROM: "Museum donations <donations@museum.org>",
  RECEIPT_LEGAL_NAME: "The Museum (R.A.)",
  RECEIPT_ADDRESS: "1 Museum Road, Jerusalem",
};

Deno.test("docs: the settings table lists exactly the variables lib/app/config.ts and its groups read", async () => {
  const modules = (await filesUnder("lib", (name) => /^config.*\.ts$/.test(name) && isCode(name)))
    .filter((path) => CONFIG_MODULE.test(path));
  const reads = configReads((await Promise.all(modules.map(read))).join("\n"));
  assert.ok(reads.size >= 25, `found only ${[...reads]} in ${modules}`);
  // What runs agrees with what the source says: every name looked up on real paths was found above.
  const dataDir = await Deno.makeTempDir({ prefix: "docs-test-" });
  const paths: Record<string, string>[] = [
    { APP_SECRET: "s".repeat(32) },
    {
      ...PROD,
      DATABASE_URL: "postgres://u:p@localhost/d",
      PELECARD_TOKEN_TERMINAL: "1",
      PELECARD_TOKEN_USER: "u",
      PELECARD_TOKEN_PASSWORD: "p",
      FEATURE_TEST_TERMINAL_PAYMENT: "on",
      TEST_TERMINALS: "1,2,3",
    },
    { ...PROD, PAYMENT_PROVIDER: "sandbox", SANDBOX_ALLOWED: "1" },
  ];
  for (const env of paths) {
    for (const name of await loadedVariables(env, dataDir)) {
      assert.ok(reads.has(name), `loadConfig reads ${name}, which the source scan did not find`);
    }
  }
  await Deno.remove(dataDir, { recursive: true });

  const documented = settingsTable(await read(CONFIGURATION));
  assert.equal(new Set(documented).size, documented.length, `a variable is listed twice: ${documented}`);
  const { missing, extra } = compare(reads, documented);
  assert.deepEqual(
    missing,
    [],
    `read by lib/config*.ts but missing from ${CONFIGURATION}'s table: ${missing}`,
  );
  assert.deepEqual(extra, [], `in ${CONFIGURATION}'s table but never read by lib/config*.ts: ${extra}`);
});

Deno.test("docs: every other environment variable the app and its scripts read is documented", async () => {
  const files = [
    ...(await filesUnder("lib", isCode)).filter((path) => !CONFIG_MODULE.test(path)),
    "main.ts",
    "dev.ts",
    ...await filesUnder("scripts", isCode),
    ...await filesUnder("deploy", (name) => isCode(name) || name === "Dockerfile"),
  ];
  const reads = new Set<string>();
  for (const path of files) {
    for (const name of envReads(await read(path), path.endsWith("Dockerfile"))) reads.add(name);
  }
  assert.ok(reads.has("SEED_COUNT"), `the scan found ${[...reads]}`);
  const { missing } = compare(reads, tableVariables(await read(CONFIGURATION)));
  assert.deepEqual(missing, [], `read but in no table of ${CONFIGURATION}: ${missing}`);
});

Deno.test("docs: the settings checks fail on planted mistakes", () => {
  const doc =
    "# Configuration\n\n| variable | meaning |\n| --- | --- |\n| `PORT` | port |\n| `OLD` | gone |\n\n" +
    "## Demo data\n\n| `SEED_COUNT` | rows |\n";
  assert.deepEqual(settingsTable(doc), ["PORT", "OLD"]);
  assert.deepEqual(compare(new Set(["PORT", "KV_PATH"]), settingsTable(doc)), {
    missing: ["KV_PATH"],
    extra: ["OLD"],
  });
  assert.deepEqual(compare(new Set(["SEED_COUNT", "SEED_RANDOM"]), tableVariables(doc)).missing, [
    "SEED_RANDOM",
  ]);

  const config =
    '/** env.IN_A_COMMENT */\nconst a = env.PORT;\nconst b = env["KV_PATH"];\nbool(env, "TRUST_PROXY", false);';
  assert.deepEqual([...configReads(config)].sort(), ["KV_PATH", "PORT", "TRUST_PROXY"]);
  assert.throws(() => configReads("const x = env[key];"), /computed name/);
  assert.throws(() => configReads("const x = need(key);"), /computed name/);

  const script = '// Deno.env.get("IN_A_COMMENT")\nconst env = Deno.env.toObject();\n' +
    'const n = env.SEED_COUNT;\nconst p = Deno.env.get("PORT");';
  assert.deepEqual([...envReads(script)].sort(), ["PORT", "SEED_COUNT"]);
  assert.deepEqual([...envReads("const n = env.NOT_THE_PROCESS_ENV;")], []);
  assert.throws(() => envReads("Deno.env.get(name)"), /computed name/);
  const dockerfile = '# Deno.env.get("IN_A_COMMENT")\nHEALTHCHECK CMD deno eval "Deno.env.get(\'PORT\')"';
  assert.deepEqual([...envReads(dockerfile, true)], ["PORT"]);
});

// ---- links ---------------------------------------------------------------------------------

/** GitHub's anchor for a heading: its text lower-cased, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1") // a link or image: its text
    .replace(/<[^>]+>/g, "") // inline HTML
    .replace(/[`*~]/g, ""); // code and emphasis marks
  return text.trim().toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "").replace(/ /g, "-");
}

/** Markdown without its fenced code blocks, where a `#` line is no heading. */
function withoutFences(markdown: string): string {
  return markdown.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
}

/** Markdown without fenced code blocks and code spans, where a `[x](y)` is not a link. */
function withoutCode(markdown: string): string {
  return withoutFences(markdown).replace(/(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g, "");
}

/** The anchors of a Markdown text's headings, with GitHub's `-1`, `-2` for repeated ones. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const m of withoutFences(markdown).matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const base = slug(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    found.add(n === 0 ? base : `${base}-${n}`);
  }
  return found;
}

/** The link targets of a Markdown text: inline links and images, and reference definitions. */
function linkTargets(markdown: string): string[] {
  const text = withoutCode(markdown);
  const inline = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);
  const references = [...text.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1]);
  return [...inline, ...references];
}

/** Resolves `target` against the folder of `from` (both paths from the root). */
function resolve(from: string, target: string): string {
  const parts = from.split("/").slice(0, -1);
  for (const part of target.split("/")) {
    if (part === "..") parts.pop();
    else if (part !== "." && part !== "") parts.push(part);
  }
  return parts.join("/");
}

/**
 * The links of `files` (path → Markdown) that reach nothing: a relative path that is not in
 * `exists`, or an `#anchor` that is no heading of the Markdown file it names.
 */
function brokenLinks(files: Map<string, string>, exists: (path: string) => boolean): string[] {
  const broken: string[] = [];
  for (const [from, markdown] of files) {
    for (const target of linkTargets(markdown)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//")) continue; // http:, mailto:, …
      const [path, anchor] = target.split("#", 2);
      const to = path === "" ? from : resolve(from, decodeURIComponent(path));
      if (!files.has(to) && !exists(to)) {
        broken.push(`${from}: ${target} (no file ${to})`);
        continue;
      }
      if (anchor === undefined || !to.endsWith(".md")) continue;
      const text = files.get(to) ?? Deno.readTextFileSync(`${ROOT}${to}`);
      if (!anchors(text).has(decodeURIComponent(anchor))) {
        broken.push(`${from}: ${target} (no heading #${anchor})`);
      }
    }
  }
  return broken;
}

function existsOnDisk(path: string): boolean {
  try {
    Deno.statSync(`${ROOT}${path}`);
    return true;
  } catch {
    return false;
  }
}

Deno.test("docs: every relative link of README.md and docs/ reaches a file and a heading", async () => {
  const paths = ["README.md", ...await filesUnder("docs", (name) => name.endsWith(".md"))];
  assert.ok(paths.includes("docs/README.md"), `docs/ has an index: ${paths}`);
  const files = new Map(await Promise.all(paths.map(async (path) => [path, await read(path)] as const)));
  assert.ok([...files.values()].some((text) => linkTargets(text).length > 0), "the docs link to each other");
  assert.deepEqual(brokenLinks(files, existsOnDisk), []);
  // Every page of docs/ is reachable from the index.
  const index = linkTargets(files.get("docs/README.md")!).map((t) =>
    resolve("docs/README.md", t.split("#")[0])
  );
  const unlinked = paths.filter((path) => path.startsWith("docs/") && path !== "docs/README.md")
    .filter((path) => !index.includes(path));
  assert.deepEqual(unlinked, [], "docs/README.md links every page of docs/");
});

Deno.test("docs: the link check fails on planted mistakes", () => {
  assert.equal(
    slug("Signed requests from your own systems (`SIGNING_KEYS`)"),
    "signed-requests-from-your-own-systems-signing_keys",
  );
  assert.equal(slug("Updating a monthly gift's card"), "updating-a-monthly-gifts-card");
  assert.equal(
    slug("Kiosks: only a paired kiosk takes card payments"),
    "kiosks-only-a-paired-kiosk-takes-card-payments",
  );
  assert.equal(slug("Layers and the recipe for a new concept"), "layers-and-the-recipe-for-a-new-concept");
  const files = new Map([
    [
      "docs/a.md",
      "# A page\n\n## Twice\n\n## Twice\n\n```sh\n# not a heading\n[not](a-link.md)\n```\n\n" +
      "[fine](b.md#the-b-page) [self](#twice-1) [up](../README.md) `[code](span.md)` [web](https://example.org/x#y)\n" +
      "[gone](missing.md) [wrong](b.md#no-such-heading) [selfwrong](#twice-2) [comment](#not-a-heading)\n" +
      "![picture](images/missing.png)\n",
    ],
    ["docs/b.md", "# The B page\n"],
    ["README.md", "[docs](docs/a.md#a-page)\n"],
  ]);
  assert.deepEqual(brokenLinks(files, () => false), [
    "docs/a.md: missing.md (no file docs/missing.md)",
    "docs/a.md: b.md#no-such-heading (no heading #no-such-heading)",
    "docs/a.md: #twice-2 (no heading #twice-2)",
    "docs/a.md: #not-a-heading (no heading #not-a-heading)",
    "docs/a.md: images/missing.png (no file docs/images/missing.png)",
  ]);
});
