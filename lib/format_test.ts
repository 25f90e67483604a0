import assert from "node:assert/strict";
import { listAmount, usDateTime } from "./format.ts";

Deno.test("usDateTime: US English, short month, day, year, hour and minute", () => {
  assert.equal(usDateTime("2026-03-05T14:07:00Z", "UTC"), "Mar 5, 2026, 2:07 PM");
  assert.equal(usDateTime("2026-03-05T23:30:00Z", "Asia/Jerusalem"), "Mar 6, 2026, 1:30 AM");
  for (const none of [null, undefined, "", "not a date"]) assert.equal(usDateTime(none, "UTC"), null);
});

Deno.test("listAmount: minor units as currency; null when a part is missing", () => {
  assert.equal(listAmount("10000", 1, "en"), "₪100.00");
  assert.equal(listAmount(550, 2, "en"), "$5.50");
  assert.equal(
    listAmount("2500", 2, "he"),
    new Intl.NumberFormat("he", { style: "currency", currency: "USD" }).format(25),
  );
  for (
    const [minor, currency] of [["", 1], ["12.5", 1], ["abc", 2], [null, 1], ["100", 3], [
      "100",
      null,
    ]] as const
  ) {
    assert.equal(listAmount(minor, currency, "en"), null, `${minor} ${currency}`);
  }
});
