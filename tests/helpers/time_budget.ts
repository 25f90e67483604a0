/**
 * A time budget for work that must stay linear in its input (regular expressions and validators on
 * strings at the body limit): {@link LIMIT_MS} on an idle machine, or on a busy one {@link RELATIVE}
 * times a linear pass over the same string timed right then. A backtracking pattern takes seconds at
 * the body limit, thousands of such passes, while a stalled machine slows both alike (an absolute
 * 50 ms failed in CI on patterns that take 1 ms idle).
 *
 * @example
 * ```ts
 * const over = await overBudget("a-".repeat(32 * 1024), redactUrls);
 * assert.equal(over, null);
 * ```
 *
 * @module
 */

/** The most one pattern or validator may take on one adversarial string, on an idle machine. */
export const LIMIT_MS = 50;
/**
 * On a busy machine (CI runs two test files at once on two cores), the most one may take as a
 * multiple of a linear pass over the same string ({@link linearPass}) timed right then: a pattern
 * that backtracks takes seconds at the body limit, thousands of such passes, while a stalled
 * machine slows both alike. (An absolute 50 ms failed under load on patterns that take 1 ms.)
 */
const RELATIVE = 25;
/** Timings of one string at most, while over its budget: one stall of the machine is not the pattern. */
const ATTEMPTS = 5;

/** Work linear in the string's length that allocates as a replace does: the yardstick. */
const linearPass = (s: string) => s.split("").reverse().join("");

/** What `s` may take: {@link LIMIT_MS}, or more while a linear pass over it is slow (best of three). */
function budgetFor(s: string): number {
  let ms = Infinity;
  for (let attempt = 0; attempt < 3; attempt++) {
    const start = performance.now();
    linearPass(s);
    ms = Math.min(ms, performance.now() - start);
  }
  return Math.max(LIMIT_MS, RELATIVE * ms);
}

/**
 * `run`'s time on `s` and its budget when over it on each of {@link ATTEMPTS} timings (the budget
 * measured again after each, so it follows the machine's load), else null.
 */
export async function overBudget(
  s: string,
  run: (s: string) => unknown,
): Promise<{ ms: number; budget: number } | null> {
  let best: { ms: number; budget: number } | null = null;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const start = performance.now();
    await run(s);
    const ms = performance.now() - start;
    if (ms <= LIMIT_MS) return null;
    const budget = budgetFor(s);
    if (ms <= budget) return null;
    if (!best || ms / budget < best.ms / best.budget) best = { ms, budget };
  }
  return best;
}
