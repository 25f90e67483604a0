/** Browser tests: which of a page's text elements overlap on screen (`getBoundingClientRect()`). */
import type { Page } from "playwright-core";

/**
 * The pairs of elements matching `selector` whose boxes on screen overlap (each as its two texts),
 * and how many there are; an empty list when every label has its own room.
 */
export async function overlappingTexts(
  page: Page,
  selector: string,
): Promise<{ count: number; pairs: string[] }> {
  return await page.evaluate((selector) => {
    const boxes = [...document.querySelectorAll(selector)].map((e) => ({
      text: e.textContent ?? "",
      box: e.getBoundingClientRect(),
    }));
    const pairs: string[] = [];
    boxes.forEach((a, i) =>
      boxes.slice(i + 1).forEach((b) => {
        const apart = a.box.right <= b.box.left || b.box.right <= a.box.left ||
          a.box.bottom <= b.box.top || b.box.bottom <= a.box.top;
        if (!apart) pairs.push(`"${a.text}" / "${b.text}"`);
      })
    );
    return { count: boxes.length, pairs };
  }, selector);
}

/**
 * The smallest type on screen among the SVG text elements matching `selector`, in CSS pixels: each
 * one's font size times its SVG's scale (a chart drawn 720 units wide and shrunk to a phone's 358 px
 * shows 12-unit text at under 6 px), and that element's text.
 */
export async function smallestSvgText(page: Page, selector: string): Promise<{ px: number; text: string }> {
  return await page.evaluate((selector) => {
    let smallest = { px: Infinity, text: "" };
    for (const element of document.querySelectorAll<SVGTextElement>(selector)) {
      const scale = element.getScreenCTM()?.a ?? 1;
      const px = parseFloat(getComputedStyle(element).fontSize) * scale;
      if (px < smallest.px) smallest = { px: Math.round(px * 10) / 10, text: element.textContent ?? "" };
    }
    return smallest;
  }, selector);
}
