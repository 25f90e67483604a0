import assert from "node:assert/strict";
import {
  amountOf,
  EMAIL_MAX_LENGTH,
  EMAIL_PATTERN,
  EMPTY_SELECTION,
  fieldError,
  formErrors,
  incorrectAmount,
  isEmail,
  selectionFromForm,
} from "./donation.ts";
import { TIERS } from "./money.ts";
import { overBudget } from "@/tests/helpers/time_budget.ts";

Deno.test("amountOf: a tier is its NIS price in NIS; nothing chosen is null", () => {
  assert.equal(amountOf(EMPTY_SELECTION, TIERS), null);
  assert.deepEqual(amountOf({ ...EMPTY_SELECTION, tier: 1 }, TIERS), { amount: 20, currency: "nis" });
  assert.deepEqual(amountOf({ ...EMPTY_SELECTION, tier: 4, period: "monthly" }, TIERS), {
    amount: 400,
    currency: "nis",
  });
  assert.equal(amountOf({ ...EMPTY_SELECTION, tier: 9 }, TIERS), null);
});

Deno.test("amountOf: the other amount in its currency, dollars by default", () => {
  assert.deepEqual(amountOf({ ...EMPTY_SELECTION, other: true, otherAmount: " 12.5 " }, TIERS), {
    amount: 12.5,
    currency: "dollars",
  });
  assert.deepEqual(
    amountOf({ ...EMPTY_SELECTION, other: true, otherAmount: "30", otherCurrency: "nis" }, TIERS),
    {
      amount: 30,
      currency: "nis",
    },
  );
  assert.equal(amountOf({ ...EMPTY_SELECTION, other: true, otherAmount: "" }, TIERS), null);
  // 'other' wins over a stale tier
  assert.deepEqual(amountOf({ ...EMPTY_SELECTION, tier: 2, other: true, otherAmount: "7" }, TIERS), {
    amount: 7,
    currency: "dollars",
  });
});

Deno.test("incorrectAmount: missing, not a number or below 1", () => {
  for (const bad of [null, undefined, NaN, 0, 0.99, -5, Infinity]) {
    assert.ok(incorrectAmount(bad), String(bad));
  }
  for (const good of [1, 1.5, 400]) assert.ok(!incorrectAmount(good), String(good));
});

Deno.test("formErrors: the spec's keys, email pattern", () => {
  assert.deepEqual(formErrors({ firstName: "", lastName: " ", email: "", country: "" }), {
    firstName: "form.enterFirstName",
    lastName: "form.enterLastName",
    email: "form.enterEmail",
    country: "form.enterCountry",
  });
  assert.deepEqual(formErrors({ firstName: "Dana", lastName: "Levi", email: "d@x.org", country: "IL" }), {});
  for (const bad of ["dana", "dana@x", "da na@x.org", "@x.org", "d@.org"]) {
    assert.equal(fieldError("email", bad), "form.invalidEmail", bad);
  }
  assert.equal(fieldError("email", " dana@example.co.il "), null);
});

Deno.test("EMAIL_PATTERN: accepts exactly what the spec's backtracking pattern did, on every short string", () => {
  // The spec's pattern, quadratic on long input: harmless on strings of at most 7 characters.
  const spec = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
  const alphabet = ["a", ".", "@", " ", "\u05d0"];
  let strings = [""];
  for (let length = 1; length <= 7; length++) {
    strings = strings.flatMap((s) => alphabet.map((c) => s + c));
    for (const s of strings) assert.equal(EMAIL_PATTERN.test(s), spec.test(s), JSON.stringify(s));
  }
  for (
    const good of ["a@b.c", "a@b..c", "a@.b.c", "a@b.c.", "d.l+x@mail.museum.org", "\u05d3@\u05d0.\u05d1"]
  ) {
    assert.ok(EMAIL_PATTERN.test(good), good);
  }
  for (const bad of ["a@b.", "a@.b", "a@b", "a@@b.c", "a b@c.d", "a@b.c d", "a@b.c@"]) {
    assert.ok(!EMAIL_PATTERN.test(bad), bad);
  }
});

Deno.test("isEmail: longer than the limit is refused before the pattern runs", async () => {
  const at = (n: number) => "a".repeat(n - "@museum.org".length) + "@museum.org";
  assert.equal(isEmail(at(EMAIL_MAX_LENGTH)), true);
  assert.equal(isEmail(at(EMAIL_MAX_LENGTH + 1)), false);
  assert.equal(fieldError("email", at(EMAIL_MAX_LENGTH + 1)), "form.invalidEmail");
  // The quadratic case of the old pattern, at the body limit: answered at once.
  const quadratic = "a@" + ".".repeat(65_536) + "@";
  assert.equal(fieldError("email", quadratic), "form.invalidEmail");
  assert.equal(await overBudget(quadratic, (s) => fieldError("email", s)), null);
});

Deno.test("selectionFromForm: reads the no-JavaScript fields, defaults otherwise", () => {
  assert.deepEqual(selectionFromForm({}, TIERS), EMPTY_SELECTION);
  assert.deepEqual(selectionFromForm({ period: "monthly", choice: "tier-3" }, TIERS), {
    ...EMPTY_SELECTION,
    period: "monthly",
    tier: 3,
  });
  assert.deepEqual(
    selectionFromForm({ choice: "other", otherAmount: "15", otherCurrency: "nis" }, TIERS),
    { ...EMPTY_SELECTION, other: true, otherAmount: "15", otherCurrency: "nis" },
  );
  assert.equal(selectionFromForm({ choice: "tier-7" }, TIERS).tier, null);
  assert.equal(selectionFromForm({ otherCurrency: "euro" }, TIERS).otherCurrency, "dollars");
});
