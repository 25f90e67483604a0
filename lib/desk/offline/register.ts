/**
 * Registers the desk's service worker (`/desk-sw.js`, `lib/visits/desk_worker.ts`) for the desk
 * page alone: its scope is `/{lang}/desk`, so no other page of the product is ever served by it.
 * Only the desk page calls this.
 *
 * @module
 */

/**
 * Registers the worker for the desk of `lang`; answers false where the browser has no service
 * workers (then the desk works online only) or refused it.
 *
 * @example
 * ```ts
 * useEffect(() => void registerDeskWorker(lang), []);
 * ```
 */
export async function registerDeskWorker(lang: string): Promise<boolean> {
  if (!("serviceWorker" in navigator)) return false;
  try {
    await navigator.serviceWorker.register("/desk-sw.js", { scope: `/${lang}/desk` });
    return true;
  } catch {
    return false;
  }
}
