import { Component, type ComponentChildren, h, hydrate, render } from "preact";
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
 * rendered, then renders them again whenever they change. `class` styles the wrapper element. The
 * root keeps the contexts of the place the children are written (as a portal does: e.g. the
 * island's dates, `islands/shared/dates.tsx`), through {@link ContextBridge}.
 *
 * @example
 * ```tsx
 * <Deferred class="admin-sections"><History ready={ready} /></Deferred>
 * ```
 */
export function Deferred(props: { class?: string; children: ComponentChildren }, context?: object) {
  const [deferred] = useState(!hydrated);
  const host = useRef<HTMLDivElement>(null);
  // What the server rendered: hydration must meet the same markup.
  const first = useRef(props.children);
  const started = useRef(false);
  // The children in their own root, with the contexts given here (Preact passes a function
  // component its providers as its second argument).
  const bridged = (children: ComponentChildren) => h(ContextBridge, { context: context ?? {} }, children);

  useEffect(() => {
    if (!deferred) return;
    const el = host.current!;
    if (started.current) {
      render(bridged(props.children), el);
      return;
    }
    const timer = setTimeout(() => {
      started.current = true;
      hydrate(bridged(first.current), el);
      if (props.children !== first.current) render(bridged(props.children), el);
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

/**
 * Hands `context` (the providers above a {@link Deferred}) to the children of its own root: a
 * Preact provider is found through the legacy child context, which this passes on as it is.
 */
class ContextBridge extends Component<{ context: object; children?: ComponentChildren }> {
  override getChildContext(): object {
    return this.props.context;
  }
  override render(): ComponentChildren {
    return this.props.children;
  }
}
