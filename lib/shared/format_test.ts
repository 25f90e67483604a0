import assert from "node:assert/strict";
import { listAmount } from "./format.ts";
import { formatMoney } from "./money.ts";

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

Deno.test("listAmount: the currency as the provider's answers carry it, a string, reads as the number", () => {
  assert.equal(listAmount("10000", "1", "en"), "₪100.00");
  assert.equal(listAmount("550", "2", "en"), "$5.50");
  assert.equal(listAmount(550, " 2 ", "en"), "$5.50");
  for (const currency of ["3", "", "01", "1.0", "USD", "nis"]) {
    assert.equal(listAmount("100", currency, "en"), null, currency);
  }
});

const AMOUNTS = [
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

Deno.test("listAmount: numbers and numeric strings read as formatMoney writes them (Intl's text)", () => {
  // lib/money_test.ts holds formatMoney to Intl.NumberFormat for every size and sign, and for
  // other locales; here, that listAmount hands it the number it read, for every site language.
  for (const lang of ["en", "he", "ru", "pt", "es"]) {
    for (const currency of [1, 2] as const) {
      for (const minor of [...AMOUNTS, ...AMOUNTS.map((a) => -a), 999_999_999_999]) {
        if (Object.is(minor, -0)) continue;
        assert.equal(
          listAmount(minor, currency, lang),
          formatMoney(minor, currency, lang),
          `${lang} ${minor}`,
        );
        assert.equal(listAmount(String(minor), currency, lang), formatMoney(minor, currency, lang));
      }
    }
  }
  // Any other language still goes through Intl.
  assert.equal(
    listAmount(123456, 2, "de"),
    new Intl.NumberFormat("de", { style: "currency", currency: "USD" }).format(1234.56),
  );
});
