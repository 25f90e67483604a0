/**
 * The online payment flow end to end through the sandbox, in the app, on both backends:
 * `POST /api/payment/create` → the hosted card page → our return route → the result page, with
 * the transaction recorded exactly once and only from the provider's own record.
 */
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { api, bearer } from "@/tests/helpers/http.ts";
import {
  createPayment,
  followReturn,
  newDonor,
  payOnSandboxPage,
  signedPost,
} from "@/tests/helpers/payments.ts";
import { backendTest } from "@/tests/helpers/stores.ts";

async function adminToken(app: TestApp): Promise<string> {
  const res = await api(app.url, "POST", "/api/auth/admin/register", {
    email: "finance@museum.org",
    password: "ledger-and-ink-2026",
  });
  return res.body.accessToken;
}

async function lists(app: TestApp, token: string) {
  const ok = await api(
    app.url,
    "GET",
    "/api/transaction/get-all-success-transactions?limit=100",
    undefined,
    bearer(token),
  );
  const errors = await api(
    app.url,
    "GET",
    "/api/transaction/get-all-error-transactions?limit=100",
    undefined,
    bearer(token),
  );
  return { ok: ok.body, errors: errors.body };
}

backendTest("api: online payments through the sandbox", async (t, open) => {
  const app = await startTestApp({ store: await open() });
  try {
    const token = await adminToken(app);

    await t.step(
      "one-time tier in NIS: create → card page → return → success page, recorded once",
      async () => {
        const userId = await newDonor(app);
        const created = await createPayment(app, { amount: 100, currency: "nis", userId, language: "he" });
        assert.equal(created.status, 200, JSON.stringify(created.body));
        assert.match(created.body.url, new RegExp(`^${app.url}/sandbox/pay/[A-Za-z0-9_-]{24}$`));
        const page = await fetch(created.body.url);
        assert.equal(page.status, 200);
        assert.match(page.headers.get("content-security-policy") ?? "", /frame-ancestors 'self'/);
        // The card page's form posts to us, inside the donation page's frame.
        assert.match(page.headers.get("content-security-policy") ?? "", /form-action 'self'(;|$)/);
        assert.match(await page.text(), /<html lang="he" dir="rtl">/);
        const landed = await payOnSandboxPage(app, created.body.url);
        assert.equal(landed.pathname, "/he/success");
        const ref = landed.searchParams.get("SandboxTransactionId");
        assert.match(ref ?? "", /^[A-Za-z0-9_-]{24}$/);
        const { ok } = await lists(app, token);
        assert.equal(ok.total, 1);
        assert.deepEqual(ok.data[0].resultData.DebitTotal, "10000");
        assert.equal(ok.data[0].resultData.DebitCurrency, 1);
        assert.match(ok.data[0].resultData.CreditCardNumber, /^458012\*+9015$/);
        assert.equal(ok.data[0].isMonthly, false);
        const donor = await api(app.url, "GET", `/api/user/${userId}`);
        assert.equal(donor.body.paymentDate, ok.data[0].createdAt);
      },
    );

    await t.step("other amount in dollars", async () => {
      const userId = await newDonor(app, "Noa");
      const created = await createPayment(app, { amount: 12.5, currency: "dollars", userId });
      const landed = await payOnSandboxPage(app, created.body.url);
      assert.equal(landed.pathname, "/en/success");
      const { ok } = await lists(app, token);
      const tx = ok.data.find((d: { user: { firstName: string } }) => d.user.firstName === "Noa");
      assert.deepEqual([tx.resultData.DebitTotal, tx.resultData.DebitCurrency], ["1250", 2]);
    });

    await t.step("declined cards land on the error page with their code, recorded as errors", async () => {
      for (const code of ["003", "004", "006", "033", "039", "057"]) {
        const userId = await newDonor(app, `Decline${code}`);
        const created = await createPayment(app, { amount: 20, currency: "nis", userId });
        const landed = await payOnSandboxPage(app, created.body.url, `4000 0000 0000 0${code}`);
        assert.equal(landed.pathname, "/en/error", code);
        assert.equal(landed.searchParams.get("SandboxStatusCode"), code);
        assert.ok(landed.searchParams.get("SandboxTransactionId"));
      }
      const { errors } = await lists(app, token);
      assert.deepEqual(
        errors.data.map((d: { statusCode: string }) => d.statusCode).sort(),
        ["003", "004", "006", "033", "039", "057"],
      );
      assert.ok(errors.data.every((d: { amount: number }) => d.amount === 2000));
    });

    await t.step(
      "the return and the notification, three times each in any order, make one transaction",
      async () => {
        const userId = await newDonor(app, "Twice");
        const created = await createPayment(app, { amount: 50, currency: "dollars", userId });
        const landed = await payOnSandboxPage(app, created.body.url);
        const ref = landed.searchParams.get("SandboxTransactionId")!;
        const payment = await app.store.payments.getByProviderRef("sandbox", ref);
        const returnUrl = `${app.url}/payments/return/${payment!.id}?SandboxTransactionId=${ref}`;
        const notify = () =>
          api(app.url, "POST", "/api/payment/notify/sandbox", {
            StatusCode: "000",
            ResultData: { TransactionId: ref },
          });
        const answers = await Promise.all([
          notify(),
          followReturn(app, returnUrl),
          notify(),
          followReturn(app, returnUrl),
          notify(),
        ]);
        assert.ok(answers.every((a) => a instanceof URL ? a.pathname === "/en/success" : a.status === 200));
        const { ok } = await lists(app, token);
        assert.equal(
          ok.data.filter((d: { user: { firstName: string } }) => d.user.firstName === "Twice").length,
          1,
        );
      },
    );

    await t.step("forged success parameters create nothing", async () => {
      const userId = await newDonor(app, "Forger");
      const created = await createPayment(app, { amount: 400, currency: "nis", userId });
      const ref = created.body.url.split("/").pop();
      const payment = await app.store.payments.getByProviderRef("sandbox", ref);
      const landed = await followReturn(
        app,
        `${app.url}/payments/return/${payment!.id}?SandboxStatusCode=000&SandboxTransactionId=${ref}`,
      );
      assert.equal(landed.pathname, "/en/error", "an unpaid payment is not a success");
      const note = await api(app.url, "POST", "/api/payment/notify/sandbox", {
        StatusCode: "000",
        ResultData: { TransactionId: ref },
      });
      assert.equal(note.body.outcome, "pending");
      const unknown = await api(app.url, "POST", "/api/payment/notify/sandbox", {
        StatusCode: "000",
        ResultData: { TransactionId: "AAAAAAAAAAAAAAAAAAAAAAAA" },
      });
      assert.equal(unknown.status, 404);
      const { ok, errors } = await lists(app, token);
      const named = (d: { user: { firstName: string } }) => d.user.firstName === "Forger";
      assert.equal(ok.data.filter(named).length + errors.data.filter(named).length, 0);
    });

    await t.step("an amount changed between create and return is refused and logged", async () => {
      const userId = await newDonor(app, "Changed");
      const created = await createPayment(app, { amount: 25, currency: "dollars", userId });
      const ref = created.body.url.split("/").pop();
      const payment = (await app.store.payments.getByProviderRef("sandbox", ref))!;
      const original = (await app.store.sandbox.get(ref))!;
      // The provider's record says 1 dollar was charged for this attempt.
      const forgedRef = `${ref.slice(0, 20)}XXXX`;
      await app.store.sandbox.create({ ...original, ref: forgedRef, amount: 100 });
      await app.store.sandbox.transition(
        forgedRef,
        "open",
        "paid",
        { statusCode: "000" },
        new Date().toISOString(),
      );
      await app.store.payments.update(payment.id, { providerRef: forgedRef });
      const landed = await followReturn(app, `${app.url}/payments/return/${payment.id}`);
      assert.equal(landed.pathname, "/en/error");
      const { ok, errors } = await lists(app, token);
      const named = (d: { user: { firstName: string } }) => d.user.firstName === "Changed";
      assert.equal(ok.data.filter(named).length, 0);
      assert.equal(errors.data.filter(named)[0]?.statusCode, "MISMATCH");
      assert.ok(app.logs.some((l) => l.msg === "payment amount or currency differs from the provider's"));
    });

    await t.step("an identical create within a minute answers the same payment", async () => {
      const userId = await newDonor(app, "Repeat");
      const [a, b] = await Promise.all([
        createPayment(app, { amount: 200, currency: "nis", userId }),
        createPayment(app, { amount: 200, currency: "nis", userId }),
      ]);
      assert.equal(a.body.url, b.body.url);
      const c = await createPayment(app, { amount: 100, currency: "nis", userId });
      assert.notEqual(c.body.url, a.body.url, "another amount is another payment");
    });

    await t.step("bad input: amount, currency, donor, monthly flag and signature", async () => {
      const userId = await newDonor(app, "Careful");
      const cases: [Record<string, string | number | boolean>, number, RegExp][] = [
        [{ amount: 0.5, currency: "nis", userId }, 400, /at least 1/],
        [{ amount: 100001, currency: "nis", userId }, 400, /at most 100000/],
        [{ amount: 10.555, currency: "nis", userId }, 400, /two decimals/],
        [{ amount: "100", currency: "nis", userId }, 400, /amount must be a number/],
        [{ amount: 100, currency: "eur", userId }, 400, /currency must be nis or dollars/],
        [{ amount: 100, currency: "nis", userId: "AAAAAAAAAAAAAAAAAAAAAAAA" }, 404, /No donor/],
        [{ amount: 100, currency: "nis", userId, language: "fr" }, 400, /language/],
      ];
      for (const [payload, status, message] of cases) {
        const res = await signedPost(app, "/api/payment/create", {
          isMonthly: false,
          language: "en",
          ...payload,
        });
        assert.equal(res.status, status, JSON.stringify(payload));
        assert.match(res.body.message, message);
      }
      const unsigned = await api(app.url, "POST", "/api/payment/create", {
        amount: 100,
        currency: "nis",
        userId,
        isMonthly: false,
        language: "en",
      });
      assert.equal(unsigned.status, 401);
      assert.match(unsigned.body.message, /signature is missing/);
      await app.store.flags.set("MONTHLY_PAYMENT", false);
      const monthly = await createPayment(app, { amount: 100, currency: "nis", userId, isMonthly: true });
      assert.equal(monthly.status, 400);
      assert.match(monthly.body.message, /Monthly donations are not available/);
      await app.store.flags.set("MONTHLY_PAYMENT", true);
    });
  } finally {
    await app.close();
  }
});
