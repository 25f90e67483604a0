/**
 * Moves `lib/` files to their layer and concept (issue 25, `lib/README.md`) and rewrites every
 * reference to them in the repository, so the move can be redone after merging work written against
 * the old paths: `deno run -A scripts/relayout.ts [--dry]`, then `deno task build` (the manifests)
 * and `deno fmt`.
 *
 * - The moves are data: `scripts/relayout.json` maps old paths to new ones (`files`), and what else
 *   is found under an old folder (`folders`). A module's `_test.ts` follows it unless listed.
 * - Moves are `git mv`, so git sees renames.
 * - Every import specifier (static, dynamic, re-export, `typeof import()`) of a project file is
 *   written in the project's one style: `./x.ts` inside one folder, `@/path/x.ts` across folders.
 *   A `new URL("…", import.meta.url)` keeps a relative path, recomputed from the file's new place.
 * - Root-relative paths in strings and Markdown (`lib/app/app.ts` in a test, a README) follow the move,
 *   and so do folders (`lib/<old>/`, `lib/<old>/<sub>/`) of a moved `folders` entry, once they exist.
 *
 * Running it again changes nothing once everything is in place.
 *
 * @module
 */
import { dirname, join, normalize, relative } from "node:path";

const ROOT = new URL("../", import.meta.url).pathname.replace(/\/$/, "");
const dry = Deno.args.includes("--dry");
const SKIP =
  /^(node_modules|vendor|data|scratch|_build[^/]*|bench\/react-spa|bench\/lighthouse\/reports|\.git)(\/|$)/;

type Plan = { folders: Record<string, string>; files: Record<string, string> };
const plan: Plan = JSON.parse(await Deno.readTextFile(`${ROOT}/scripts/relayout.json`));

/** Every file of the repository (relative paths), minus dependencies and build output. */
async function walk(dir = "", out: string[] = []): Promise<string[]> {
  for await (const e of Deno.readDir(join(ROOT, dir))) {
    const path = dir ? `${dir}/${e.name}` : e.name;
    if (SKIP.test(path)) continue;
    if (e.isDirectory) await walk(path, out);
    else if (e.isFile) out.push(path);
  }
  return out;
}

/** Where an old path goes, or `undefined` when it stays. */
function destination(path: string): string | undefined {
  if (plan.files[path]) return plan.files[path];
  const test = path.match(/^(.*)_test(\.tsx?)$/);
  if (test) {
    const moved = plan.files[`${test[1]}.ts`] ?? plan.files[`${test[1]}.tsx`];
    if (moved) return moved.replace(/(\.tsx?)$/, `_test${test[2]}`);
  }
  for (const [from, to] of Object.entries(plan.folders)) {
    if (path.startsWith(from) && from !== to) return to + path.slice(from.length);
  }
  return undefined;
}

const before = await walk();
const moves = new Map<string, string>();
for (const path of before) {
  const to = destination(path);
  if (to && to !== path) moves.set(path, to);
}
const present = new Set(before.map((p) => moves.get(p) ?? p));
const origin = new Map([...moves].map(([from, to]) => [to, from]));
// Files moved by an earlier run: where they were, for the relative imports of work merged since.
const earlier = new Map(Object.entries(plan.files).map(([from, to]) => [to, from]));

// 1. The moves.
for (const [from, to] of moves) {
  console.log(`move ${from} → ${to}`);
  if (dry) continue;
  await Deno.mkdir(dirname(join(ROOT, to)), { recursive: true });
  const git = await new Deno.Command("git", { args: ["mv", from, to], cwd: ROOT }).output();
  if (!git.success) throw new Error(`git mv ${from} ${to}: ${new TextDecoder().decode(git.stderr)}`);
}

/** A target (old or new path) as it is after the move, if it is a file of the project. */
const resolveTarget = (old: string) => {
  const now = moves.get(old) ?? old;
  if (present.has(now)) return now;
  const planned = destination(old);
  return planned && present.has(planned) ? planned : undefined;
};

