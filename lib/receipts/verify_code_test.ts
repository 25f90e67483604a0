/** The receipt's signed verification code: made, read back, refused when tampered or foreign. */
import assert from "node:assert/strict";
import { newId } from "@/lib/core/ids.ts";
import {
  DOWNLOAD_CODE_TTL_MS,
  readReceiptCode,
  readReceiptDownloadCode,
  receiptCode,
  receiptDownloadCode,
  receiptVerifyUrl,
} from "./verify_code.ts";

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

Deno.test("receiptDownloadCode: works a day, then says expired; never mistaken for a verification code", () => {
  const id = newId();
  const now = new Date("2026-05-10T08:00:00.000Z");
  const code = receiptDownloadCode(SECRET, id, now);
  assert.deepEqual(readReceiptDownloadCode(SECRET, code, now), { id, expired: false, maskTaxId: false });
  const later = new Date(now.getTime() + DOWNLOAD_CODE_TTL_MS - 1000);
  assert.deepEqual(readReceiptDownloadCode(SECRET, code, later), { id, expired: false, maskTaxId: false });
  const after = new Date(now.getTime() + DOWNLOAD_CODE_TTL_MS + 1000);
  assert.deepEqual(readReceiptDownloadCode(SECRET, code, after), { id, expired: true, maskTaxId: false });
  // A moved expiry, another secret, or a verification code in its place: not a download code.
  const [codeId, expiry, mac] = code.split(".");
  assert.equal(readReceiptDownloadCode(SECRET, `${codeId}.${Number(expiry) + 86_400}.${mac}`, now), null);
  assert.equal(readReceiptDownloadCode(`${SECRET}x`, code, now), null);
  assert.equal(readReceiptDownloadCode(SECRET, receiptCode(SECRET, id), now), null);
  assert.equal(readReceiptCode(SECRET, code), null, "a download code does not verify");
  for (
    const bad of [null, "", `${codeId}..${mac}`, `${codeId}.-1.${mac}`, `${codeId}.1e3.${mac}`, `${code}.x`]
  ) {
    assert.equal(readReceiptDownloadCode(SECRET, bad, now), null, String(bad));
  }
});

Deno.test("receiptDownloadCode: a masked code says so, and its mark can be neither added nor removed", () => {
  const id = newId();
  const now = new Date("2026-05-10T08:00:00.000Z");
  const masked = receiptDownloadCode(SECRET, id, now, true);
  assert.deepEqual(readReceiptDownloadCode(SECRET, masked, now), { id, expired: false, maskTaxId: true });
  const [codeId, expiry, mark, mac] = masked.split(".");
  assert.equal(mark, "m");
  assert.equal(readReceiptDownloadCode(SECRET, `${codeId}.${expiry}.${mac}`, now), null, "the mark removed");
  const full = receiptDownloadCode(SECRET, id, now);
  const [, , fullMac] = full.split(".");
  assert.equal(
    readReceiptDownloadCode(SECRET, `${codeId}.${expiry}.m.${fullMac}`, now),
    null,
    "a mark added",
  );
  assert.equal(readReceiptDownloadCode(SECRET, `${codeId}.${expiry}.x.${mac}`, now), null);
});
