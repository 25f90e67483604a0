import assert from "node:assert/strict";
import { listAmount, usDateTime, usShortDay } from "./format.ts";
import { formatMoney } from "./money.ts";

Deno.test("usDateTime: US English, short month, day, year, hour and minute", () => {
  assert.equal(usDateTime("2026-03-05T14:07:00Z", "UTC"), "Mar 5, 2026, 2:07 PM");
  assert.equal(usDateTime("2026-03-05T23:30:00Z", "Asia/Jerusalem"), "Mar 6, 2026, 1:30 AM");
  for (const none of [null, undefined, "", "not a date"]) assert.equal(usDateTime(none, "UTC"), null);
});

Deno.test("usDateTime: the viewer's zone and UTC read as Intl writes them, at every hour", () => {
  const options: Intl.DateTimeFormatOptions = {
    month: "short",
    day: "numeric",
    year: "numeric",
    hour: "numeric",
    minute: "2-digit",
  };
  const intl = (iso: string, timeZone?: string) =>
    new Intl.DateTimeFormat("en-US", { ...options, timeZone }).format(new Date(iso));
  for (let month = 0; month < 12; month++) {
    for (let hour = 0; hour < 24; hour++) {
      const iso = new Date(Date.UTC(2026, month, 1 + month * 2, hour, (hour * 7) % 60)).toISOString();
      assert.equal(usDateTime(iso, "UTC"), intl(iso, "UTC"), iso);
      assert.equal(usDateTime(iso), intl(iso), iso);
    }
  }
  assert.equal(usDateTime("2026-03-05T00:07:00Z", "UTC"), "Mar 5, 2026, 12:07 AM");
  assert.equal(usDateTime("2026-03-05T12:00:00Z", "UTC"), "Mar 5, 2026, 12:00 PM");
  // Other zones, through a kept formatter, stay right when zones alternate.
  for (let i = 0; i < 2; i++) {
    assert.equal(usDateTime("2026-03-05T23:30:00Z", "Asia/Jerusalem"), "Mar 6, 2026, 1:30 AM");
    assert.equal(usDateTime("2026-03-05T23:30:00Z", "America/New_York"), "Mar 5, 2026, 6:30 PM");
  }
});

Deno.test("usShortDay: a calendar day as short month and day", () => {
  assert.equal(usShortDay("2026-03-05"), "Mar 5");
  assert.equal(usShortDay("2026-12-31"), "Dec 31");
  for (const bad of ["", "2026-3-5", "not a day", "2026-13-45"]) assert.equal(usShortDay(bad), null, bad);
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
