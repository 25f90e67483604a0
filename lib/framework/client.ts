/**
 * Islands in the browser: hydrates every `<x-island>` marker with the component the page's entry
 * script imported. This file is bundled for the browser; it must stay tiny and import only Preact (and its JSX runtime).
 *
 * @module
 */
import { type ComponentType, hydrate } from "preact";
// The JSX runtime's `jsx`, not `h`: every island imports it, so with the runtime importing it too
// the build puts it in the one chunk every page loads (Preact's), not in a file of its own.
import { jsx } from "preact/jsx-runtime";

/**
 * Hydrates the islands present on the page.
 *
 * @example
 * ```ts
 * // The page's one inline module script (it carries the CSP nonce):
 * import { boot } from "/_app/client-HASH.js";
 * import ScrollToTop from "/_app/ScrollToTop-HASH.js";
 * boot({ ScrollToTop });
 * ```
 */
export function boot(islands: Record<string, ComponentType>): void {
  for (const el of document.querySelectorAll<HTMLElement>("x-island")) {
    const Island = islands[el.dataset.island ?? ""];
    if (!Island) continue;
    hydrate(jsx(Island, JSON.parse(el.dataset.props ?? "{}")), el);
  }
}
