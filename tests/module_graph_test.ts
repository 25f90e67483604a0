/**
 * The project's module graph has no import cycles: no project file reaches itself again through its
 * imports, counting static, dynamic (`import()`) and type-only (`import type`) imports alike.
 *
 * A cycle makes the load order decide what a module sees at its top level (a `const` read before the
 * other module ran throws), ties layers together that should not know each other (the domain drawing
 * SVG, a manifest loading the routes that read it), and makes every file of the loop load when one does.
 *
 * The graph comes from `deno info --json` (Deno's own resolver: the `@/` alias, `.tsx`, `import()` with
 * a literal specifier; type-only imports appear as `type` dependencies). `deno info` takes one root,
 * so the test writes a throwaway module that imports every project file: each file is then a root, and
 * no entry point (main.ts, dev.ts, a test, a bench, a script) can be forgotten. Only edges between
 * project files count; npm packages are left out (not even resolved).
 *
 * @module
 */
import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url);

/** Folders that hold no project source: dependencies, build output, data, the React comparison app. */
const SKIP = new Set([
  "node_modules",
  "vendor",
  "data",
  "scratch",
  "bench/react-spa",
  "bench/lighthouse/reports",
]);

/** Every project source file (`.ts`, `.tsx`), as file URLs. */
export async function projectFiles(dir = ROOT, rel = ""): Promise<URL[]> {
  const found: URL[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = rel + entry.name;
    if (entry.isDirectory) {
      if (entry.name.startsWith(".") || entry.name.startsWith("_build") || SKIP.has(path)) continue;
      found.push(...await projectFiles(new URL(`${encodeURIComponent(entry.name)}/`, dir), `${path}/`));
    } else if (entry.isFile && /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts")) {
      found.push(new URL(encodeURIComponent(entry.name), dir));
    }
  }
  return found;
}

type Dependency = {
  code?: { specifier: string };
  type?: { specifier: string };
};
type Info = { modules: { specifier: string; dependencies?: Dependency[] }[] };

/**
 * The import graph among project files: each file's project imports (relative to the root, sorted).
 *
 * @example
 * ```ts
 * const graph = await moduleGraph();
 * graph.get("lib/app/app.ts"); // ["lib/app/config.ts", "manifest.lazy.gen.ts", …]
 * ```
 */
