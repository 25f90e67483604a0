import assert from "node:assert/strict";
import { currencyCode, formatMoney, TIERS, toMinor } from "./money.ts";

Deno.test("tiers are the spec's prices", () => {
  assert.deepEqual(TIERS.map((t) => [t.price.dollars, t.price.nis]), [[5, 20], [25, 100], [50, 200], [
    100,
    400,
  ]]);
});

Deno.test("toMinor converts exact amounts and refuses the rest", () => {
  assert.equal(toMinor(1), 100);
  assert.equal(toMinor(12.5), 1250);
  assert.equal(toMinor(0.1 + 0.2), 30);
  assert.equal(toMinor(19.99), 1999);
  for (const bad of [0, -1, 0.001, NaN, Infinity, 1e20]) assert.equal(toMinor(bad), null, String(bad));
});

Deno.test("currency codes and formatting", () => {
  assert.equal(currencyCode("nis"), 1);
  assert.equal(currencyCode("dollars"), 2);
  assert.equal(formatMoney(10000, 1, "en-US"), "₪100.00");
  assert.equal(formatMoney(550, 2, "en-US"), "$5.50");
});
