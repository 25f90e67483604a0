/**
 * Whether a page fits its window: {@link overflows} measures, in the page, every element that is on
 * screen and answers one line for each that is wider than its container or the window, so a browser
 * test can `assert.deepEqual(await overflows(page), [])` and read from the diff which element it is.
 *
 * An element does not fit when
 * - it scrolls or clips sideways: its content is wider than its box (`scrollWidth > clientWidth`),
 *   whatever its `overflow` says (a scroll box nobody sees, a cell whose text runs into the next);
 * - it sticks out of its parent's box at either side (the inline start too, which `scrollWidth`
 *   does not count), unless it is positioned out of the flow;
 * - it sticks out of the window at either side;
 * - the page itself scrolls sideways.
 *
 * What is not on screen is not measured: `display: none`, `visibility: hidden`, no box at all, and
 * visually hidden text (clipped to a pixel for screen readers). A text field's value may scroll
 * inside it; an SVG shape is measured against its drawing.
 *
 * @module
 */
import type { Page } from "playwright-core";

/** How many pixels of rounding an edge may be off. */
export const SLACK = 1;

/**
 * One line per element of `page` that does not fit (see the module doc), at most `limit` (the first
 * in document order: a child of a too-wide element is usually too wide as well).
 *
 * @example
 * ```ts
 * await page.setViewportSize({ width: 390, height: 844 });
 * assert.deepEqual(await overflows(page), [], "en, 390 px");
 * ```
 */
export function overflows(page: Page, limit = 12): Promise<string[]> {
  return page.evaluate(({ slack, limit }) => {
    const problems: string[] = [];
    const width = document.documentElement.clientWidth;
    const name = (el: Element): string => {
      const one = (e: Element) =>
        e.tagName.toLowerCase() + (e.id ? `#${e.id}` : "") +
        [...e.classList].slice(0, 2).map((c) => `.${c}`).join("");
      const path = [one(el)];
      for (let up = el.parentElement; up && path.length < 4 && up !== document.body; up = up.parentElement) {
        path.unshift(one(up));
        if (up.id) break;
      }
      const text = (el.textContent ?? "").replace(/\s+/g, " ").trim().slice(0, 40);
      return `${path.join(" > ")}${text ? ` ("${text}")` : ""}`;
    };
    const hidden = (el: Element, style: CSSStyleDeclaration) =>
      style.display === "none" || style.visibility === "hidden" ||
      (style.clipPath !== "none" && el.getBoundingClientRect().width <= 1) ||
      (style.position === "absolute" && style.overflow === "hidden" && el.getBoundingClientRect().width <= 1);
    const html = document.documentElement;
    if (html.scrollWidth > html.clientWidth + slack) {
      problems.push(
        `the page scrolls sideways: ${html.scrollWidth} px wide in a ${html.clientWidth} px window`,
      );
    }
    // Inside an element already reported as too wide, only what is too wide itself is reported:
    // that its children stick out of the window follows.
    const walk = (el: Element, inWide: boolean) => {
      if (problems.length >= limit) return;
      const style = getComputedStyle(el);
      if (hidden(el, style)) return;
      const box = el.getBoundingClientRect();
      let wide = inWide;
      if (box.width > 0 || box.height > 0) {
        // A field's own text scrolls inside it (as it should); an SVG shape has no box of its own.
        const scrolls = !(el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) &&
          !(el instanceof SVGElement && !(el instanceof SVGSVGElement));
        if (scrolls && el.clientWidth > 0 && el.scrollWidth > el.clientWidth + slack) {
          problems.push(`${name(el)}: content ${el.scrollWidth} px wide in a ${el.clientWidth} px box`);
          wide = true;
        } else if (inWide) {
          // Reported with the element it sticks out of.
        } else if (box.left < -slack || box.right > width + slack) {
          problems.push(
            `${name(el)}: ${Math.round(box.left)}–${
              Math.round(box.right)
            } px, outside the ${width} px window`,
          );
        } else {
          // An SVG shape's container is its drawing (a group is as wide as what it holds).
          const parent = el instanceof SVGElement && !(el instanceof SVGSVGElement)
            ? el.ownerSVGElement
            : el.parentElement;
          const inFlow = style.position !== "absolute" && style.position !== "fixed";
          if (
            parent && inFlow && parent !== document.body && getComputedStyle(parent).display !== "contents"
          ) {
            const outer = parent.getBoundingClientRect();
            if (box.left < outer.left - slack || box.right > outer.right + slack) {
              problems.push(
                `${name(el)}: ${Math.round(box.left)}–${Math.round(box.right)} px, outside its parent's ` +
                  `${Math.round(outer.left)}–${Math.round(outer.right)} px`,
              );
              wide = true;
            }
          }
        }
      }
      for (const child of el.children) walk(child, wide);
    };
    walk(document.body, false);
    return problems.slice(0, limit);
  }, { slack: SLACK, limit });
}

/**
 * The cells of `page`'s tables shown as cards (a row displayed as a block, on a phone) that show no
 * label: a cell with a value but no `data-label`, in a row with no cell across columns. One line
 * each, naming the table's caption and the cell's text.
 *
 * @example
 * ```ts
 * assert.deepEqual(await unlabelledCards(page), []);
 * ```
 */
export function unlabelledCards(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const lines: string[] = [];
    for (const row of document.querySelectorAll("tbody > tr, tfoot > tr")) {
      if (getComputedStyle(row).display !== "block" || row.querySelector("[colspan]")) continue;
      for (const cell of row.children) {
        const label = getComputedStyle(cell, "::before").content;
        if (cell.textContent?.trim() && (!cell.getAttribute("data-label") || label === "none")) {
          const caption = row.closest("table")?.querySelector("caption")?.textContent ?? "";
          lines.push(`${caption}: "${cell.textContent.trim().slice(0, 30)}" has no label`);
        }
      }
    }
    return lines.slice(0, 10);
  });
}
