import assert from "node:assert/strict";
import { currencyCode, currencyCodeOf, formatMoney, TIERS, toMinor } from "./money.ts";

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

Deno.test("formatMoney: the site's languages read as Intl writes them, for every size and sign", () => {
  const amounts = [
    0,
    1,
    5,
    99,
    100,
    2064,
    99999,
    100000,
    123450,
    999999,
    1000000,
    1234567,
    12345678,
    123456789,
  ];
  for (const lang of ["en", "he", "ru", "pt", "es"]) {
    for (const [currency, iso] of [[1, "ILS"], [2, "USD"]] as const) {
      const intl = new Intl.NumberFormat(lang, { style: "currency", currency: iso });
      for (const minor of [...amounts, ...amounts.map((a) => -a), 999_999_999_999]) {
        if (Object.is(minor, -0)) continue;
        assert.equal(formatMoney(minor, currency, lang), intl.format(minor / 100), `${lang} ${iso} ${minor}`);
      }
    }
  }
  // Other locales, and amounts that are not whole minor units, go through Intl.
  const de = new Intl.NumberFormat("de", { style: "currency", currency: "USD" });
  assert.equal(formatMoney(123456, 2, "de"), de.format(1234.56));
  assert.equal(
    formatMoney(10.5, 1, "en"),
    new Intl.NumberFormat("en", { style: "currency", currency: "ILS" }).format(0.105),
  );
});

Deno.test("currencyCodeOf: 1 and 2 as numbers or as the provider's strings; nothing else", () => {
  assert.equal(currencyCodeOf(1), 1);
  assert.equal(currencyCodeOf("1"), 1);
  assert.equal(currencyCodeOf(2), 2);
  assert.equal(currencyCodeOf("2"), 2);
  for (const other of [0, 3, "3", "", " ", "01", "1.0", "ILS", null, undefined, true, [1], { 1: 1 }]) {
    assert.equal(currencyCodeOf(other), null, JSON.stringify(other));
  }
});
