/**
 * The donor's Israeli ID number (issue 14) stays where it belongs: a donor who gave one pays, and
 * neither the donor API, nor the back office's transaction lists, nor its CSV export, nor any log
 * line carries the number (the stored donor does, for the receipt), on both backends.
 */
import assert from "node:assert/strict";
import { startTestApp } from "@/tests/helpers/app.ts";
import { api, bearer } from "@/tests/helpers/http.ts";
import { createPayment, payOnSandboxPage } from "@/tests/helpers/payments.ts";
import { backendTest } from "@/tests/helpers/stores.ts";

/** A valid ID number (check digit 3), and the digits no answer may show. */
const ISRAELI_ID = "039337423";
const LEAKS = ["39337423", "0393374"];

backendTest(
  "tax receipt: the Israeli ID number is in no API answer, back-office list, export or log",
  async (_t, open) => {
    const app = await startTestApp({ store: await open() });
    try {
      const created = await api(app.url, "POST", "/api/user", {
        firstName: "Noa",
        lastName: "Cohen",
        email: "noa@example.org",
        country: "Israel",
        israeliId: ISRAELI_ID,
      });
      assert.equal(created.status, 201);
      const userId = created.body.id;
      assert.equal((await app.store.donors.get(userId))?.israeliId, ISRAELI_ID, "stored for the receipt");

      const payment = await createPayment(app, { amount: 180, currency: "nis", userId });
      assert.equal(payment.status, 200, JSON.stringify(payment.body));
      assert.equal((await payOnSandboxPage(app, payment.body.url)).pathname, "/en/success");

      const admin = await api(app.url, "POST", "/api/auth/admin/register", {
        email: "finance@museum.org",
        password: "ledger-and-ink-2026",
      });
      const auth = bearer(admin.body.accessToken);
      const answers: [string, string][] = [];
      for (const path of ["/api/transaction/get-all-success-transactions", "/api/transaction/export"]) {
        const res = await fetch(`${app.url}${path}`, { headers: auth });
        assert.equal(res.status, 200, path);
        answers.push([path, await res.text()]);
      }
      const [, list] = answers[0];
      assert.ok(list.includes("noa@example.org"), "the donor's gift is in the list");
      const donor = await api(app.url, "GET", `/api/user/${userId}`);
      answers.push([`/api/user/${userId}`, JSON.stringify(donor.body)]);
      for (const line of app.logs) answers.push(["log", JSON.stringify(line)]);
      for (const [where, text] of answers) {
        for (const leak of LEAKS) {
          assert.ok(
            !text.includes(leak),
            `the ID number in ${where}: ${text.slice(0, 300)}`,
          );
        }
      }
    } finally {
      await app.close();
    }
  },
);
