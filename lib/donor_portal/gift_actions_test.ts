import assert from "node:assert/strict";
import {
  ChargeInProgressError,
  GiftEndedError,
  InvalidGiftChangeError,
  NoSuchGiftError,
} from "@/lib/monthly_gifts/subscription_changes.ts";
import { amountOfForm, giftDoneNotice, giftErrorNotice, isGiftAction } from "./gift_actions.ts";

const form = (fields: Record<string, string>) => new URLSearchParams(fields);

Deno.test("amountOfForm: a tier, another amount (comma or point), the typed one when the radio is forgotten", () => {
  assert.equal(amountOfForm(form({ amount: "200" })), 200);
  assert.equal(amountOfForm(form({ amount: "other", otherAmount: " 12,5 " })), 12.5);
  assert.equal(amountOfForm(form({ amount: "other", otherAmount: "12.50" })), 12.5);
  assert.equal(amountOfForm(form({ otherAmount: "40" })), 40);
  // A tier chosen wins over a leftover typed amount.
  assert.equal(amountOfForm(form({ amount: "20", otherAmount: "40" })), 20);
});

Deno.test("amountOfForm: missing or not a number is refused, saying which", () => {
  for (
    const [fields, why] of [
      [{}, "missing"],
      [{ amount: "other", otherAmount: "" }, "missing"],
      [{ amount: "other", otherAmount: "ten" }, "not a number"],
      [{ amount: "other", otherAmount: "1e3" }, "not a number"],
      [{ amount: "other", otherAmount: "-5" }, "not a number"],
      [{ amount: "other", otherAmount: "1.2.3" }, "not a number"],
      [{ amount: "Infinity" }, "not a number"],
    ] as const
  ) {
    assert.throws(
      () => amountOfForm(form(fields)),
      (e) => e instanceof InvalidGiftChangeError && e.errors?.[0].message === why,
      JSON.stringify(fields),
    );
  }
});

Deno.test("giftErrorNotice: each refusal its locale key and field; anything else is not a notice", () => {
  const of = (e: unknown) => giftErrorNotice(e, "amount", "g1", 5000);
  assert.deepEqual(of(new InvalidGiftChangeError("x", "amount", "too large")), {
    kind: "error",
    action: "amount",
    giftId: "g1",
    key: "amountTooLarge",
    field: "amount",
    values: { min: 1, max: 5000 },
  });
  assert.equal(
    (of(new InvalidGiftChangeError("x", "amount", "not money")) as { key: string }).key,
    "amountDecimals",
  );
  assert.equal((of(new InvalidGiftChangeError("x", "months", "x")) as { key: string }).key, "months");
  assert.equal((of(new InvalidGiftChangeError("x", "period", "x")) as { key: string }).key, "skipNotNext");
  assert.equal((of(new InvalidGiftChangeError("x", "reason", "x")) as { key: string }).key, "reason");
  assert.equal((of(new NoSuchGiftError()) as { key: string }).key, "noSuchGift");
  assert.equal((of(new GiftEndedError()) as { key: string }).key, "ended");
  assert.equal((of(new ChargeInProgressError()) as { key: string }).key, "chargeInProgress");
  assert.equal(of(new TypeError("bug")), null);
});

Deno.test("giftDoneNotice and isGiftAction: only the five forms", () => {
  assert.deepEqual(giftDoneNotice(new URL("https://x/en/account?done=pause")), {
    kind: "done",
    action: "pause",
  });
  assert.equal(giftDoneNotice(new URL("https://x/en/account?done=<script>")), null);
  assert.equal(giftDoneNotice(new URL("https://x/en/account")), null);
  assert.ok(isGiftAction("resume") && !isGiftAction("delete"));
});
