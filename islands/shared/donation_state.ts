/**
 * State the donation page's islands share (the contribution picker, the period tabs and the payment
 * form): the selection, and a counter that, when it changes, sends the payment form back to its
 * first step. A nested folder of `islands/` is not an island itself.
 *
 * A store of our own (a value and the components that read it) over `preact/hooks`, not
 * `@preact/signals` with `preact/compat`: those two cost the page about 4.5 KB of its 15 KB
 * JavaScript budget (issue 29, bench/README.md) for what these few lines do.
 *
 * On the server the islands render from their props only (module state would leak between
 * requests); in the browser the first island to render seeds the shared state from its props,
 * which every island of the page receives alike.
 *
 * @module
 */
import { useEffect, useState } from "preact/hooks";
import { EMPTY_SELECTION, type Selection } from "@/lib/shared/donation.ts";

let current: Selection = EMPTY_SELECTION;
let resets = 0;
/** Bumped on every change, so a component can tell it missed one between its render and its effect. */
let version = 0;
const readers = new Set<() => void>();
let seeded = false;
const inBrowser = typeof document !== "undefined";

function changed(): void {
  version++;
  readers.forEach((rerender) => rerender());
}

/** Re-renders the calling component whenever the shared state changes (browser only). */
function useShared(): void {
  const [seen, setSeen] = useState(version);
  useEffect(() => {
    const rerender = () => setSeen(version);
    readers.add(rerender);
    if (seen !== version) rerender();
    return () => void readers.delete(rerender);
  }, []);
}

/** The current selection: the props' on the server, the shared one in the browser (re-rendering on change). */
export function useSelection(initial: Selection): Selection {
  useShared();
  if (!inBrowser) return initial;
  if (!seeded) {
    seeded = true;
    current = initial;
  }
  return current;
}

/** The selection now (not as of the last render): for an event handler. */
export function selectionNow(): Selection {
  return current;
}

/** Changes the selection (browser only). */
export function setSelection(next: Partial<Selection>): void {
  current = { ...current, ...next };
  changed();
}

/** Sends the payment form back to its first step (a preset was chosen). */
export function resetForm(): void {
  resets++;
  changed();
}

/** How many times the form was sent back so far: a component re-runs an effect when it changes. */
export function useResets(): number {
  useShared();
  return resets;
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
