/**
 * The receipt's prepared font: parsed once per process, layouts kept, and laid out without glyph
 * positioning, which changes none of the glyphs pdf-lib draws (every text of a receipt in the five
 * languages, and names in each script, checked against fontkit's own layout).
 */
import assert from "node:assert/strict";
import fontkit from "@pdf-lib/fontkit";
import { RESOURCES } from "@/lib/i18n.ts";
import { receiptFontkit, receiptFonts } from "./fonts.ts";

/** Every text a receipt prints, in the five languages (`receipt`, `refunds`), and names. */
function texts(): string[] {
  const all: string[] = ["Ada Lovelace", "עדה לאבלייס", "Софья Ковалевская", "João Guimarães", "Iñés Muñoz"];
  const walk = (value: unknown) => {
    if (typeof value === "string") all.push(value);
    else if (value && typeof value === "object") Object.values(value).forEach(walk);
  };
  for (const lang of Object.values(RESOURCES)) walk([lang.receipt, lang.refunds]);
  return all;
}

Deno.test("receiptFontkit: each receipt font parsed once, its layouts kept; other fonts as fontkit parses them", async () => {
  const { regular, bold } = await receiptFonts();
  const font = receiptFontkit.create(regular);
  assert.equal(receiptFontkit.create(regular), font, "parsed once");
  assert.notEqual(receiptFontkit.create(bold), font);
  assert.equal(font.layout("Donation receipt"), font.layout("Donation receipt"), "laid out once");
  const copy = regular.slice();
  assert.notEqual(
    receiptFontkit.create(copy),
    receiptFontkit.create(copy),
    "not the receipt's bytes: not kept",
  );
});

Deno.test("receiptFontkit: laid out without positioning, every text has the glyphs fontkit gives it", async () => {
  const files = await receiptFonts();
  for (const bytes of [files.regular, files.bold]) {
    const prepared = receiptFontkit.create(bytes);
    const plain = fontkit.create(bytes);
    for (const text of texts()) {
      const ids = (font: typeof plain) => font.layout(text).glyphs.map((g) => g.id).join();
      const widths = (font: typeof plain) => font.layout(text).glyphs.reduce((w, g) => w + g.advanceWidth, 0);
      assert.equal(ids(prepared), ids(plain), text);
      assert.equal(widths(prepared), widths(plain), text);
    }
  }
});
