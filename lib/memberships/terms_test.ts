/**
 * What a gift at a level does to a membership, and its state at a moment, on a clock the tests set:
 * a first gift's rolling term, an early renewal from the end, a renewal in grace without a hole, a
 * lapsed member's new term (same number), an upgrade at once (later terms moved after it), a
 * downgrade at the next renewal, a monthly gift's month after month on its own anchor, and the
 * states: active, grace (30 days, or while billing retries), lapsed (after grace, after the retries,
 * after a cancelled gift's paid period).
 */
import assert from "node:assert/strict";
import { defaultMuseumSettings } from "@/lib/museum/mod.ts";
import { canonicalMembership } from "@/lib/storage/membership_records.ts";
import type { Membership, MembershipDraft } from "@/lib/storage/types.ts";
import { memberNumberOf, newMemberNumber } from "./numbers.ts";
import { type Billing, levelAt, membershipState } from "./state.ts";
import { addMonths, applyGift, type LevelGift, type TermRules } from "./terms.ts";

const levels = defaultMuseumSettings().levels; // 1 Friend $5 … 4 Patron $100, 12 months each
const rules: TermRules = { levels, graceDays: 30, newNumber: () => "AAAA-AAAA" };
const DAY = 86_400_000;
const T0 = "2026-03-10T09:00:00.000Z";
const plus = (days: number, from = T0) => new Date(Date.parse(from) + days * DAY).toISOString();

let n = 0;
const gift = (levelId: number, paidAt: string, subscriptionId: string | null = null): LevelGift => ({
  donorId: "donor_1",
  levelId,
  paidAt,
  transactionId: `tx_${++n}`,
  amount: levels.find((l) => l.id === levelId)!.price.nis,
  currency: 1,
  subscriptionId,
});

/** Stores a draft as the store would (canonical), at `at`. */
const stored = (draft: MembershipDraft | null, at: string, current: Membership | null = null) =>
  canonicalMembership(draft!, "dana@museum.org", at, current);

/** The membership after each gift in turn. */
function after(...gifts: LevelGift[]): Membership {
  let m: Membership | null = null;
  for (const g of gifts) m = stored(applyGift(m, g, rules), g.paidAt, m);
  return m!;
}

const spans = (m: Membership) => m.terms.map((t) => [t.kind, t.levelId, t.start, t.end]);

Deno.test("addMonths: calendar months, the day kept or the month's last, the time kept", () => {
  assert.equal(addMonths("2026-03-10T09:00:00.000Z", 12), "2027-03-10T09:00:00.000Z");
  assert.equal(addMonths("2026-01-31T10:00:00.000Z", 1), "2026-02-28T10:00:00.000Z");
  assert.equal(addMonths("2028-01-31T10:00:00.000Z", 1), "2028-02-29T10:00:00.000Z");
  assert.equal(addMonths("2026-01-31T10:00:00.000Z", 2), "2026-03-31T10:00:00.000Z");
  assert.equal(addMonths("2026-12-15T00:00:00.000Z", 1), "2027-01-15T00:00:00.000Z");
});

Deno.test("a first gift: a 12-month term from the payment, a new number; the same gift again changes nothing", () => {
  const first = gift(2, T0);
  const m = after(first);
  assert.equal(m.number, "AAAA-AAAA");
  assert.deepEqual(spans(m), [["join", 2, T0, "2027-03-10T09:00:00.000Z"]]);
  assert.equal(applyGift(m, first, rules), null);
  // A renewal from another record of the address (anyone may type it) does not rename the member.
  const renewed = stored(applyGift(m, { ...gift(2, plus(10)), donorId: "donor_2" }, rules), plus(10), m);
  assert.equal(renewed.donorId, "donor_1");
  assert.equal(membershipState(m, new Date(plus(1)), null, 30), "active");
});

Deno.test("an early renewal extends from the end; one in grace leaves no hole; a lapsed member starts anew", () => {
  const early = after(gift(2, T0), gift(2, plus(300)));
  assert.deepEqual(spans(early).map((s) => s.slice(0, 2).concat(s[3])), [
    ["join", 2, "2027-03-10T09:00:00.000Z"],
    ["renewal", 2, "2028-03-10T09:00:00.000Z"],
  ]);
  assert.equal(early.end, "2028-03-10T09:00:00.000Z");
  // Renewed 20 days after the end (in grace): from the end.
  const grace = after(gift(2, T0), gift(2, plus(20, "2027-03-10T09:00:00.000Z")));
  assert.equal(grace.terms[1].start, "2027-03-10T09:00:00.000Z");
  assert.equal(grace.end, "2028-03-10T09:00:00.000Z");
  // 40 days after (lapsed): a new rolling term from that payment; the number kept.
  const paidAt = plus(40, "2027-03-10T09:00:00.000Z");
  const lapsed = after(gift(2, T0), gift(2, paidAt));
  assert.deepEqual(spans(lapsed)[1], ["join", 2, paidAt, addMonths(paidAt, 12)]);
  assert.equal(lapsed.number, "AAAA-AAAA");
});

