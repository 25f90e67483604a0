import assert from "node:assert/strict";
import {
  hasValidCheckDigit,
  israeliIdError,
  israeliIdToSend,
  maskIsraeliId,
  parseIsraeliId,
  taxReceiptErrors,
  taxReceiptFromForm,
  taxReceiptOffered,
} from "./israeli_id.ts";
import { overBudget } from "@/tests/helpers/time_budget.ts";

Deno.test("Israeli ID: nine digits with a right check digit are accepted as they are", () => {
  // 1·1 + 2·2 + 3·1 + 4·2 + 5·1 + (6·2 → 1+2) + 7·1 + (8·2 → 1+6) + 2·1 = 40.
  assert.deepEqual(parseIsraeliId("123456782"), { id: "123456782" });
  assert.deepEqual(parseIsraeliId("000000018"), { id: "000000018" });
  assert.equal(hasValidCheckDigit("123456782"), true);
});

Deno.test("Israeli ID: a wrong check digit is refused as such", () => {
  for (const wrong of ["123456789", "123456780", "000000019", "5"]) {
    assert.deepEqual(parseIsraeliId(wrong), { problem: "taxReceipt.idCheckDigit" }, wrong);
  }
  assert.equal(hasValidCheckDigit("123456789"), false);
});

Deno.test("Israeli ID: shorter numbers are left-padded to nine digits; spaces and dashes are dropped", () => {
  assert.deepEqual(parseIsraeliId("18"), { id: "000000018" });
  assert.deepEqual(parseIsraeliId("0018"), { id: "000000018" });
  assert.deepEqual(parseIsraeliId("12345678-2"), { id: "123456782" });
  assert.deepEqual(parseIsraeliId("123 456 782"), { id: "123456782" });
});

Deno.test("Israeli ID: empty, letters, more than nine digits, all zeros and long text are refused", () => {
  assert.deepEqual(parseIsraeliId(""), { problem: "taxReceipt.enterId" });
  assert.deepEqual(parseIsraeliId(" - "), { problem: "taxReceipt.enterId" });
  for (const bad of ["12345678a", "１２３４５６７８２", "1234567820", "000000000", "1".repeat(21), "12.3"]) {
    assert.deepEqual(parseIsraeliId(bad), { problem: "taxReceipt.idFormat" }, bad);
  }
});

Deno.test("Israeli ID: exactly one check digit completes any eight digits", () => {
  for (let n = 0; n < 2_000; n++) {
    const prefix = String(Math.floor(Math.random() * 1e8)).padStart(8, "0");
    const valid = [..."0123456789"].filter((d) => hasValidCheckDigit(prefix + d));
    assert.equal(valid.length, 1, prefix);
  }
});

Deno.test("Israeli ID: the form's check trims; the mask keeps only the last three digits", () => {
  assert.equal(israeliIdError("  123456782 "), null);
  assert.equal(israeliIdError(""), "taxReceipt.enterId");
  assert.equal(israeliIdError("123456789"), "taxReceipt.idCheckDigit");
  assert.equal(maskIsraeliId("123456782"), "******782");
});

Deno.test("Israeli ID: answers fast on input at the body limit (linear, length checked first)", async () => {
  for (const s of ["1".repeat(65_536), " ".repeat(65_536), "1-".repeat(32_768)]) {
    assert.equal(await overBudget(s, parseIsraeliId), null, s.slice(0, 4));
  }
});

Deno.test("tax receipt: offered for shekels (and before a choice), not for dollars", () => {
  assert.equal(taxReceiptOffered("nis"), true);
  assert.equal(taxReceiptOffered(null), true);
  assert.equal(taxReceiptOffered("dollars"), false);
});

Deno.test("tax receipt: the ID is checked only when the box is ticked, and only for shekels", () => {
  assert.deepEqual(taxReceiptErrors({ taxReceipt: false, israeliId: "nonsense" }, "nis"), {});
  assert.deepEqual(taxReceiptErrors({ taxReceipt: true, israeliId: "" }, "nis"), {
    israeliId: "taxReceipt.enterId",
  });
  assert.deepEqual(taxReceiptErrors({ taxReceipt: true, israeliId: "123456789" }, null), {
    israeliId: "taxReceipt.idCheckDigit",
  });
  assert.deepEqual(taxReceiptErrors({ taxReceipt: true, israeliId: "123456782" }, "nis"), {});
  assert.deepEqual(taxReceiptErrors({ taxReceipt: true, israeliId: "123456782" }, "dollars"), {
    taxReceipt: "taxReceipt.onlyShekels",
  });
});

Deno.test("tax receipt: the no-JavaScript form's fields, and what is sent with the donor", () => {
  assert.deepEqual(taxReceiptFromForm({ taxReceipt: "on", israeliId: "123456782" }), {
    taxReceipt: true,
    israeliId: "123456782",
  });
  assert.deepEqual(taxReceiptFromForm({ taxReceipt: "yes" }), { taxReceipt: false, israeliId: "" });
  assert.equal(taxReceiptFromForm({ israeliId: "1".repeat(60_000) }).israeliId.length, 21);
  assert.equal(israeliIdToSend({ taxReceipt: true, israeliId: " 123456782 " }, "nis"), "123456782");
  assert.equal(israeliIdToSend({ taxReceipt: false, israeliId: "123456782" }, "nis"), undefined);
  assert.equal(israeliIdToSend({ taxReceipt: true, israeliId: "123456782" }, "dollars"), undefined);
});
