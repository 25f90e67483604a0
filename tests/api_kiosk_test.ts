/**
 * Kiosks only from kiosks (issue 13): the kiosk devices API (create, list, new pairing code,
 * revoke), pairing on `/{lang}/kiosk-pair` (single use, expiring), and terminal sales refused
 * without a paired device: browser keys (which any page hands out), no device, a revoked one, one
 * for another shop; `SIGNING_KEYS` server keys still work; one pending sale per terminal, across
 * instances. On both backends.
 */
import assert from "node:assert/strict";
import { createKioskDevice, PAIRING_CODE_TTL_MS } from "@/lib/kiosk/devices.ts";
import { signPayload } from "@/lib/shared/signing.ts";
import { startTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { api, bearer } from "@/tests/helpers/http.ts";
import { deviceCookieOf, pairTestKiosk, pairWithCode } from "@/tests/helpers/kiosk.ts";
import { newDonor, signedPost } from "@/tests/helpers/payments.ts";
import { backendTest } from "@/tests/helpers/stores.ts";

const SERVER_KEY = "ab".repeat(32);

const sale = (userId: string, shopNumber = "12") => ({
  amount: 100,
  currency: "nis",
  userId,
  language: "en",
  isMonthly: false,
  shopNumber,
});

function form(app: TestApp, path: string, fields: Record<string, string>, cookie?: string) {
  const headers: Record<string, string> = { origin: app.url };
  if (cookie) headers.cookie = cookie;
  return fetch(`${app.url}${path}`, {
    method: "POST",
    headers,
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
}

const DONOR = { firstName: "Dana", lastName: "Levi", email: "dana@example.org", country: "Israel" };

backendTest("api: kiosk devices, pairing, and terminal sales only from paired kiosks", async (t, open) => {
  const store = await open();
  const app = await startTestApp({
    store,
    env: {
      SANDBOX_TERMINAL_AUTO: "approve",
      SIGNING_KEYS: `crm:${SERVER_KEY}`,
      FEATURE_TEST_TERMINAL_PAYMENT: "1",
    },
  });
  try {
    const admin = await api(app.url, "POST", "/api/auth/admin/register", {
      email: "curator@museum.org",
      password: "a-long-museum-passphrase",
      name: "Ana",
    });
    assert.equal(admin.body.status, "approved");
    const auth = bearer(admin.body.accessToken);
    let deviceId = "";
    let code = "";

    await t.step("an approved admin creates a device: its pairing code and link, once", async () => {
      const res = await api(app.url, "POST", "/api/kiosk-devices", {
        name: "Entrance hall",
        shopNumber: "12",
        language: "he",
      }, auth);
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.match(
        res.body.pairing.code,
        /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/,
      );
      assert.equal(res.body.pairing.url, `${app.url}/he/kiosk-pair?code=${res.body.pairing.code}`);
      const expires = Date.parse(res.body.pairing.expiresAt) - Date.now();
      assert.ok(expires > PAIRING_CODE_TTL_MS - 60_000 && expires <= PAIRING_CODE_TTL_MS, String(expires));
      assert.deepEqual(
        { ...res.body.device, id: "", createdAt: "", pairingExpiresAt: "" },
        {
          id: "",
          name: "Entrance hall",
          shopNumber: "12",
          terminalId: "sim-12",
          createdAt: "",
          paired: false,
          pairedAt: null,
          lastUsedAt: null,
          revokedAt: null,
          pairingExpiresAt: "",
        },
      );
      deviceId = res.body.device.id;
      code = res.body.pairing.code;
      // Nothing secret is stored or listed: no code, no hash.
      const stored = await store.kioskDevices.get(deviceId);
      assert.ok(stored?.pairingCodeHash && !stored.pairingCodeHash.includes(code.replaceAll("-", "")));
      const list = await api(app.url, "GET", "/api/kiosk-devices", undefined, auth);
      assert.equal(list.status, 200);
      assert.deepEqual(list.body.map((d: { id: string }) => d.id), [deviceId]);
      assert.ok(!JSON.stringify(list.body).includes(stored.pairingCodeHash));
    });

    await t.step("bad device input is refused with the field at fault", async () => {
      const noName = await api(app.url, "POST", "/api/kiosk-devices", { name: " ", shopNumber: "12" }, auth);
      assert.equal(noName.status, 400);
      assert.equal(noName.body.errors[0].path, "name");
      const badShop = await api(
        app.url,
        "POST",
        "/api/kiosk-devices",
        { name: "x", shopNumber: "../1" },
        auth,
      );
      assert.equal(badShop.status, 400);
      assert.equal(badShop.body.errors[0].path, "shopNumber");
      const unknown = await api(
        app.url,
        "POST",
        "/api/kiosk-devices/AAAAAAAAAAAAAAAAAAAAAAAA/revoke",
        {},
        auth,
      );
      assert.equal(unknown.status, 404);
    });

    await t.step("the pairing link shows the code without using it; the form's POST pairs once", async () => {
      const page = await fetch(`${app.url}/he/kiosk-pair?code=${code}`);
      const html = await page.text();
      assert.equal(page.status, 200);
      assert.match(html, /<html[^>]*dir="rtl"/);
      assert.ok(html.includes(`value="${code}"`));
      assert.ok(html.includes("צימוד הקיוסק"));
      const paired = await pairWithCode(app.url, code.toLowerCase().replaceAll("-", " "), "he");
      await paired.body?.cancel();
      assert.equal(paired.status, 303);
      assert.equal(paired.headers.get("location"), "/he/terminal-payment/12");
      const setCookie = paired.headers.get("set-cookie")!;
      assert.match(setCookie, /^kiosk_device=[0-9a-f]{64}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Strict$/);
      // Single use.
      const again = await pairWithCode(app.url, code);
      assert.equal(again.status, 400);
      assert.match(await again.text(), /This pairing code is wrong, already used or expired/);
      assert.equal(again.headers.get("set-cookie"), null);
      const device = (await api(app.url, "GET", "/api/kiosk-devices", undefined, auth)).body[0];
      assert.equal(device.paired, true);
      assert.ok(device.lastUsedAt);
      assert.equal(device.pairingExpiresAt, null);
    });

    await t.step("an expired pairing code does not pair", async () => {
      const then = new Date(Date.now() - PAIRING_CODE_TTL_MS - 1000);
      const admin0 = (await store.admins.getByEmail("curator@museum.org"))!;
      const { pairing } = await createKioskDevice(store, app.config, admin0, {
        name: "Old",
        shopNumber: "12",
      }, then);
      const res = await pairWithCode(app.url, pairing.code);
      assert.equal(res.status, 400);
      await res.body?.cancel();
    });

    await t.step("pay-emv: a browser key without a paired device is refused (403)", async () => {
      const userId = await newDonor(app, "Nokiosk");
      const res = await signedPost(app, "/api/payment/pay-emv", sale(userId));
      assert.equal(res.status, 403);
      assert.match(res.body.message, /only be started from a paired kiosk/);
      const forged = await signedPost(app, "/api/payment/pay-emv", sale(userId), {
        cookie: `kiosk_device=${"0".repeat(64)}`,
      });
      assert.equal(forged.status, 403);
      assert.ok(!app.logs.some((l) => l.msg === "payment started"), "no sale was started");
    });

    await t.step("pay-emv: an unpaired browser is refused before its signature costs a write", async () => {
      // The same signed body, refused without a device, then sent by a paired kiosk: accepted, so the
      // refusal claimed no nonce (checking the signature first wrote one, and the replay was a 401).
      const kiosk = await pairTestKiosk(app, "12");
      const userId = await newDonor(app, "Replay");
      const key = await api(app.url, "GET", "/api/signing-key");
      const body = await signPayload(sale(userId), key.body);
      const refused = await api(app.url, "POST", "/api/payment/pay-emv", body);
      assert.equal(refused.status, 403);
      const ok = await api(app.url, "POST", "/api/payment/pay-emv", body, kiosk.headers);
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      // Sent again, it is a replay.
      const replay = await api(app.url, "POST", "/api/payment/pay-emv", body, kiosk.headers);
      assert.equal(replay.status, 401);
    });

    await t.step("pay-emv: a paired kiosk takes the sale for its shop only", async () => {
      const kiosk = await pairTestKiosk(app, "12");
      const userId = await newDonor(app, "Kiosk");
      const ok = await signedPost(app, "/api/payment/pay-emv", sale(userId), kiosk.headers);
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      assert.equal(ok.body.StatusCode, "000");
      const other = await signedPost(app, "/api/payment/pay-emv", sale(userId, "13"), kiosk.headers);
      assert.equal(other.status, 403);
      assert.match(other.body.message, /paired for another shop/);
    });

    await t.step(
      "pay-emv: a revoked device is refused; a new pairing code replaces the credential",
      async () => {
        const kiosk = await pairTestKiosk(app, "12");
        const revoked = await api(
          app.url,
          "POST",
          `/api/kiosk-devices/${kiosk.deviceId}/revoke`,
          undefined,
          auth,
        );
        assert.equal(revoked.status, 200);
        assert.ok(revoked.body.revokedAt);
        const userId = await newDonor(app, "Revoked");
        const res = await signedPost(app, "/api/payment/pay-emv", sale(userId), kiosk.headers);
        assert.equal(res.status, 403);
        assert.match(res.body.message, /was revoked/);
        const repair = await api(
          app.url,
          "POST",
          `/api/kiosk-devices/${kiosk.deviceId}/pairing-code`,
          {},
          auth,
        );
        assert.equal(repair.status, 409);

        const second = await pairTestKiosk(app, "12");
        const renewed = await api(app.url, "POST", `/api/kiosk-devices/${second.deviceId}/pairing-code`, {
          language: "ru",
        }, auth);
        assert.equal(renewed.status, 200);
        assert.match(renewed.body.url, /\/ru\/kiosk-pair\?code=/);
        const moved = await pairWithCode(app.url, renewed.body.code);
        await moved.body?.cancel();
        const newCookie = deviceCookieOf(moved);
        const old = await signedPost(app, "/api/payment/pay-emv", sale(userId), second.headers);
        assert.equal(old.status, 403, "the earlier kiosk is no longer paired");
        const now = await signedPost(app, "/api/payment/pay-emv", sale(userId), { cookie: newCookie });
        assert.equal(now.status, 200);
      },
    );

    await t.step("pay-emv and test-emv: a SIGNING_KEYS server key needs no device", async () => {
      const userId = await newDonor(app, "Integration");
      const key = { keyId: "crm", key: SERVER_KEY };
      const res = await api(
        app.url,
        "POST",
        "/api/payment/pay-emv",
        await signPayload(sale(userId, "44"), key),
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.StatusCode, "000");
      const test = await api(
        app.url,
        "POST",
        "/api/payment/test-emv/1001",
        await signPayload({ language: "en", shopNumber: "44" }, key),
      );
      assert.equal(test.status, 200, JSON.stringify(test.body));
      // A browser key is not a server key: without a device, test-emv refuses it as pay-emv does.
      const browser = await signedPost(app, "/api/payment/test-emv/1001", { language: "en" });
      assert.equal(browser.status, 403);
    });

    await t.step("test-emv: needs a paired device for its shop", async () => {
      const none = await api(app.url, "POST", "/api/payment/test-emv/1001", { shopNumber: "12" });
      assert.equal(none.status, 403);
      assert.match(none.body.message, /paired kiosk/);
      const kiosk = await pairTestKiosk(app, "12");
      const ok = await api(
        app.url,
        "POST",
        "/api/payment/test-emv/1001",
        { shopNumber: "12" },
        kiosk.headers,
      );
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      const wrong = await api(app.url, "POST", "/api/payment/test-emv/1001", undefined, kiosk.headers);
      assert.equal(wrong.status, 403, "the default shop is the terminal number, not this kiosk's");
    });

    await t.step(
      "the no-JavaScript kiosk form: a translated 403 page without a device, a sale with one",
      async () => {
        for (
          const [lang, text] of [["en", "This kiosk cannot take card payments yet"], ["he", "קיוסק זה עדיין"]]
        ) {
          const res = await form(app, `/${lang}/terminal-payment/12`, { choice: "tier-1", ...DONOR });
          assert.equal(res.status, 403);
          const html = await res.text();
          assert.ok(html.includes(text), lang);
          assert.ok(html.includes(`href="/${lang}/kiosk-pair"`), lang);
          if (lang === "he") assert.match(html, /<html[^>]*dir="rtl"/);
          const test = await form(app, `/${lang}/terminal-payment/12`, { testTerminal: "1001" });
          assert.equal(test.status, 403, "the test terminal button too");
          await test.body?.cancel();
        }
        const kiosk = await pairTestKiosk(app, "12");
        const wrongShop = await form(
          app,
          "/en/terminal-payment/13",
          { choice: "tier-1", ...DONOR },
          kiosk.cookie,
        );
        assert.equal(wrongShop.status, 403);
        assert.match(await wrongShop.text(), /This kiosk is paired for another shop/);
        const ok = await form(app, "/en/terminal-payment/12", { choice: "tier-1", ...DONOR }, kiosk.cookie);
        await ok.body?.cancel();
        assert.equal(ok.status, 303);
        assert.match(ok.headers.get("location")!, /^\/en\/terminal-success\/12\?/);
      },
    );

    await t.step(
      "the kiosk page says at once that this browser is not a paired kiosk, and offers no form",
      async () => {
        const kiosk = await pairTestKiosk(app, "12");
        const revoked = await pairTestKiosk(app, "12");
        await api(app.url, "POST", `/api/kiosk-devices/${revoked.deviceId}/revoke`, undefined, auth);
        const cases = [
          { lang: "en", cookie: undefined, shop: "12", text: "this browser is not paired" },
          { lang: "he", cookie: undefined, shop: "12", text: "ודפדפן זה אינו מצומד" },
          { lang: "en", cookie: revoked.cookie, shop: "12", text: "pairing was revoked" },
          { lang: "en", cookie: kiosk.cookie, shop: "13", text: "paired for another shop" },
        ];
        for (const { lang, cookie, shop, text } of cases) {
          const res = await fetch(`${app.url}/${lang}/terminal-payment/${shop}`, {
            headers: cookie ? { cookie } : {},
          });
          // Anyone may open the page; it tells staff what to do instead of a form that cannot pay.
          assert.equal(res.status, 200, `${lang} ${shop}`);
          const html = await res.text();
          const notice = html.slice(html.indexOf('class="kiosk-refusal"'), html.indexOf("</section>"));
          assert.ok(notice.includes(text), `${lang} ${shop}: the notice says ${text}`);
          assert.ok(html.includes(`href="/${lang}/kiosk-pair"`), `${lang}: the pairing page's link`);
          assert.ok(!html.includes("donation-form"), `${lang} ${shop}: no donation form`);
          assert.ok(!html.includes('name="testTerminal"'), `${lang} ${shop}: no test terminal buttons`);
          if (lang === "he") assert.match(html, /<html[^>]*dir="rtl"/);
        }
        // The paired kiosk gets the form, test terminal buttons included (the flag is on here).
        const page = await (await fetch(`${app.url}/en/terminal-payment/12`, { headers: kiosk.headers }))
          .text();
        assert.ok(page.includes("donation-form") && page.includes('name="testTerminal"'));
        assert.ok(!page.includes("This kiosk cannot take card payments yet"));
      },
    );

    await t.step("every refused terminal sale is logged, whichever way it came", async () => {
      const refusals = () => app.logs.filter((l) => l.msg === "terminal sale refused").length;
      const before = refusals();
      const userId = await newDonor(app, "Logged");
      const emv = await signedPost(app, "/api/payment/pay-emv", { ...sale(userId), language: "he" });
      assert.equal(emv.status, 403);
      // The message names the real pairing page, in the sale's language.
      assert.match(emv.body.message, /enters its code at \/he\/kiosk-pair\) on this kiosk/);
      assert.ok(!emv.body.message.includes("{lang}"), emv.body.message);
      const test = await api(app.url, "POST", "/api/payment/test-emv/1001", { shopNumber: "12" });
      assert.equal(test.status, 403);
      assert.match(test.body.message, /enters its code at \/en\/kiosk-pair\) on this kiosk/);
      const page = await form(app, "/en/terminal-payment/12", { choice: "tier-1", ...DONOR });
      assert.equal(page.status, 403);
      await page.body?.cancel();
      assert.equal(refusals() - before, 3, "pay-emv, test-emv and the form each logged");
      const last = app.logs.filter((l) => l.msg === "terminal sale refused").at(-1)!;
      assert.deepEqual([last.level, last.reason, last.shop], ["warn", "not-paired", "12"]);
    });
  } finally {
    await app.close();
  }
});

backendTest("api: one pending sale per terminal, across two app instances", async (t, open) => {
  const store = await open();
  const one = await startTestApp({ store, env: { SANDBOX_TERMINAL_AUTO: "manual" } });
  const two = await startTestApp({ store, env: { SANDBOX_TERMINAL_AUTO: "manual" } });
  try {
    const first = await pairTestKiosk(one, "21");
    const second = await pairTestKiosk(two, "21");
    const waitForRef = async () => {
      for (let i = 0; i < 100; i++) {
        const page = await (await fetch(`${one.url}/sandbox/terminal/sim-21`)).text();
        const m = page.match(/name="ref" value="([^"]+)"/);
        if (m) return m[1];
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error("no sale reached the terminal");
    };
    const tap = async (ref: string) => {
      const res = await fetch(`${one.url}/sandbox/terminal/sim-21`, {
        method: "POST",
        body: new URLSearchParams({ ref, action: "approve" }),
        redirect: "manual",
      });
      await res.body?.cancel();
    };

    await t.step(
      "a second sale on a terminal with one waiting answers 409; after it, the next goes",
      async () => {
        const a = await newDonor(one, "First");
        const b = await newDonor(two, "Second");
        const waiting = signedPost(one, "/api/payment/pay-emv", sale(a, "21"), first.headers);
        const ref = await waitForRef();
        const busy = await signedPost(two, "/api/payment/pay-emv", sale(b, "21"), second.headers);
        assert.equal(busy.status, 409);
        assert.match(busy.body.message, /Another donation is already waiting at this card terminal/);
        // The no-JavaScript form is refused the same way, in place.
        const formBusy = await form(
          two,
          "/en/terminal-payment/21",
          { choice: "tier-1", ...DONOR },
          second.cookie,
        );
        assert.equal(formBusy.status, 422);
        assert.match(await formBusy.text(), /Another donation is already waiting at this card terminal/);
        // The refusal is named, so the kiosk page says it in its language.
        assert.deepEqual(busy.body.errors, [{ path: "terminal", message: "in-use" }]);
        const formBusyHe = await form(
          two,
          "/he/terminal-payment/21",
          { choice: "tier-1", ...DONOR },
          second.cookie,
        );
        assert.equal(formBusyHe.status, 422);
        assert.match(await formBusyHe.text(), /תרומה אחרת כבר ממתינה במסוף האשראי הזה/);
        await tap(ref);
        assert.equal((await waiting).body.StatusCode, "000");
        const next = signedPost(two, "/api/payment/pay-emv", sale(b, "21"), second.headers);
        await tap(await waitForRef());
        const done = await next;
        assert.equal(done.status, 200, JSON.stringify(done.body));
        assert.equal(done.body.StatusCode, "000");
      },
    );

    await t.step("another terminal is not held up", async () => {
      const kiosk = await pairTestKiosk(one, "22");
      const c = await newDonor(one, "Third");
      const pending = signedPost(one, "/api/payment/pay-emv", sale(c, "22"), kiosk.headers);
      let ref = "";
      for (let i = 0; i < 100 && !ref; i++) {
        const page = await (await fetch(`${one.url}/sandbox/terminal/sim-22`)).text();
        ref = page.match(/name="ref" value="([^"]+)"/)?.[1] ?? "";
        if (!ref) await new Promise((r) => setTimeout(r, 50));
      }
      const res = await fetch(`${one.url}/sandbox/terminal/sim-22`, {
        method: "POST",
        body: new URLSearchParams({ ref, action: "approve" }),
        redirect: "manual",
      });
      await res.body?.cancel();
      assert.equal((await pending).body.StatusCode, "000");
    });
  } finally {
    await one.close();
    await two.close();
  }
});