export async function moduleGraph(): Promise<Map<string, string[]>> {
  const files = await projectFiles();
  const dir = await Deno.makeTempDir();
  try {
    const entry = `${dir}/all.ts`;
    await Deno.writeTextFile(entry, files.map((f) => `import ${JSON.stringify(f.href)};\n`).join(""));
    // deno.json's import map alone, its "@/" made absolute.
    const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT)));
    const importMap = `${dir}/import_map.json`;
    await Deno.writeTextFile(importMap, JSON.stringify({ imports: { ...config.imports, "@/": ROOT.href } }));
    const out = await new Deno.Command(Deno.execPath(), {
      // Only project files matter: npm and remote modules are not even resolved (faster, offline).
      args: [
        "info",
        "--json",
        "--no-lock",
        "--no-npm",
        "--no-remote",
        "--no-config",
        "--import-map",
        importMap,
        entry,
      ],
      cwd: ROOT.pathname,
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.ok(out.success, `deno info failed: ${stderr}`);
    const info: Info = JSON.parse(new TextDecoder().decode(out.stdout));
    const graph = new Map<string, string[]>();
    const local = (specifier: string) =>
      specifier.startsWith(ROOT.href) ? decodeURIComponent(specifier.slice(ROOT.href.length)) : null;
    for (const mod of info.modules) {
      const from = local(mod.specifier);
      if (from === null) continue;
      const to = new Set<string>();
      for (const dep of mod.dependencies ?? []) {
        for (const target of [dep.code?.specifier, dep.type?.specifier]) {
          const file = target ? local(target) : null;
          if (file !== null) to.add(file);
        }
      }
      graph.set(from, [...to].sort());
    }
    return graph;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The strongly connected components of more than one file (or a file importing itself): Tarjan's. */
function loops(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}

/** The shortest chain from `start` back to itself inside `members` (breadth first). */
function shortestCycle(graph: Map<string, string[]>, members: Set<string>, start: string): string[] {
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!members.has(w)) continue;
      if (w === start) {
        const chain = [start];
        for (let x = v; x !== start; x = previous.get(x)!) chain.splice(1, 0, x);
        return [...chain, start];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start];
}

/**
 * Each cycle as its chain of files (`a.ts → b.ts → a.ts`): for every tangle of files that reach each
 * other, the shortest loop through each of them, without repeats.
 */
export function cycles(graph: Map<string, string[]>): string[] {
  const chains = new Set<string>();
  for (const component of loops(graph)) {
    const members = new Set(component);
    for (const file of component) {
      const chain = shortestCycle(graph, members, file);
      // The same loop found from another of its files: start it at its smallest file.
      const ring = chain.slice(0, -1);
      const first = ring.indexOf([...ring].sort()[0]);
      const rotated = [...ring.slice(first), ...ring.slice(0, first)];
      chains.add([...rotated, rotated[0]].join(" → "));
    }
  }
  return [...chains].sort();
}

Deno.test("module graph: no import cycles among project files (dynamic and type-only included)", async () => {
  const graph = await moduleGraph();
  assert.ok(graph.has("main.ts") && graph.has("dev.ts"), "the entry points are in the graph");
  assert.ok(graph.get("lib/app/app.ts")?.includes("manifest.lazy.gen.ts"), "project imports are edges");
  const found = cycles(graph);
  assert.deepEqual(found, [], `import cycles:\n  ${found.join("\n  ")}`);
});

Deno.test("module graph: the cycle finder names the chain, type-only imports included", () => {
  const graph = new Map([
    ["a.ts", ["b.ts"]],
    ["b.ts", ["c.ts"]],
    ["c.ts", ["a.ts", "d.ts"]],
    ["d.ts", []],
    ["e.ts", ["e.ts"]],
  ]);
  assert.deepEqual(cycles(graph), ["a.ts → b.ts → c.ts → a.ts", "e.ts → e.ts"]);
  assert.deepEqual(cycles(new Map([["a.ts", ["b.ts"]], ["b.ts", []]])), []);
});

// ---- The layers of lib/ (lib/README.md) --------------------------------------------------------------

/**
 * Each layer's rank: a file imports files of its own rank or lower, never higher. `lib/shared/` is the
 * bottom (it runs in browsers and imports nothing outside itself); `lib/core/` and `lib/framework/`
 * hold no product concept; `lib/storage/` keeps the records; a concept (`lib/<concept>/`) is the
 * product; `lib/http/` adapts concepts to HTTP; `lib/app/`, `routes/` and `components/` compose.
 */
const RANKS: [RegExp, number, string][] = [
  // The front desk page's client (`lib/desk/`, issue 28) runs in browsers as `lib/shared/` does.
  [/^lib\/(shared|desk)\//, 0, "shared"],
  [/^lib\/(core|framework)\//, 1, "core"],
  [/^lib\/storage\//, 2, "storage"],
  [/^lib\/http\//, 4, "http"],
  [/^(lib\/app\/|routes\/|components\/)/, 5, "app"],
  [/^lib\/[^/]+\//, 3, "concept"],
];

/** A test, a fixture or a generated manifest: outside the layers (they may import anything). */
const unchecked = (file: string) =>
  /_test\.tsx?$/.test(file) || /\.gen\.ts$/.test(file) || !/^(lib|routes|components|islands)\//.test(file);

const rank = (file: string) => RANKS.find(([pattern]) => pattern.test(file));

/** A concept's folder (`lib/refunds/`), or null for a layer that is not a concept. */
export function conceptOf(file: string): string | null {
  const r = rank(file);
  return r?.[2] === "concept" ? file.split("/").slice(0, 2).join("/") + "/" : null;
}

/** Each edge that goes up the layers, or out of `lib/shared/`: `from → to (shared → core)`. */
export function layerViolations(graph: Map<string, string[]>): string[] {
  const found: string[] = [];
  for (const [from, targets] of graph) {
    if (unchecked(from)) continue;
    const a = rank(from);
    if (!a) continue;
    for (const to of targets) {
      const b = rank(to);
      const outOfShared = a[2] === "shared" && b?.[2] !== "shared";
      if (outOfShared || (b && b[1] > a[1])) {
        found.push(`${from} → ${to} (${a[2]} → ${b?.[2] ?? "outside lib/"})`);
      }
    }
  }
  return found.sort();
}

/** Each import of another concept's file other than its `mod.ts`. */
export function conceptViolations(graph: Map<string, string[]>): string[] {
  const found: string[] = [];
  for (const [from, targets] of graph) {
    const own = conceptOf(from);
    if (unchecked(from) || own === null) continue;
    for (const to of targets) {
      const other = conceptOf(to);
      if (other !== null && other !== own && to !== `${other}mod.ts`) found.push(`${from} → ${to}`);
    }
  }
  return found.sort();
}

/** Who may import the composition (`lib/app/`): itself, the routes, the entry points, tests, benches, scripts. */
const MAY_IMPORT_APP = /^(lib\/app\/|routes\/|main\.ts$|dev\.ts$|tests\/|bench\/|scripts\/)|_test\.tsx?$/;

/** Each import of `lib/app/` from anywhere else. */
export function appViolations(graph: Map<string, string[]>): string[] {
  const found: string[] = [];
  for (const [from, targets] of graph) {
    if (MAY_IMPORT_APP.test(from)) continue;
    for (const to of targets) if (to.startsWith("lib/app/")) found.push(`${from} → ${to}`);
  }
  return found.sort();
}

/** Each import by an island (its tests aside) of anything but `islands/` and `lib/shared/`, types included. */
export function islandViolations(graph: Map<string, string[]>): string[] {
  const found: string[] = [];
  for (const [from, targets] of graph) {
    if (!from.startsWith("islands/") || /_test\.tsx?$/.test(from)) continue;
    for (const to of targets) {
      const client = ["islands/", "lib/shared/", "lib/desk/"].some((folder) => to.startsWith(folder));
      if (!client) found.push(`${from} → ${to}`);
    }
  }
  return found.sort();
}

/**
 * What the rules still find in the real graph and a later change is to remove (each with its reason).
 * The test fails when one of these is gone, so the list only shrinks.
 */
const KNOWN: string[] = [
  // Empty: the last four (two components and the admin role guard typed on the app's state) were
  // fixed by naming what they read; the guard is generic in lib/http/, fixed to the app's state in
  // lib/app/with_roles.ts. A new entry needs its reason here.
];

const RULES = { layerViolations, conceptViolations, appViolations, islandViolations };

Deno.test("module graph: lib/'s layers, concepts through their mod.ts, lib/app/ for composition, islands on shared", async () => {
  const graph = await moduleGraph();
  const all = Object.entries(RULES).flatMap(([, rule]) => rule(graph));
  const added = all.filter((v) => !KNOWN.includes(v));
  const gone = KNOWN.filter((v) => !all.includes(v));
  assert.deepEqual(added, [], `rules broken:\n  ${added.join("\n  ")}`);
  assert.deepEqual(gone, [], `no longer broken, remove from KNOWN:\n  ${gone.join("\n  ")}`);
});

Deno.test("module graph: each rule refuses a planted violation and accepts the same graph without it", () => {
  const base: [string, string[]][] = [
    ["lib/shared/money.ts", []],
    ["lib/core/log.ts", ["lib/shared/money.ts"]],
    ["lib/storage/types.ts", ["lib/core/log.ts"]],
    ["lib/refunds/mod.ts", ["lib/refunds/refunds.ts"]],
    ["lib/refunds/refunds.ts", ["lib/storage/types.ts", "lib/core/log.ts"]],
    ["lib/receipts/issue.ts", ["lib/refunds/mod.ts"]],
    ["lib/http/errors.ts", ["lib/refunds/mod.ts"]],
    ["lib/app/app.ts", ["lib/http/errors.ts", "lib/receipts/issue.ts"]],
    ["routes/api/x.ts", ["lib/app/app.ts", "lib/http/errors.ts", "lib/refunds/refunds.ts"]],
    ["components/Page.tsx", ["lib/http/errors.ts"]],
    ["islands/Form.tsx", ["islands/shared/api.ts", "lib/shared/money.ts"]],
    ["islands/shared/api.ts", []],
    ["lib/refunds/refunds_test.ts", ["lib/app/app.ts", "lib/receipts/issue.ts"]],
    ["islands/Form_test.tsx", ["lib/core/log.ts"]],
    ["main.ts", ["lib/app/app.ts"]],
  ];
  const clean = new Map(base);
  for (const rule of Object.values(RULES)) assert.deepEqual(rule(clean), [], rule.name);
  const planted = (from: string, to: string) => {
    const graph = new Map(clean);
    graph.set(from, [...(graph.get(from) ?? []), to]);
    return graph;
  };
  // Up the layers: core → storage, storage → concept, concept → http, http → app; shared → core.
  assert.deepEqual(layerViolations(planted("lib/core/log.ts", "lib/storage/types.ts")), [
    "lib/core/log.ts → lib/storage/types.ts (core → storage)",
  ]);
  assert.deepEqual(layerViolations(planted("lib/storage/types.ts", "lib/refunds/mod.ts")), [
    "lib/storage/types.ts → lib/refunds/mod.ts (storage → concept)",
  ]);
  assert.deepEqual(layerViolations(planted("lib/refunds/refunds.ts", "lib/http/errors.ts")), [
    "lib/refunds/refunds.ts → lib/http/errors.ts (concept → http)",
  ]);
  assert.deepEqual(layerViolations(planted("lib/http/errors.ts", "routes/api/x.ts")), [
    "lib/http/errors.ts → routes/api/x.ts (http → app)",
  ]);
  assert.deepEqual(layerViolations(planted("lib/shared/money.ts", "lib/core/log.ts")), [
    "lib/shared/money.ts → lib/core/log.ts (shared → core)",
  ]);
  assert.deepEqual(layerViolations(planted("lib/shared/money.ts", "locales/en.json")), [
    "lib/shared/money.ts → locales/en.json (shared → outside lib/)",
  ]);
  // Another concept's inside, not its mod.ts.
  assert.deepEqual(conceptViolations(planted("lib/receipts/issue.ts", "lib/refunds/refunds.ts")), [
    "lib/receipts/issue.ts → lib/refunds/refunds.ts",
  ]);
  // The composition, from a concept, the HTTP layer or a component.
  assert.deepEqual(appViolations(planted("lib/refunds/refunds.ts", "lib/app/app.ts")), [
    "lib/refunds/refunds.ts → lib/app/app.ts",
  ]);
  assert.deepEqual(appViolations(planted("components/Page.tsx", "lib/app/app.ts")), [
    "components/Page.tsx → lib/app/app.ts",
  ]);
  // An island reaching past islands/ and lib/shared/ (a type import is an edge too).
  assert.deepEqual(islandViolations(planted("islands/Form.tsx", "lib/refunds/refunds.ts")), [
    "islands/Form.tsx → lib/refunds/refunds.ts",
  ]);
  assert.deepEqual(islandViolations(planted("islands/shared/api.ts", "lib/core/log.ts")), [
    "islands/shared/api.ts → lib/core/log.ts",
  ]);
});