Deno.test("an upgrade applies at once for a new term; a downgrade at the next renewal", () => {
  const upgradeAt = plus(100);
  const up = after(gift(1, T0), gift(3, upgradeAt));
  assert.deepEqual(spans(up), [
    ["join", 1, T0, upgradeAt],
    ["upgrade", 3, upgradeAt, addMonths(upgradeAt, 12)],
  ]);
  assert.equal(levelAt(up, new Date(plus(101))), 3);
  // An early renewal bought before the upgrade follows the upgrade's term, its length kept.
  const renewedThenUp = after(gift(1, T0), gift(1, plus(50)), gift(4, upgradeAt));
  const [, upgrade, moved] = renewedThenUp.terms;
  assert.deepEqual([upgrade.kind, upgrade.levelId, moved.kind, moved.levelId], ["upgrade", 4, "renewal", 1]);
  assert.equal(moved.start, upgrade.end);
  assert.equal(
    Date.parse(moved.end) - Date.parse(moved.start),
    Date.parse(addMonths(T0, 24)) - Date.parse(addMonths(T0, 12)),
  );
  // A downgrade bought early: the higher level until the end, then the lower one.
  const down = after(gift(3, T0), gift(1, plus(200)));
  assert.deepEqual(spans(down)[1], ["downgrade", 1, "2027-03-10T09:00:00.000Z", "2028-03-10T09:00:00.000Z"]);
  assert.equal(levelAt(down, new Date(plus(300))), 3);
  assert.equal(levelAt(down, new Date(plus(400))), 1);
});

Deno.test("a monthly gift: each charge adds a month on the term's own anchor; a new level's gift is a term of its own", () => {
  const start = "2026-01-31T10:00:00.000Z";
  const charges = [start, "2026-02-28T10:00:00.000Z", "2026-03-31T10:05:00.000Z", "2026-04-30T10:00:00.000Z"];
  const m = after(...charges.map((at) => gift(2, at, "sub_1")));
  assert.equal(m.terms.length, 1);
  assert.deepEqual([m.terms[0].kind, m.terms[0].charges, m.terms[0].end], [
    "join",
    4,
    "2026-05-31T10:00:00.000Z",
  ]);
  assert.equal(m.subscriptionId, "sub_1");
  // A one-time renewal at the same level while the monthly gift goes on: after its end.
  const both = after(gift(2, start, "sub_1"), gift(2, "2026-02-10T00:00:00.000Z"));
  assert.deepEqual(spans(both)[1].slice(0, 3), ["renewal", 2, "2026-02-28T10:00:00.000Z"]);
  assert.equal(both.subscriptionId, "sub_1", "the monthly gift still keeps it");
});

Deno.test("states: active to its end, grace for 30 days (or the days set), then lapsed", () => {
  const m = after(gift(2, T0));
  const end = m.end;
  assert.equal(membershipState(m, new Date(plus(-0.001, end)), null, 30), "active");
  assert.equal(membershipState(m, new Date(end), null, 30), "grace");
  assert.equal(membershipState(m, new Date(plus(29.99, end)), null, 30), "grace");
  assert.equal(membershipState(m, new Date(plus(30, end)), null, 30), "lapsed");
  assert.equal(membershipState(m, new Date(plus(8, end)), null, 7), "lapsed");
});

Deno.test("states of a monthly member: grace while billing retries, lapsed when the retries end or the gift is cancelled", () => {
  const m = after(gift(2, T0, "sub_1"));
  const billing = (over: Partial<Billing>): Billing => ({
    id: "sub_1",
    status: "active",
    failedAttempts: 0,
    ...over,
  });
  const later = new Date(plus(45)); // past the paid month and past 30 days of grace after it
  assert.equal(membershipState(m, new Date(plus(10)), billing({ status: "cancelled" }), 30), "active");
  assert.equal(membershipState(m, later, billing({ failedAttempts: 2 }), 30), "grace");
  assert.equal(
    membershipState(m, new Date(plus(32)), billing({ status: "failed", failedAttempts: 3 }), 30),
    "lapsed",
  );
  assert.equal(membershipState(m, new Date(plus(32)), billing({ status: "cancelled" }), 30), "lapsed");
  // A charge due and not yet made: the grace days.
  assert.equal(membershipState(m, new Date(plus(32)), billing({}), 30), "grace");
  // Another gift's billing says nothing about this membership.
  assert.equal(
    membershipState(m, new Date(plus(32)), { ...billing({ status: "failed" }), id: "sub_2" }, 30),
    "grace",
  );
});

Deno.test("member numbers: eight characters, printable, one mistyped character caught", () => {
  const seen = new Set<string>();
  for (let i = 0; i < 500; i++) {
    const number = newMemberNumber();
    assert.match(number, /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    assert.equal(memberNumberOf(number), number);
    assert.equal(memberNumberOf(number.toLowerCase().replace("-", " ")), number);
    seen.add(number);
    const chars = [...number.replace("-", "")];
    const at = i % 8;
    const wrong = chars.map((c, j) => j === at ? (c === "7" ? "8" : "7") : c).join("");
    assert.equal(memberNumberOf(wrong), null, `${number} → ${wrong}`);
  }
  assert.equal(seen.size, 500);
  assert.equal(memberNumberOf("not a number"), null);
});
