import assert from "node:assert/strict";
import { translator } from "@/lib/core/i18n.ts";
import { statusText } from "./status_text.ts";

Deno.test("statusText: the catalogue's text for a code in the viewer's language", () => {
  assert.equal(statusText("033", "he"), translator("he")("transactionError.errors.033"));
  assert.match(statusText("033", "he"), /[\u05D0-\u05EA]/);
  assert.equal(statusText(" 036 ", "ru"), translator("ru")("transactionError.errors.036"));
  assert.equal(statusText("MISMATCH", "es"), translator("es")("transactionError.errors.MISMATCH"));
});

Deno.test("statusText: an unknown or empty code gets the generic text, never the code or a key", () => {
  for (const code of ["777", "", "abc", null]) {
    assert.equal(statusText(code, "he"), translator("he")("transactionError.default"), String(code));
    assert.ok(!statusText(code, "pt").startsWith("transactionError"), String(code));
  }
});
