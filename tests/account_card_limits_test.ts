/**
 * The donor portal's card update is no card-testing oracle (issue 23, item 4), over real HTTP, on
 * Deno KV and PostgreSQL, with the sandbox: a card check's decline counts in the payments' decline
 * caps (per email, per address) and a payment's decline counts against card checks; a gift's card
 * updates lock after a few declines (each decline counted once, however often the return and the
 * provider's notification arrive), and the account page says so and whom to write to; and card
 * checks are limited per session, per client address (IPv6 by its /64) and across everyone, each
 * refusal a translated page.
 */
import assert from "node:assert/strict";
import { translator } from "@/lib/core/i18n.ts";
import { CARD_UPDATE_LIMITS, cardUpdateLocks } from "@/lib/monthly_gifts/card_update_limits.ts";
import { addressBucket, declineCaps } from "@/lib/rate_limits/mod.ts";
import { mailAddress } from "@/lib/outbox/config.ts";
import type { Store, Subscription } from "@/lib/storage/types.ts";
import { startTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { portalGift, pressUpdate } from "@/tests/helpers/card_gift.ts";
import { mainText, signInAs } from "@/tests/helpers/donor_portal.ts";
import { createPayment, payOnSandboxPage } from "@/tests/helpers/payments.ts";
import { api } from "@/tests/helpers/http.ts";
import { backendTest } from "@/tests/helpers/stores.ts";

/** A card the sandbox declines (status 051). */
const DECLINED = "4000 0000 0000 0051";
const suffix = () => crypto.randomUUID().slice(0, 8);

/** Presses "Update card" from `address` (the app trusts X-Forwarded-For): the response, read. */
async function press(app: TestApp, sub: Subscription, cookie: string, address: string, lang = "en") {
  const res = await pressUpdate(app, lang, sub.id, cookie, app.url, { "x-forwarded-for": address });
  const page = await res.text();
  return { status: res.status, location: res.headers.get("location"), res, text: mainText(page), page };
}

/** Tries `card` on the gift's card check, from `address`: answers where the donor lands. */
async function tryCard(app: TestApp, sub: Subscription, cookie: string, card: string, address = "192.0.2.1") {
  const started = await press(app, sub, cookie, address);
  assert.equal(started.status, 303, started.text.slice(0, 300));
  return await payOnSandboxPage(app, started.location!, card);
}

/**
 * Waits (up to 10 s) until `counted()` is true. A decline is counted by the call that finished the
 * check: the donor's return or the sandbox's notification, which it sends without waiting and which
 * may still be counting when the donor has landed; a loaded machine shows that gap.
 */
async function settled(what: string, counted: () => Promise<boolean>) {
  for (const end = Date.now() + 10_000; Date.now() < end;) {
    if (await counted()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`not counted within 10 s: ${what}`);
}

/** Whether `email`'s counted declines have reached `n`. */
const emailDeclines = (store: Store, email: string, n: number) => async () => {
  const [byEmail] = declineCaps(
    { declinesPerEmail: n, declinesPerAddress: n },
    email,
    addressBucket("192.0.2.1"),
  );
  const [seen] = await store.rateLimits.peekMany([byEmail.key], Date.now());
  return seen.count >= n;
};

/** Whether `text` holds the translated lock notice (up to its date) and the address to write to. */
function saysLocked(text: string, lang: "en" | "he" | "ru", contact: string): boolean {
  const notice = translator(lang)("portalCard.locked", { date: "\u0000", contact });
  return text.includes(notice.split("\u0000")[0]) && text.includes(contact) &&
    !notice.startsWith("portalCard");
}

/** A one-time donation by a new donor of `email`, declined on the sandbox's page. */
async function declinedDonation(app: TestApp, email: string) {
  const donor = await api(app.url, "POST", "/api/user", {
    firstName: "Dana",
    lastName: "Levi",
    email,
    country: "Israel",
  });
  assert.equal(donor.status, 201);
  const payment = await createPayment(app, { amount: 100, currency: "nis", userId: donor.body.id });
  assert.equal(payment.status, 200, JSON.stringify(payment.body));
  const landed = await payOnSandboxPage(app, payment.body.url, DECLINED);
  assert.equal(landed.pathname, "/en/error");
}

/** Starts a test app behind a trusted proxy with the given caps (the rest of the limits raised). */
const appWith = (store: Store, env: Record<string, string> = {}) =>
  startTestApp({ store, env: { TRUST_PROXY: "1", ...env } });

backendTest(
  "card updates: their declines count in the payments' decline caps, and payments' declines against them",
  async (t, open) => {
    const store = await open();
    const app = await appWith(store, { DECLINE_LIMIT_PER_EMAIL: "2", DECLINE_LIMIT_PER_ADDRESS: "1000" });
    try {
      await t.step("two declined card checks: a payment for that email is refused (429)", async () => {
        const email = `checks.${suffix()}@example.org`;
        const sub = await portalGift(store, email);
        const cookie = await signInAs(app, sub.donorId);
        for (let i = 0; i < 2; i++) {
          const landed = await tryCard(app, sub, cookie, DECLINED);
          assert.equal(landed.search, "?card=declined");
        }
        await settled("two declined checks", emailDeclines(store, email, 2));
        const donor = await api(app.url, "POST", "/api/user", {
          firstName: "Dana",
          lastName: "Levi",
          email,
          country: "Israel",
        });
        const payment = await createPayment(app, { amount: 100, currency: "nis", userId: donor.body.id });
        assert.equal(payment.status, 429, JSON.stringify(payment.body));
        assert.match(payment.body.message, /declined/);
      });

      await t.step(
        "two declined payments: that email's card check is refused, translated (429)",
        async () => {
          const email = `payments.${suffix()}@example.org`;
          await declinedDonation(app, email);
          await declinedDonation(app, email);
          await settled("two declined payments", emailDeclines(store, email, 2));
          const sub = await portalGift(store, email);
          const cookie = await signInAs(app, sub.donorId);
          for (const lang of ["en", "he"] as const) {
            const refused = await press(app, sub, cookie, "192.0.2.2", lang);
            assert.equal(refused.status, 429);
            const wait = Number(refused.res.headers.get("retry-after"));
            assert.ok(wait > 0 && wait <= 3600, String(wait));
            const expected = translator(lang)("portalCard.declines", { minutes: Math.ceil(wait / 60) });
            assert.ok(refused.text.includes(expected), refused.text);
          }
          assert.equal((await store.subscriptions.get(sub.id))!.token, sub.token);
        },
      );
    } finally {
      await app.close();
    }
  },
);

backendTest(
  "card updates: a gift's card updates lock after a few declines, each counted once; the page says so",
  async (t, open) => {
    const store = await open();
    const app = await appWith(store);
    const lockAfter = CARD_UPDATE_LIMITS.lockAfterDeclines;
    try {
      const sub = await portalGift(store, `lock.${suffix()}@example.org`);
      const cookie = await signInAs(app, sub.donorId);

      await t.step("a decline learned by the return, the notification and a reload counts once", async () => {
        const started = await press(app, sub, cookie, "192.0.2.3");
        const landed = await payOnSandboxPage(app, started.location!, DECLINED);
        assert.equal(landed.search, "?card=declined");
        const ref = started.location!.split("/").pop()!;
        const attempt = (await store.cardUpdates.getByProviderRef("sandbox", ref))!;
        for (let i = 0; i < 2; i++) {
          const notified = await fetch(`${app.url}/api/payment/notify/sandbox`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ StatusCode: "051", ResultData: { TransactionId: ref } }),
          });
          assert.deepEqual(await notified.json(), { outcome: "declined" });
          const reload = await fetch(`${app.url}/payments/card/${attempt.id}`, { redirect: "manual" });
          await reload.body?.cancel();
        }
      });

      await t.step(`declines up to ${lockAfter - 1}: the donor may still try another card`, async () => {
        for (let i = 1; i < lockAfter - 1; i++) await tryCard(app, sub, cookie, DECLINED);
        const page = await (await fetch(`${app.url}/en/account`, { headers: { cookie } })).text();
        assert.ok(page.includes(`action="/en/account/card/${sub.id}"`), "the Update card button is there");
      });

      await t.step(`decline number ${lockAfter} locks the gift's card updates`, async () => {
        await tryCard(app, sub, cookie, DECLINED);
        await settled(
          "the gift's lock",
          async () => (await cardUpdateLocks(store, [sub.id], new Date())).size > 0,
        );
        const contact = mailAddress(app.config.mail.from);
        for (const lang of ["he", "ru"] as const) {
          const refused = await press(app, sub, cookie, "192.0.2.4", lang);
          assert.equal(refused.status, 409);
          assert.equal(refused.location, null);
          assert.ok(saysLocked(refused.text, lang, contact), refused.text);
        }
        assert.equal((await store.subscriptions.get(sub.id))!.token, sub.token, "the old card stays");
      });

      await t.step(
        "the account page says it is locked and whom to write to, instead of the button",
        async () => {
          const page = await (await fetch(`${app.url}/en/account`, { headers: { cookie } })).text();
          assert.ok(!page.includes(`action="/en/account/card/${sub.id}"`), "no Update card button");
          const text = mainText(page);
          assert.ok(saysLocked(text, "en", mailAddress(app.config.mail.from)), text);
        },
      );

      await t.step("the lock holds from another session and address: nothing is started", async () => {
        const again = await signInAs(app, sub.donorId, "es");
        const refused = await press(app, sub, again, "198.51.100.77", "es");
        assert.equal(refused.status, 409);
        assert.equal(
          (await store.cardUpdates.listOpen(new Date(Date.now() + 60_000).toISOString(), 100)).length,
          0,
        );
      });
    } finally {
      await app.close();
    }
  },
);

