/** Dates and times as the back office writes them: in the viewer's language, in the museum's zone, the zone shown. */
import assert from "node:assert/strict";
import { LANGUAGES } from "./languages.ts";
import { dateFormats, formatCalendarDay, formatCalendarMonth, formatDateTime } from "./dates.ts";

const ZONE = "Asia/Jerusalem";
/** 23:00 UTC on November 28th: 01:00 on the 29th in Jerusalem (winter, UTC+2). */
const WINTER = "2026-11-28T23:00:00.000Z";
/** 22:30 UTC on July 28th: 01:30 on the 29th in Jerusalem (summer, UTC+3). */
const SUMMER = "2026-07-28T22:30:00.000Z";
/** Marks a browser puts around an offset in right-to-left text: compared without them. */
const plain = (s: string | null) => s?.replace(/[\u200e\u200f\u061c]/g, "");

Deno.test("formatDateTime: the museum's wall clock with its zone, in each language", () => {
  assert.equal(formatDateTime(WINTER, "en", ZONE), "Nov 29, 2026, 1:00 AM GMT+2");
  assert.equal(formatDateTime(SUMMER, "en", ZONE), "Jul 29, 2026, 1:30 AM GMT+3");
  assert.equal(plain(formatDateTime(WINTER, "he", ZONE)), "29 בנוב׳ 2026, 01:00 GMT+2");
  assert.equal(formatDateTime(WINTER, "ru", ZONE), "29 нояб. 2026 г., 01:00 GMT+2");
  assert.equal(formatDateTime(WINTER, "pt", ZONE), "29 de nov. de 2026, 01:00 GMT+2");
  assert.equal(formatDateTime(WINTER, "es", ZONE), "29 nov 2026, 1:00 GMT+2");
  // Another museum's zone: the same instant, its own day and offset.
  assert.equal(formatDateTime(WINTER, "en", "America/New_York"), "Nov 28, 2026, 6:00 PM GMT-5");
  assert.equal(formatDateTime(WINTER, "en", "UTC"), "Nov 28, 2026, 11:00 PM GMT");
  for (const none of [null, undefined, "", "not a date"]) {
    assert.equal(formatDateTime(none, "en", ZONE), null);
  }
});

Deno.test("formatDateTime: every language through Intl, never the English month in another language", () => {
  for (const lang of LANGUAGES) {
    const intl = new Intl.DateTimeFormat(lang, {
      month: "short",
      day: "numeric",
      year: "numeric",
      hour: "numeric",
      minute: "2-digit",
      timeZone: ZONE,
      timeZoneName: "shortOffset",
    }).format(new Date(WINTER));
    assert.equal(formatDateTime(WINTER, lang, ZONE), intl, lang);
    if (lang !== "en") assert.ok(!formatDateTime(WINTER, lang, ZONE)!.includes("Nov"), lang);
    // Formatters are kept per language and zone: alternating gives the same answers.
    assert.equal(formatDateTime(SUMMER, lang, "UTC"), formatDateTime(SUMMER, lang, "UTC"));
    assert.equal(formatDateTime(WINTER, lang, ZONE), intl, lang);
  }
});

Deno.test("formatCalendarDay and formatCalendarMonth: calendar keys, never shifted by a zone", () => {
  assert.equal(formatCalendarDay("2026-11-29", "en"), "Nov 29, 2026");
  assert.equal(formatCalendarDay("2026-11-29", "en", { month: "short", day: "numeric" }), "Nov 29");
  assert.equal(formatCalendarDay("2026-11-29", "he"), "29 בנוב׳ 2026");
  assert.equal(formatCalendarDay("2026-01-01", "ru", { month: "short", day: "numeric" }), "1 янв.");
  assert.equal(formatCalendarMonth("2026-11", "en"), "November 2026");
  assert.equal(formatCalendarMonth("2026-11", "he"), "נובמבר 2026");
  assert.equal(formatCalendarMonth("2026-11", "es", { month: "short" }), "nov");
  for (const bad of ["", "2026-3-5", "not a day", "2026-13-45"]) {
    assert.equal(formatCalendarDay(bad, "en"), null, bad);
  }
  for (const bad of ["", "2026-3", "2026-13", "2026-11-29"]) {
    assert.equal(formatCalendarMonth(bad, "en"), null, bad);
  }
});

Deno.test("dateFormats: one page's language and zone, bound", () => {
  const he = dateFormats("he", ZONE);
  assert.deepEqual([he.lang, he.timeZone], ["he", ZONE]);
  assert.equal(he.dateTime(WINTER), formatDateTime(WINTER, "he", ZONE));
  assert.equal(he.day("2026-11-29"), formatCalendarDay("2026-11-29", "he"));
  assert.equal(he.month("2026-11"), formatCalendarMonth("2026-11", "he"));
  assert.equal(dateFormats("en", "UTC").dateTime(null), null);
});
