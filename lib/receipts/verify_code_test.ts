/** The receipt's signed verification code: made, read back, refused when tampered or foreign. */
import assert from "node:assert/strict";
import { newId } from "@/lib/ids.ts";
import { readReceiptCode, receiptCode, receiptVerifyUrl } from "./verify_code.ts";

const SECRET = "test-secret-that-is-long-enough-0123456789";

Deno.test("receiptCode: read back with the same secret; refused with another or when tampered", () => {
  const id = newId();
  const code = receiptCode(SECRET, id);
  assert.match(code, /^[A-Za-z0-9_-]{24}\.[A-Za-z0-9_-]{22}$/);
  assert.equal(readReceiptCode(SECRET, code), id);
  assert.equal(readReceiptCode(`${SECRET}x`, code), null, "another secret");
  const [codeId, mac] = code.split(".");
  const flipped = mac.slice(0, -1) + (mac.at(-1) === "A" ? "B" : "A");
  assert.equal(readReceiptCode(SECRET, `${codeId}.${flipped}`), null, "a changed MAC");
  const otherId = newId();
  assert.equal(readReceiptCode(SECRET, `${otherId}.${mac}`), null, "a MAC moved to another id");
  for (
    const bad of [null, undefined, "", ".", codeId, `${codeId}.`, `${code}x`, `../${code}`, "x".repeat(200)]
  ) {
    assert.equal(readReceiptCode(SECRET, bad), null, String(bad));
  }
});

Deno.test("receiptVerifyUrl: the language's page with the code as its query", () => {
  assert.equal(
    receiptVerifyUrl("https://donate.museum.org/", "he", "abc.def"),
    "https://donate.museum.org/he/receipts/verify?c=abc.def",
  );
});
