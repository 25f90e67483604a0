/** Visual order for the PDF: Hebrew reversed, numbers and Latin kept, brackets mirrored, reordered once. */
import assert from "node:assert/strict";
import fontkit from "@pdf-lib/fontkit";
import { isolate } from "@/lib/shared/languages.ts";
import { receiptFonts } from "./fonts.ts";
import { visualFontkit, visualOrder } from "./bidi.ts";

Deno.test("visualOrder: a right-to-left line keeps its numbers and Latin words left to right", () => {
  assert.equal(visualOrder("קבלה IL-2026-000123", "rtl"), "IL-2026-000123 הלבק");
  assert.equal(visualOrder("סכום: 180.50", "rtl"), "180.50 :םוכס");
  assert.equal(visualOrder("(בדיקה)", "rtl"), "(הקידב)");
  assert.equal(visualOrder("A gift to מוזיאון today", "ltr"), "A gift to ןואיזומ today");
  assert.equal(visualOrder("\u200f₪ 180.50\u200e", "rtl"), "180.50 ₪");
  assert.equal(visualOrder("29 במאי 2026", "rtl"), "2026 יאמב 29");
});

Deno.test("visualOrder: a value isolated in a line takes its own direction", () => {
  // A Latin address on a Hebrew receipt reads left to right, its number first.
  assert.equal(visualOrder("1 Museum Road", "rtl"), "Museum Road 1");
  assert.equal(visualOrder(isolate("1 Museum Road"), "rtl"), "1 Museum Road");
  // An English name inside a Hebrew sentence, the sentence's full stop at its end (the left).
  assert.equal(
    visualOrder(`תרומה ל${isolate("Example Museum, Inc.")}.`, "rtl"),
    ".Example Museum, Inc.ל המורת",
  );
  // A Hebrew name on an English receipt.
  assert.equal(visualOrder(isolate("עדה לאבלייס"), "ltr"), "סיילבאל הדע");
});

Deno.test("visualOrder: a letter keeps its points after it, a surrogate pair stays whole", () => {
  assert.equal(visualOrder("שָׁלוֹם", "rtl"), "םוֹלשָׁ");
  assert.equal(visualOrder("תודה 😀 רבה", "rtl"), "הבר 😀 הדות");
});

Deno.test("visualFontkit: lays out a Hebrew string in the order given; fontkit alone reverses it", async () => {
  const { regular } = await receiptFonts();
  const codes = (font: ReturnType<typeof fontkit.create>) =>
    font.layout("אב 12").glyphs.map((g) => String.fromCodePoint(...g.codePoints)).join("");
  assert.equal(codes(visualFontkit.create(regular)), "אב 12");
  assert.equal(codes(fontkit.create(regular)), "21 בא");
});
