/**
 * The app's log never carries a donor id or a query string: a donor's whole journey (created, read,
 * the cancel page opened and used, a payment made on the sandbox page, the return route with a
 * query, the provider's notification with one) is run against the app, and its captured lines are
 * read. Request lines show the route with `:id`; domain lines keep payment ids (they open nothing)
 * but no donor id.
 */
import assert from "node:assert/strict";
import { startTestApp } from "@/tests/helpers/app.ts";
import { api } from "@/tests/helpers/http.ts";
import { createPayment, followReturn, newDonor, payOnSandboxPage } from "@/tests/helpers/payments.ts";

Deno.test("logs: no donor id, no id segment and no query string in any line", async () => {
  const app = await startTestApp();
  try {
    const userId = await newDonor(app, "Logged");
    assert.equal((await api(app.url, "GET", `/api/user/${userId}`)).status, 200);
    const cancelPage = await fetch(`${app.url}/en/cancel-subscription?userId=${userId}`);
    assert.equal(cancelPage.status, 200);
    await cancelPage.body?.cancel();
    const cancelled = await fetch(`${app.url}/he/cancel-subscription?userId=${userId}`, {
      method: "POST",
      headers: { origin: app.url },
    });
    assert.equal(cancelled.status, 200);
    await cancelled.body?.cancel();

    const created = await createPayment(app, { amount: 12, currency: "nis", userId });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const ref = new URL(created.body.url).pathname.split("/").pop()!;
    const payment = (await app.store.payments.getByProviderRef("sandbox", ref))!;
    assert.ok(payment);
    assert.equal((await payOnSandboxPage(app, created.body.url)).pathname, "/en/success");
    await followReturn(
      app,
      `${app.url}/payments/return/${payment.id}?SandboxTransactionId=${ref}&u=${userId}`,
    );
    const notified = await api(
      app.url,
      "POST",
      `/api/payment/notify/sandbox?UserKey=${userId}`,
      { ResultData: { TransactionId: ref } },
    );
    assert.equal(notified.status, 200, JSON.stringify(notified.body));

    const lines = app.logs.map((line) => JSON.stringify(line));
    for (const line of lines) {
      assert.ok(!line.includes(userId), `a donor id in ${line}`);
      assert.ok(!line.includes(ref), `the provider's payment page id in ${line}`);
    }
    const requests = app.logs.filter((line) => line.msg === "request");
    for (const line of requests) {
      assert.ok(!String(line.path).includes("?"), `a query string in ${JSON.stringify(line)}`);
      assert.ok(!String(line.path).includes(payment.id), `a payment id in ${JSON.stringify(line)}`);
    }
    const paths = new Set(requests.map((line) => `${line.method} ${line.path}`));
    for (
      const expected of [
        "GET /api/user/:id",
        "GET /en/cancel-subscription",
        "POST /he/cancel-subscription",
        "POST /sandbox/pay/:id",
        "GET /payments/return/:id",
        "POST /api/payment/notify/sandbox",
      ]
    ) {
      assert.ok(paths.has(expected), `${expected} in ${[...paths].join(", ")}`);
    }
    assert.ok(app.logs.some((line) => line.msg === "donor created"));
    assert.ok(app.logs.some((line) => line.msg === "monthly donation stopped"));
  } finally {
    await app.close();
  }
});
