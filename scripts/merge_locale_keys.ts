/**
 * Merges keys into the locale files safely while several people edit them: reads
 * `{ "en": {...}, "he": {...}, ... }` (nested objects) from a JSON file given as the argument,
 * deep-merges each language's part into `locales/<lang>.json`, and rewrites those files at once,
 * keeping key order and two-space formatting.
 *
 * `deno run -A scripts/merge_locale_keys.ts /tmp/my-keys.json`
 *
 * @module
 */
type Tree = { [key: string]: string | Tree };

function merge(into: Tree, from: Tree): Tree {
  for (const [key, value] of Object.entries(from)) {
    const current = into[key];
    into[key] = typeof value === "object" && current && typeof current === "object"
      ? merge(current, value)
      : value;
  }
  return into;
}

const source = JSON.parse(await Deno.readTextFile(Deno.args[0])) as Record<string, Tree>;
const root = new URL("../locales/", import.meta.url);
for (const [lang, keys] of Object.entries(source)) {
  const file = new URL(`${lang}.json`, root);
  const current = JSON.parse(await Deno.readTextFile(file)) as Tree;
  await Deno.writeTextFile(file, JSON.stringify(merge(current, keys), null, 2) + "\n");
}
console.log(`merged ${Object.keys(source).join(", ")}`);
