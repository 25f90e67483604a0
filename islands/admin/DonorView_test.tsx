/**
 * The back office's donor view, rendered to a string with the real English texts: each monthly
 * state in words (a paused gift's resume date, a failing gift's tries and next try, a cancel's
 * reason or none), an unknown reason shown as given, values isolated from the sentence around them,
 * the note when the donor has more gifts than listed, and the link from a history row.
 */
import assert from "node:assert/strict";
import { renderToString } from "preact-render-to-string";
import type { DonorView, MonthlyView } from "@/lib/donors/donor_view.ts";
import { textsUnder } from "@/lib/core/i18n.ts";
import { dateFormats } from "@/lib/shared/dates.ts";
import { translator } from "@/islands/shared/texts.ts";
import { DonorDetails, donorHref, isolate, monthlyStateText } from "./DonorView.tsx";

const t = translator(textsUnder("en", ["backofficeDonor", "transactions", "common.notAvailable"]));
const plain = (s: string) => s.replace(/[\u2068\u2069]/g, "");
/** The page's dates: English, the museum's clock (Jerusalem) with its offset, whatever this machine's zone. */
const dates = dateFormats("en", "Asia/Jerusalem");
/** A time as the view writes it. */
const day = (iso: string) => dates.dateTime(iso)!;

const monthly = (fields: Partial<MonthlyView>): MonthlyView => ({
  state: "active",
  amount: 2_500,
  currency: 1,
  createdAt: "2026-01-05T10:00:00.000Z",
  nextCharge: "2026-12-05T10:00:00.000Z",
  failedAttempts: 0,
  retryAt: null,
  cancelledAt: null,
  cancelReason: null,
  card: "458045******4580",
  ...fields,
});

Deno.test("monthlyStateText: every state in words, with its dates, tries and reason", () => {
  const text = (m: Partial<MonthlyView>) => plain(monthlyStateText(t, monthly(m), dates));
  assert.equal(text({}), "Active");
  assert.equal(
    text({ state: "paused", nextCharge: "2027-02-05T10:00:00.000Z" }),
    "Paused until Feb 5, 2027, 12:00 PM GMT+2",
  );
  assert.equal(
    text({ state: "failing", failedAttempts: 2, retryAt: "2026-12-08T10:00:00.000Z" }),
    `Failing (failed attempts: 2), next try ${day("2026-12-08T10:00:00.000Z")}`,
  );
  const cancelledAt = "2026-11-24T08:00:00.000Z";
  assert.equal(
    text({ state: "cancelled", nextCharge: null, cancelledAt, cancelReason: "moved-away" }),
    `Cancelled on ${day(cancelledAt)}: Moved away`,
  );
  assert.equal(
    text({ state: "cancelled", nextCharge: null, cancelledAt }),
    `Cancelled on ${day(cancelledAt)}`,
  );
  // A reason without words (added later) shows as stored rather than as a key.
  assert.equal(
    text({ state: "cancelled", cancelledAt, cancelReason: "new-reason" }),
    `Cancelled on ${day(cancelledAt)}: new-reason`,
  );
  assert.equal(text({ state: "failed", nextCharge: null }), "Ended after failed charges");
  // The values are isolated from the sentence (a Hebrew sentence keeps an English date whole).
  assert.ok(
    monthlyStateText(t, monthly({ state: "paused" }), dates).includes(
      isolate(day("2026-12-05T10:00:00.000Z")),
    ),
  );
});

Deno.test("DonorDetails: totals, empty lists, the incomplete note; donorHref encodes the address", () => {
  const view: DonorView = {
    email: "ada@example.org",
    donors: [{
      firstName: "Ada",
      lastName: "Levi",
      country: "Israel",
      createdAt: "2024-01-05T10:00:00.000Z",
    }],
    totals: [{ currency: 1, amount: 12_500, count: 2 }],
    firstGift: null,
    lastGift: null,
    gifts: [],
    monthly: [],
    complete: true,
  };
  const html = plain(renderToString(<DonorDetails view={view} t={t} lang="en" />));
  assert.ok(html.includes(`Ada Levi, Israel, since ${day("2024-01-05T10:00:00.000Z")}`), html);
  assert.ok(html.includes("(gifts: 2)"), html);
  assert.ok(html.includes("No monthly gift.") && html.includes("No gift yet."));
  assert.ok(!html.includes("more than"));
  const none = plain(renderToString(<DonorDetails view={{ ...view, totals: [] }} t={t} lang="en" />));
  assert.ok(none.includes("No successful gift yet"));
  const many = plain(renderToString(<DonorDetails view={{ ...view, complete: false }} t={t} lang="en" />));
  assert.ok(many.includes("This donor has more than 0 gifts"), many);
  assert.equal(donorHref("he", " Ada+1@Example.org "), "/he/admin/donors?email=Ada%2B1%40Example.org");
});
