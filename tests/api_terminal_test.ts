/**
 * Kiosk payments through the sandbox's simulated terminal (`POST /api/payment/pay-emv`) and test
 * terminal payments (`POST /api/payment/test-emv/{terminalNumber}`), on both backends.
 */
import assert from "node:assert/strict";
import { startTestApp } from "@/tests/helpers/app.ts";
import { api } from "@/tests/helpers/http.ts";
import { pairTestKiosk } from "@/tests/helpers/kiosk.ts";
import { followReturn, newDonor, payOnSandboxPage, signedPost } from "@/tests/helpers/payments.ts";
import { backendTest } from "@/tests/helpers/stores.ts";

const sale = (userId: string, shopNumber = "12") => ({
  amount: 100,
  currency: "nis",
  userId,
  language: "en",
  isMonthly: false,
  shopNumber,
});

backendTest("api: terminal sales", async (t, open) => {
  const store = await open();
  const apps: { close(): Promise<void> }[] = [];
  const start = async (env: Record<string, string>) => {
    const app = await startTestApp({ store, env });
    apps.push(app);
    return app;
  };
  try {
    for (const [mode, code] of [["approve", "000"], ["decline:004", "004"]] as const) {
      await t.step(`SANDBOX_TERMINAL_AUTO=${mode} answers ${code} and records it`, async () => {
        const app = await start({ SANDBOX_TERMINAL_AUTO: mode });
        const kiosk = await pairTestKiosk(app, "12");
        const userId = await newDonor(app, `Kiosk${code}`);
        const res = await signedPost(app, "/api/payment/pay-emv", sale(userId), kiosk.headers);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(res.body.StatusCode, code);
        assert.ok(res.body.ResultData.TransactionId);
        assert.equal(res.body.ResultData.ShvaResult, code);
        const tx = await store.transactions.getByProviderId("sandbox", res.body.ResultData.TransactionId);
        assert.equal(tx?.kind, code === "000" ? "success" : "error");
        assert.equal(tx?.amount, 10000);
      });
    }

    await t.step("a timeout answers 512, records the failure, and a late tap cannot charge", async () => {
      const app = await start({ SANDBOX_TERMINAL_AUTO: "timeout", TERMINAL_DEADLINE_SECONDS: "1" });
      const kiosk = await pairTestKiosk(app, "7");
      const userId = await newDonor(app, "Slow");
      const started = Date.now();
      const res = await signedPost(app, "/api/payment/pay-emv", sale(userId, "7"), kiosk.headers);
      assert.ok(Date.now() - started >= 900);
      assert.equal(res.body.StatusCode, "512");
      assert.match(res.body.ErrorMessage, /nothing was charged/);
      const ref = res.body.ResultData.TransactionId;
      assert.equal((await store.sandbox.get(ref))?.status, "timeout");
      const late = await fetch(`${app.url}/sandbox/terminal/sim-7`, {
        method: "POST",
        body: new URLSearchParams({ ref, action: "approve" }),
        redirect: "manual",
      });
      await late.body?.cancel();
      assert.equal(
        (await store.sandbox.get(ref))?.status,
        "timeout",
        "the tap after the deadline did nothing",
      );
      assert.equal((await store.transactions.getByProviderId("sandbox", ref))?.statusCode, "512");
    });

    await t.step("manual: a person approves the waiting sale on the terminal page", async () => {
      const app = await start({ SANDBOX_TERMINAL_AUTO: "manual" });
      const kiosk = await pairTestKiosk(app, "33");
      const userId = await newDonor(app, "Manual");
      const pending = signedPost(app, "/api/payment/pay-emv", sale(userId, "33"), kiosk.headers);
      let page = "";
      for (let i = 0; i < 50 && !page.includes('name="ref"'); i++) {
        await new Promise((r) => setTimeout(r, 100));
        page = await (await fetch(`${app.url}/sandbox/terminal/sim-33`)).text();
      }
      const ref = page.match(/name="ref" value="([^"]+)"/)![1];
      const tap = await fetch(`${app.url}/sandbox/terminal/sim-33`, {
        method: "POST",
        body: new URLSearchParams({ ref, action: "approve" }),
        redirect: "manual",
      });
      await tap.body?.cancel();
      assert.equal(tap.status, 303);
      const res = await pending;
      assert.equal(res.body.StatusCode, "000");
      assert.equal(res.body.ResultData.TransactionId, ref);
    });

    await t.step("bad terminal requests", async () => {
      const app = await start({ SANDBOX_TERMINAL_AUTO: "approve" });
      const kiosk = await pairTestKiosk(app, "12");
      const userId = await newDonor(app, "Odd");
      const monthly = await signedPost(
        app,
        "/api/payment/pay-emv",
        { ...sale(userId), isMonthly: true },
        kiosk.headers,
      );
      assert.equal(monthly.status, 400);
      const badShop = await signedPost(app, "/api/payment/pay-emv", sale(userId, "../x"), kiosk.headers);
      assert.equal(badShop.status, 400);
      const unsigned = await api(app.url, "POST", "/api/payment/pay-emv", sale(userId), kiosk.headers);
      assert.equal(unsigned.status, 401);
    });
  } finally {
    for (const app of apps) await app.close();
  }
});

backendTest("api: test terminal payments", async (t, open) => {
  const app = await startTestApp({ store: await open(), env: { FEATURE_TEST_TERMINAL_PAYMENT: "1" } });
  try {
    const shop12 = await pairTestKiosk(app, "12");
    const shop1003 = await pairTestKiosk(app, "1003");
    await t.step("a test terminal's payment returns to the terminal result page of its shop", async () => {
      const res = await api(app.url, "POST", "/api/payment/test-emv/1002", {
        language: "he",
        shopNumber: "12",
      }, shop12.headers);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const landed = await payOnSandboxPage(app, res.body.url);
      assert.equal(landed.pathname, "/he/terminal-success/12");
      const declined = await api(app.url, "POST", "/api/payment/test-emv/1003", undefined, shop1003.headers);
      const failed = await payOnSandboxPage(app, declined.body.url, "4000 0000 0000 0004");
      assert.equal(failed.pathname, "/en/terminal-error/1003");
      assert.equal(failed.searchParams.get("SandboxStatusCode"), "004");
    });
    await t.step("only the configured test terminals, only while the flag is on", async () => {
      const other = await api(app.url, "POST", "/api/payment/test-emv/9999", undefined, shop12.headers);
      assert.equal(other.status, 404);
      await app.store.flags.set("TEST_TERMINAL_PAYMENT", false);
      const off = await api(app.url, "POST", "/api/payment/test-emv/1001", undefined, shop12.headers);
      assert.equal(off.status, 403);
    });
    await t.step("an unknown return id is a 404 page", async () => {
      const res = await fetch(`${app.url}/payments/return/AAAAAAAAAAAAAAAAAAAAAAAA`, { redirect: "manual" });
      await res.body?.cancel();
      assert.equal(res.status, 404);
      const landed = await followReturn(app, `${app.url}/payments/return/x`).catch((e) => e);
      assert.ok(landed instanceof Error);
    });
  } finally {
    await app.close();
  }
});
