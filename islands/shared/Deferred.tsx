import { type ComponentChildren, Fragment, h, hydrate, render } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";

const SERVER = typeof document === "undefined";
/** True once the task that evaluated this module (and hydrated the page's islands) is over. */
let hydrated = SERVER;
if (!SERVER) setTimeout(() => (hydrated = true));

/**
 * Its children, rendered by the server with the page but hydrated in a task of their own, after
 * the page's hydration: a whole island's hydration is one task of the main thread, and a part
 * below the fold need not lengthen it. In that moment the server's markup shows, not yet
 * interactive, as before any hydration. Mounted later (not hydrating), it renders its children
 * as usual.
 *
 * Deferred, the children become a Preact root of their own inside this element: the island's tree
 * keeps the element's markup as it is (an empty `dangerouslySetInnerHTML` is never applied while
 * hydrating, nor when it stays the same), hydrates the children with the props the server
 * rendered, then renders them again whenever they change. `class` styles the wrapper element.
 *
 * @example
 * ```tsx
 * <Deferred class="admin-sections"><History ready={ready} /></Deferred>
 * ```
 */
export function Deferred(props: { class?: string; children: ComponentChildren }) {
  const [deferred] = useState(!hydrated);
  const host = useRef<HTMLDivElement>(null);
  // What the server rendered: hydration must meet the same markup.
  const first = useRef(props.children);
  const started = useRef(false);

  useEffect(() => {
    if (!deferred) return;
    const el = host.current!;
    if (started.current) {
      render(h(Fragment, null, props.children), el);
      return;
    }
    const timer = setTimeout(() => {
      started.current = true;
      hydrate(h(Fragment, null, first.current), el);
      if (props.children !== first.current) render(h(Fragment, null, props.children), el);
    });
    return () => clearTimeout(timer);
  }, [props.children]);

  // Unmounted with the island's tree: so is the root of the children (their effects clean up).
  useEffect(() => {
    const el = host.current;
    return () => {
      if (started.current && el) render(null, el);
    };
  }, []);

  if (SERVER || !deferred) return <div class={props.class}>{props.children}</div>;
  return <div class={props.class} ref={host} dangerouslySetInnerHTML={{ __html: "" }} />;
}
