/**
 * Page rendering: the page inside its layouts, then the app shell around it, then one module
 * script (carrying the CSP nonce) that loads only the islands this page rendered. A page without
 * islands gets no script tag at all.
 *
 * @module
 */
import { type ComponentType, h } from "preact";
import { renderToString } from "preact-render-to-string";
import { ASSET_PREFIX, currentBuild } from "./assets.ts";
import { collect } from "./islands.ts";
import type { LayoutProps, PageProps } from "./types.ts";

const SLOT = "<x-page-slot></x-page-slot>";
const Slot = () => h("x-page-slot", null);

/** What {@link renderPage} needs. */
export interface RenderInput {
  app?: ComponentType<LayoutProps>;
  /** Outermost first. */
  layouts: ComponentType<LayoutProps>[];
  page: ComponentType<PageProps>;
  props: PageProps;
  /** The CSP nonce of this response, put on the island script. */
  nonce?: string;
}

/**
 * Renders a full HTML document.
 *
 * @example
 * ```ts
 * const html = renderPage({ app: App, layouts: [Layout], page: Success, props, nonce });
 * ```
 */
export function renderPage(input: RenderInput): string {
  const { props } = input;
  let Inner: ComponentType = () => h(input.page, props);
  for (const Layout of [...input.layouts].reverse()) {
    const Wrapped: ComponentType = Inner;
    Inner = () => h(Layout, { ...props, Component: Wrapped });
  }
  const { value: body, collected } = collect(() => renderToString(h(Inner, null)));
  let html = body;
  if (input.app) {
    const shell = collect(() =>
      renderToString(h(input.app!, { ...props, Component: Slot })), collected).value;
    const at = shell.indexOf(SLOT);
    if (at < 0) throw new Error("routes/_app.tsx must render <Component />");
    html = shell.slice(0, at) + body + shell.slice(at + SLOT.length);
  }
  if (collected.islands.size > 0) {
    const script = islandScript([...collected.islands], input.nonce);
    const end = html.lastIndexOf("</body>");
    html = end < 0 ? html + script : html.slice(0, end) + script + html.slice(end);
  }
  return "<!DOCTYPE html>" + html;
}

/**
 * The single inline module script that imports the client runtime and the page's islands.
 *
 * @example
 * ```ts
 * islandScript(["ScrollToTop"], "abc"); // <script type="module" nonce="abc">import{boot as b}…</script>
 * ```
 */
export function islandScript(names: string[], nonce?: string): string {
  const { manifest } = currentBuild();
  const imports = names.map((name, i) => {
    const file = manifest.islands[name];
    if (!file) throw new Error(`island ${name} is not in the build; run deno task build`);
    return `import i${i} from"${ASSET_PREFIX}${file}";`;
  });
  const map = names.map((name, i) => `${name}:i${i}`).join(",");
  const nonceAttr = nonce ? ` nonce="${nonce.replace(/[^A-Za-z0-9+/=_-]/g, "")}"` : "";
  return `<script type="module"${nonceAttr}>import{boot as b}from"${ASSET_PREFIX}${manifest.client}";` +
    `${imports.join("")}b({${map}})</script>`;
}
