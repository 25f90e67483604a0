import assert from "node:assert/strict";
import { cardProblems, EXPIRY } from "./cards.ts";
import { overBudget } from "@/tests/helpers/time_budget.ts";

Deno.test("EXPIRY: accepts exactly what the old backtracking pattern did, on every short string", () => {
  // The old pattern: quadratic on "12" + spaces + "x" (seconds at 64 KB), harmless on 7 characters.
  const old = /^(\d{2})\s*\/?\s*(\d{2})$/;
  const alphabet = ["1", "2", "/", " ", "x"];
  let strings = [""];
  for (let length = 1; length <= 7; length++) {
    strings = strings.flatMap((s) => alphabet.map((c) => s + c));
    for (const s of strings) {
      assert.deepEqual(s.match(EXPIRY)?.slice(1), s.match(old)?.slice(1), JSON.stringify(s));
    }
  }
});

Deno.test("cardProblems: the expiry's forms; spaces at the body limit answered at once", async () => {
  const now = new Date(Date.UTC(2026, 0, 1));
  const card = { cardNumber: "4580 0000 0000 0000", cvv: "123", idNumber: "123456789" };
  for (const expiry of ["12/30", "1230", "12 / 30", "12 /30", "12/ 30"]) {
    assert.deepEqual(cardProblems({ ...card, expiry }, now), {}, expiry);
  }
  for (const expiry of ["12//30", "1/30", "12-30", "13/30", "12/25"]) {
    assert.deepEqual(cardProblems({ ...card, expiry }, now), { expiry: "expiry" }, expiry);
  }
  const long = "12" + " ".repeat(65_536) + "x";
  assert.deepEqual(cardProblems({ ...card, expiry: long }, now), { expiry: "expiry" });
  assert.equal(await overBudget(long, (expiry) => cardProblems({ ...card, expiry }, now)), null);
});
