/**
 * State the donation page's islands share (the contribution picker and the payment form): the
 * selection and a counter that, when it changes, sends the payment form back to its first step.
 * A nested folder of `islands/` is not an island itself.
 *
 * On the server the islands render from their props only (module state would leak between
 * requests); in the browser the first island to render seeds the shared state from its props,
 * which every island of the page receives alike.
 *
 * @module
 */
import { signal } from "@preact/signals";
import { EMPTY_SELECTION, type Selection } from "@/lib/shared/donation.ts";

/** The contribution selection. */
export const selection = signal<Selection>(EMPTY_SELECTION);
/** Bumped when the payment form must return to its first step (a preset was chosen). */
export const resetForm = signal(0);

let seeded = false;
const inBrowser = typeof document !== "undefined";

/** The current selection: the props' on the server, the shared one in the browser. */
export function useSelection(initial: Selection): Selection {
  if (!inBrowser) return initial;
  if (!seeded) {
    seeded = true;
    selection.value = initial;
  }
  return selection.value;
}

/** Changes the selection (browser only). */
export function setSelection(next: Partial<Selection>): void {
  selection.value = { ...selection.value, ...next };
}

/**
 * Scrolls the payment section into view (smoothly, unless the donor prefers reduced motion) and
 * moves focus to its heading, so a screen reader continues from there.
 */
export function scrollToPayment(): void {
  const target = document.getElementById("payment");
  if (!target) return;
  const reduce = matchMedia("(prefers-reduced-motion: reduce)").matches;
  target.scrollIntoView({ behavior: reduce ? "auto" : "smooth", block: "start" });
  document.getElementById("payment-title")?.focus({ preventScroll: true });
}
