/**
 * Adversarial strings for regular expressions and validators: long runs and alternations of the
 * characters a pattern is made of, which is where backtracking patterns take quadratic or worse
 * time (`a@` + dots + `@` took the email pattern seconds). Shared by the pattern timing test
 * (`lib/app/input_patterns_test.ts`) and the fuzz suite's generators (`tests/reliability/fuzz_support.ts`).
 *
 * @module
 */

/** Characters every pattern is tried with: separators, spaces, letters, digits, RTL, emoji, a lone surrogate. */
export const BASE_CHARACTERS = [
  ".",
  "@",
  "a",
  "-",
  " ",
  "/",
  "0",
  ":",
  "=",
  "\t",
  "\u00e9",
  "\u05d0",
  "\u{1f600}",
  "\ud800",
];

// What a class shorthand stands for, so `\d+\s*` is tried with digits and spaces.
const SHORTHANDS: Record<string, string> = { d: "0", D: "x", s: " ", S: "x", w: "a", W: "!", b: "", B: "" };

/**
 * The characters a pattern's source is made of (shorthands stood for by one of theirs), at most
 * `max` of them.
 *
 * @example
 * ```ts
 * ownCharacters(String.raw`^[^\s@]+@`); // ["^", "[", " ", "@", "]", "+"]
 * ```
 */
export function ownCharacters(source: string, max = 10): string[] {
  const chars = new Set<string>();
  for (let i = 0; i < source.length && chars.size < max; i++) {
    const c = source[i];
    if (c === "\\" && i + 1 < source.length) {
      const next = source[++i];
      const stood = SHORTHANDS[next];
      if (stood !== undefined) {
        if (stood) chars.add(stood);
      } else if (!/[ux]/.test(next)) chars.add(next);
    } else if (!"()?|{}*".includes(c)) chars.add(c);
  }
  return [...chars];
}

/** The bytes one character takes in a JSON body (`\t` is `\\t`, a lone surrogate `\\ud800`). */
const jsonBytes = (c: string) => new TextEncoder().encode(JSON.stringify(c)).length - 2;

/** Which strings {@link adversarialStrings} makes. */
export interface AdversarialOptions {
  /** Also {@link BASE_CHARACTERS}, not only the pattern's own characters (default true). */
  base?: boolean;
  /** Also each pair of the pattern's own characters alternated (default true). */
  pairs?: boolean;
}

/**
 * Strings of at most `length` bytes in a JSON body, built to make a backtracking pattern slow: each
 * character repeated, each pair of the pattern's own characters alternated, and runs between a
 * prefix and a suffix that fail the match at the very end (`a@` + `.`… + `@`, `12` + ` `… + `x`).
 *
 * @example
 * ```ts
 * adversarialStrings(65536, String.raw`^[^\s@]+@[^\s@]+\.[^\s@]+$`).length; // about 150
 * ```
 */
export function adversarialStrings(length: number, source = "", options: AdversarialOptions = {}): string[] {
  const own = ownCharacters(source);
  const singles = [...new Set([...(options.base ?? true ? BASE_CHARACTERS : []), ...own])];
  const run = (c: string, room = length) => c.repeat(Math.max(1, Math.floor(room / jsonBytes(c))));
  const out = new Set<string>();
  for (const c of singles) {
    out.add("a@" + run(c, length - 4) + "@");
    out.add("12" + run(c, length - 4) + "x");
    out.add("/x" + run(c, length - 4) + "x");
    out.add(run(c, length - 4) + "\n!");
    out.add(run(c));
  }
  if (options.pairs ?? true) {
    for (const a of own) for (const b of own) if (a !== b) out.add(run(a + b, length - 2) + "!");
  }
  return [...out];
}
