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
