/**
 * `<Head>`: lets a page set the document title and put elements (a meta description, a canonical
 * link) into the head. The page body renders before the app shell, so what a page gives here is
 * known when the shell writes `<head>`.
 *
 * @module
 */
import { type ComponentChildren, h, toChildArray, type VNode } from "preact";
import { currentCollector } from "./islands.ts";

/**
 * Sets the page's title and collects its children for the document head; renders nothing in place.
 *
 * @example
 * ```tsx
 * <Head title={t("notFound.title")}><meta name="robots" content="noindex" /></Head>
 * ```
 */
export function Head(props: { title?: string; children?: ComponentChildren }): null {
  const collector = currentCollector();
  if (collector) {
    if (props.title !== undefined) collector.title = props.title;
    for (const child of toChildArray(props.children)) {
      if (typeof child === "object") collector.head.push(child as VNode);
    }
  }
  return null;
}

/**
 * Renders the title and what pages put in `<Head>`; used once, by the app shell. When no page set
 * a title, `fallbackTitle` is used.
 *
 * @example
 * ```tsx
 * <head><HeadOutlet fallbackTitle="Museum Donations" /></head>
 * ```
 */
export function HeadOutlet(props: { fallbackTitle: string }): VNode[] {
  const collector = currentCollector();
  return [h("title", null, collector?.title ?? props.fallbackTitle), ...(collector?.head ?? [])];
}
