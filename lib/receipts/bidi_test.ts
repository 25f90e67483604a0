/** Visual order for the PDF: Hebrew reversed, numbers and Latin kept, brackets mirrored. */
import assert from "node:assert/strict";
import { visualOrder } from "./bidi.ts";

Deno.test("visualOrder: a right-to-left line keeps its numbers and Latin words left to right", () => {
  assert.equal(visualOrder("קבלה IL-2026-000123", "rtl"), "IL-2026-000123 הלבק");
  assert.equal(visualOrder("סכום: 180.50", "rtl"), "180.50 :םוכס");
  assert.equal(visualOrder("(בדיקה)", "rtl"), "(הקידב)");
  assert.equal(visualOrder("A gift to מוזיאון today", "ltr"), "A gift to ןואיזומ today");
  assert.equal(visualOrder("\u200f₪ 180.50\u200e", "rtl"), "180.50 ₪");
});
