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
 * graph.get("lib/app.ts"); // ["lib/config.ts", "manifest.lazy.gen.ts", …]
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
  assert.ok(graph.get("lib/app.ts")?.includes("manifest.lazy.gen.ts"), "project imports are edges");
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