backendTest(
  "card updates: at most so many checks per session and per client address (IPv6 by /64)",
  async (t, open) => {
    const store = await open();
    const app = await appWith(store);
    const { perGift, perSession, perAddress } = CARD_UPDATE_LIMITS;
    try {
      await t.step(
        `${perSession} checks of one session, over several gifts; then 429, translated`,
        async () => {
          const email = `session.${suffix()}@example.org`;
          const gifts: Subscription[] = [];
          for (let i = 0; i <= Math.ceil(perSession / perGift); i++) {
            gifts.push(
              await portalGift(store, email),
            );
          }
          const cookie = await signInAs(app, gifts[0].donorId);
          let pressed = 0;
          for (const gift of gifts) {
            for (let i = 0; i < perGift && pressed < perSession; i++, pressed++) {
              // Each from its own address: only the session is counted to its limit.
              const ok = await press(app, gift, cookie, `203.0.113.${pressed + 1}`);
              assert.equal(ok.status, 303, `check ${pressed + 1}`);
            }
          }
          const refused = await press(app, gifts.at(-1)!, cookie, "203.0.113.200", "pt");
          assert.equal(refused.status, 429);
          const wait = Number(refused.res.headers.get("retry-after"));
          assert.ok(
            refused.text.includes(translator("pt")("portalCard.tooMany", { minutes: Math.ceil(wait / 60) })),
            refused.text,
          );
        },
      );

      await t.step(`${perAddress} checks from one IPv6 /64, over sessions; another /64 goes on`, async () => {
        let pressed = 0;
        while (pressed < perAddress) {
          const sub = await portalGift(store, `net.${suffix()}@example.org`);
          const cookie = await signInAs(app, sub.donorId);
          for (let i = 0; i < perGift && pressed < perAddress; i++, pressed++) {
            const ok = await press(app, sub, cookie, `2001:db8:5:6::${(pressed + 1).toString(16)}`);
            assert.equal(ok.status, 303, `check ${pressed + 1}`);
          }
        }
        const sub = await portalGift(store, `net.${suffix()}@example.org`);
        const cookie = await signInAs(app, sub.donorId);
        const refused = await press(app, sub, cookie, "2001:db8:5:6:ffff:ffff:ffff:fffe");
        assert.equal(refused.status, 429);
        assert.equal((await press(app, sub, cookie, "2001:db8:5:7::1")).status, 303);
      });
    } finally {
      await app.close();
    }
  },
);

