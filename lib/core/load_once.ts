/**
 * A value loaded on first use (a module's `import()`, a document built from them): one shared
 * promise while it loads and after; a failed load is forgotten, so the next caller tries again
 * instead of every caller getting the same failure for the life of the process.
 *
 * @example
 * ```ts
 * const transport = loadOnce(() => import("./smtp.ts").then((m) => m.smtpTransport(url, from)));
 * await (await transport()).send(mail);
 * ```
 *
 * @module
 */

/** `load`, run at the first call and shared by every call after it; run again after a failure. */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | null = null;
  return () =>
    loading ??= load().catch((error) => {
      loading = null;
      throw error;
    });
}
