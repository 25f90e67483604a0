import { useEffect, useState } from "preact/hooks";

/** How far the page must be scrolled before the button shows, in CSS pixels (spec section 9). */
export const SCROLL_THRESHOLD = 200;

/**
 * The scroll-to-top button: hidden until the page is scrolled past 200 px; bottom-left in
 * left-to-right languages and bottom-right in right-to-left ones (CSS logical properties).
 * Uses `preact/hooks` rather than `react` to keep the shell's JavaScript small.
 */
export default function ScrollToTop(props: { label: string }) {
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const update = () => setVisible(globalThis.scrollY > SCROLL_THRESHOLD);
    update();
    addEventListener("scroll", update, { passive: true });
    return () => removeEventListener("scroll", update);
  }, []);
  const toTop = () => {
    const reduce = matchMedia("(prefers-reduced-motion: reduce)").matches;
    scrollTo({ top: 0, behavior: reduce ? "auto" : "smooth" });
    document.getElementById("top")?.querySelector<HTMLElement>("a")?.focus({ preventScroll: true });
  };
  return (
    <button
      type="button"
      class="scroll-top"
      aria-label={props.label}
      title={props.label}
      hidden={!visible}
      onClick={toTop}
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" width="24" height="24">
        <path d="M12 5l-7 7 1.4 1.4 4.6-4.6V19h2V8.8l4.6 4.6L19 12z" fill="currentColor" />
      </svg>
    </button>
  );
}
