/**
 * Islands on the server: a component from `islands/` renders inside an `<x-island>` marker that
 * carries its name and its JSON-serialized props, and the page records which islands it used so it
 * loads only those. The browser side is `client.ts`.
 *
 * Marking works like Fresh 1.x: a Preact `options.vnode` hook swaps an island component for a
 * wrapper when a vnode is created. An island rendered inside another island is left alone, because
 * the outer one hydrates the whole subtree.
 *
 * @module
 */
import { type ComponentType, createContext, h, options, type VNode } from "preact";
import { useContext } from "preact/hooks";

/** What one page render collects: the islands it used and the `<Head>` children of the page. */
export interface RenderCollector {
  islands: Set<string>;
  head: VNode[];
  title?: string;
}

let current: RenderCollector | null = null;

/**
 * Runs a synchronous render with a fresh collector. Rendering to a string is synchronous, so a
 * module-level slot is safe: no other render can interleave.
 *
 * @example
 * ```ts
 * const { value: html, collected } = collect(() => renderToString(<Page />));
 * collected.islands; // Set { "LanguageSelector" }
 * ```
 */
export function collect<T>(fn: () => T, into: RenderCollector = { islands: new Set(), head: [] }): {
  value: T;
  collected: RenderCollector;
} {
  const previous = current;
  current = into;
  try {
    return { value: fn(), collected: into };
  } finally {
    current = previous;
  }
}

/** The collector of the render in progress, or `null` outside a render. */
export function currentCollector(): RenderCollector | null {
  return current;
}

const InIsland = createContext(false);
// Bound: one entry per island component of the build (21 today), in each map.
const names = new Map<ComponentType, string>();
const wrappers = new Map<ComponentType, ComponentType>();

/**
 * Registers the islands of the manifest so that rendering them marks them. Call once at start.
 *
 * @example
 * ```ts
 * registerIslands({ ScrollToTop: await import("@/islands/ScrollToTop.tsx") });
 * ```
 */
// deno-lint-ignore no-explicit-any
export function registerIslands(islands: Record<string, { default: ComponentType<any> }>): void {
  for (const [name, mod] of Object.entries(islands)) {
    if (typeof mod.default !== "function") {
      throw new Error(`islands/${name}: default export must be a component`);
    }
    names.set(mod.default, name);
    wrappers.set(mod.default, makeWrapper(name, mod.default));
  }
}

function makeWrapper(name: string, Island: ComponentType): ComponentType {
  // deno-lint-ignore no-explicit-any
  const Wrapper = (props: any) => {
    const inner = original(Island, props);
    if (useContext(InIsland)) return inner;
    current?.islands.add(name);
    return h(
      "x-island",
      { "data-island": name, "data-props": serializeProps(name, props) },
      h(InIsland.Provider, { value: true }, inner),
    );
  };
  Wrapper.displayName = `Island(${name})`;
  return Wrapper;
}

/**
 * Serializes island props to JSON and refuses what cannot cross to the browser (functions,
 * JSX children, class instances), with the island's name in the message. Signals go by value.
 *
 * @example
 * ```ts
 * serializeProps("Counter", { start: 3 }); // '{"start":3}'
 * ```
 */
export function serializeProps(name: string, props: Record<string, unknown>): string {
  return JSON.stringify(props, (key, value) => {
    if (typeof value === "function") {
      throw new Error(`island ${name}: prop "${key}" is a function; island props must be JSON-serializable`);
    }
    if (value && typeof value === "object" && "__k" in value && "type" in value) {
      throw new Error(`island ${name}: prop "${key}" is JSX; island props must be JSON-serializable`);
    }
    return value;
  });
}

// While the wrapper creates the vnode of the island itself, the hook below must not swap it again.
let creatingOriginal = false;
function original(Island: ComponentType, props: Record<string, unknown>): VNode {
  creatingOriginal = true;
  try {
    return h(Island, props);
  } finally {
    creatingOriginal = false;
  }
}

// Swap island components for their marking wrapper as vnodes are created (server only).
const previousVnode = options.vnode;
options.vnode = (vnode) => {
  if (!creatingOriginal && typeof vnode.type === "function") {
    const wrapper = wrappers.get(vnode.type as ComponentType);
    if (wrapper) (vnode as { type: unknown }).type = wrapper;
  }
  previousVnode?.(vnode);
};
