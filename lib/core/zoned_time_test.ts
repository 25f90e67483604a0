/** Days and months in a time zone, across summer time changes. */
import assert from "node:assert/strict";
import { addDays, dayOf, dayStart, isTimeZone, monthOf, monthStart, zoneOffset } from "./zoned_time.ts";

Deno.test("monthStart: local midnight of the first day, winter and summer time", () => {
  assert.equal(monthStart(2026 * 12, "Asia/Jerusalem"), "2025-12-31T22:00:00.000Z");
  assert.equal(monthStart(2026 * 12 + 6, "Asia/Jerusalem"), "2026-06-30T21:00:00.000Z");
  assert.equal(monthStart(2026 * 12 + 2, "UTC"), "2026-03-01T00:00:00.000Z");
  assert.equal(monthStart(2026 * 12 + 10, "America/New_York"), "2026-11-01T04:00:00.000Z");
});

Deno.test("dayOf: the day an instant falls on in the zone, not in UTC", () => {
  // 01:00 in Jerusalem on the 29th is still the 28th in UTC: the example.
  assert.equal(dayOf("2026-11-28T23:00:00.000Z", "Asia/Jerusalem"), "2026-11-29");
  assert.equal(dayOf("2026-11-28T23:00:00.000Z", "UTC"), "2026-11-28");
  assert.equal(dayOf(Date.parse("2026-11-29T04:59:59Z"), "America/New_York"), "2026-11-28");
  assert.equal(dayOf(new Date("2026-11-29T05:00:00Z"), "America/New_York"), "2026-11-29");
});

Deno.test("dayStart: local midnight, on the days summer time starts and ends too", () => {
  assert.equal(dayStart("2026-11-29", "Asia/Jerusalem"), "2026-11-28T22:00:00.000Z");
  assert.equal(dayStart("2026-07-01", "Asia/Jerusalem"), "2026-06-30T21:00:00.000Z");
  // Israel's clocks went forward on Friday 2026-03-27 at 02:00: that day starts at +2, the next at +3.
  assert.equal(dayStart("2026-03-27", "Asia/Jerusalem"), "2026-03-26T22:00:00.000Z");
  assert.equal(dayStart("2026-03-28", "Asia/Jerusalem"), "2026-03-27T21:00:00.000Z");
  // New York: forward on 2026-03-08, back on 2026-11-01.
  assert.equal(dayStart("2026-03-08", "America/New_York"), "2026-03-08T05:00:00.000Z");
  assert.equal(dayStart("2026-03-09", "America/New_York"), "2026-03-09T04:00:00.000Z");
  assert.equal(dayStart("2026-11-02", "America/New_York"), "2026-11-02T05:00:00.000Z");
  for (const day of ["2026-03-27", "2026-03-28", "2026-10-25", "2026-10-26"]) {
    assert.equal(dayOf(dayStart(day, "Asia/Jerusalem"), "Asia/Jerusalem"), day);
    assert.equal(dayOf(Date.parse(dayStart(day, "Asia/Jerusalem")) - 1, "Asia/Jerusalem"), addDays(day, -1));
  }
  assert.throws(() => dayStart("2026-11-2", "UTC"), RangeError);
});

Deno.test("addDays, monthOf, zoneOffset: by the calendar and the zone", () => {
  assert.equal(addDays("2026-03-31", 1), "2026-04-01");
  assert.equal(addDays("2026-01-01", -1), "2025-12-31");
  assert.equal(addDays("2028-02-28", 1), "2028-02-29");
  assert.equal(monthOf("2026-01-31T23:00:00Z", "Asia/Jerusalem"), 2026 * 12 + 1);
  assert.equal(monthOf("2026-01-31T23:00:00Z", "UTC"), 2026 * 12);
  assert.equal(zoneOffset(Date.parse("2026-07-01T00:00:00Z"), "Asia/Jerusalem"), 3 * 3_600_000);
  assert.equal(zoneOffset(Date.parse("2026-01-01T00:00:00Z"), "Asia/Jerusalem"), 2 * 3_600_000);
});

Deno.test("isTimeZone: IANA names the runtime knows; anything else refused", () => {
  for (const zone of ["Asia/Jerusalem", "UTC", "America/New_York", "Europe/London"]) {
    assert.ok(isTimeZone(zone), zone);
  }
  for (const zone of ["", "Mars/Olympus", "Asia/Jerusalem; drop", "../etc", "x".repeat(80)]) {
    assert.ok(!isTimeZone(zone), zone);
  }
});