backendTest(
  "card updates: at most so many checks an hour across everyone; then a translated 429",
  async (_t, open) => {
    const store = await open();
    const app = await appWith(store);
    const { perGift, global } = CARD_UPDATE_LIMITS;
    try {
      let pressed = 0;
      for (let donor = 0; pressed < global; donor++) {
        const sub = await portalGift(store, `everyone.${suffix()}@example.org`);
        const cookie = await signInAs(app, sub.donorId);
        for (let i = 0; i < perGift && pressed < global; i++, pressed++) {
          const ok = await press(app, sub, cookie, `198.51.${100 + donor}.${i + 1}`);
          assert.equal(ok.status, 303, `check ${pressed + 1}`);
        }
      }
      const sub = await portalGift(store, `everyone.${suffix()}@example.org`);
      const cookie = await signInAs(app, sub.donorId);
      const refused = await press(app, sub, cookie, "192.0.2.250", "he");
      assert.equal(refused.status, 429);
      const wait = Number(refused.res.headers.get("retry-after"));
      assert.ok(wait > 0 && wait <= 3600, String(wait));
      assert.ok(
        refused.text.includes(translator("he")("portalCard.busy", { minutes: Math.ceil(wait / 60) })),
        refused.text,
      );
    } finally {
      await app.close();
    }
  },
);