/** The one import style: `./x` inside a folder, `@/…` across folders. */
function importSpecifier(file: string, target: string): string {
  return dirname(file) === dirname(target) ? `./${target.slice(dirname(target).length + 1)}` : `@/${target}`;
}

function urlSpecifier(file: string, target: string): string {
  const rel = relative(dirname(file), target);
  return rel.startsWith(".") ? rel : `./${rel}`;
}

const IMPORT = /((?:\bfrom|\bimport|\bimport\s*\(|\bexport\s*\*\s*from)\s*)(["'])([^"'\n]+)\2/g;
const URL_ = /(new URL\(\s*)(["'])([^"'\n]+)\2(\s*,\s*import\.meta\.url)/g;
const ROOTED = /(["'`(\s])(lib\/[\w./-]+\.(?:tsx?|json))/g;
/** A folder written from the root (`lib/<name>/`, `lib/<name>/<sub>/`), not a file inside it. */
const ROOTED_FOLDER = /(["'`(\s])(lib\/[\w/-]+\/)(?![\w.-])/g;

/** Where a folder written from the root now is, when a moved `folders` entry holds it and it exists. */
function folderDestination(folder: string): string | undefined {
  for (const [from, to] of Object.entries(plan.folders)) {
    if (from === to || !folder.startsWith(from)) continue;
    const now = to + folder.slice(from.length);
    return [...present].some((p) => p.startsWith(now)) ? now : undefined;
  }
  return undefined;
}

let changed = 0;
for (const file of present) {
  if (!/\.(tsx?|md|json)$/.test(file) || /\.gen\.ts$/.test(file) || file === "scripts/relayout.json") {
    continue;
  }
  const path = join(ROOT, dry ? origin.get(file) ?? file : file);
  const was = origin.get(file) ?? file;
  const text = await Deno.readTextFile(path);
  let next = text;
  if (/\.tsx?$/.test(file)) {
    const resolveSpec = (spec: string) => {
      if (spec.startsWith("@/")) return resolveTarget(normalize(spec.slice(2)));
      if (!spec.startsWith("./") && !spec.startsWith("../")) return undefined;
      // Relative to where the file was before this run; failing that, before an earlier run.
      return resolveTarget(normalize(join(dirname(was), spec))) ??
        (earlier.has(file) ? resolveTarget(normalize(join(dirname(earlier.get(file)!), spec))) : undefined);
    };
    next = next.replace(IMPORT, (all, head, q, spec) => {
      const target = resolveSpec(spec);
      return target ? `${head}${q}${importSpecifier(file, target)}${q}` : all;
    });
    next = next.replace(URL_, (all, head, q, spec, tail) => {
      if (!spec.startsWith(".")) return all;
      const target = resolveTarget(normalize(join(dirname(was), spec)));
      if (!target) {
        // A folder or a file that is not ours (fonts, READMEs): keep pointing at the same place.
        if (was === file) return all;
        const abs = normalize(join(dirname(was), spec));
        const rel = relative(dirname(file), abs) || ".";
        const path = rel + (spec.endsWith("/") ? "/" : "");
        return `${head}${q}${path.startsWith(".") ? path : `./${path}`}${q}${tail}`;
      }
      return `${head}${q}${urlSpecifier(file, target)}${q}${tail}`;
    });
  }
  // Paths written from the root (`lib/app/app.ts` in a test's string, a README's link).
  next = next.replace(ROOTED, (all, head, p) => {
    const now = moves.get(p) ?? (present.has(p) ? undefined : destination(p));
    return now ? `${head}${now}` : all;
  });
  next = next.replace(ROOTED_FOLDER, (all, head, folder) => {
    const now = folderDestination(folder);
    return now ? `${head}${now}` : all;
  });
  if (next !== text) {
    changed++;
    if (!dry) await Deno.writeTextFile(path, next);
  }
}
console.log(`${moves.size} files moved, ${changed} files rewritten${dry ? " (dry run)" : ""}`);
