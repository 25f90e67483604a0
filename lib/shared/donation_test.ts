import assert from "node:assert/strict";
import {
  amountOf,
  EMPTY_SELECTION,
  fieldError,
  formErrors,
  incorrectAmount,
  selectionFromForm,
} from "./donation.ts";

Deno.test("amountOf: a tier is its NIS price in NIS; nothing chosen is null", () => {
  assert.equal(amountOf(EMPTY_SELECTION), null);
  assert.deepEqual(amountOf({ ...EMPTY_SELECTION, tier: 1 }), { amount: 20, currency: "nis" });
  assert.deepEqual(amountOf({ ...EMPTY_SELECTION, tier: 4, period: "monthly" }), {
    amount: 400,
    currency: "nis",
  });
  assert.equal(amountOf({ ...EMPTY_SELECTION, tier: 9 }), null);
});

Deno.test("amountOf: the other amount in its currency, dollars by default", () => {
  assert.deepEqual(amountOf({ ...EMPTY_SELECTION, other: true, otherAmount: " 12.5 " }), {
    amount: 12.5,
    currency: "dollars",
  });
  assert.deepEqual(amountOf({ ...EMPTY_SELECTION, other: true, otherAmount: "30", otherCurrency: "nis" }), {
    amount: 30,
    currency: "nis",
  });
  assert.equal(amountOf({ ...EMPTY_SELECTION, other: true, otherAmount: "" }), null);
  // 'other' wins over a stale tier
  assert.deepEqual(amountOf({ ...EMPTY_SELECTION, tier: 2, other: true, otherAmount: "7" }), {
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

Deno.test("selectionFromForm: reads the no-JavaScript fields, defaults otherwise", () => {
  assert.deepEqual(selectionFromForm({}), EMPTY_SELECTION);
  assert.deepEqual(selectionFromForm({ period: "monthly", choice: "tier-3" }), {
    ...EMPTY_SELECTION,
    period: "monthly",
    tier: 3,
  });
  assert.deepEqual(
    selectionFromForm({ choice: "other", otherAmount: "15", otherCurrency: "nis" }),
    { ...EMPTY_SELECTION, other: true, otherAmount: "15", otherCurrency: "nis" },
  );
  assert.equal(selectionFromForm({ choice: "tier-7" }).tier, null);
  assert.equal(selectionFromForm({ otherCurrency: "euro" }).otherCurrency, "dollars");
});
