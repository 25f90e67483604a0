/**
 * The donor portal's card update (issue 15, `lib/monthly_gifts/card_update.ts`) over real HTTP, on Deno
 * KV and PostgreSQL, with the sandbox provider: the "Update card" form sends the donor to the
 * sandbox's page as a check (nothing charged); the return, asked of the provider, puts the new card
 * on the gift once (the return reloaded and the provider's notification change nothing more) with
 * one `card-updated` email, and the account page shows the new last four; a declined card keeps the
 * old one; a return whose query claims success before anything was paid applies nothing; and the
 * refusals: no session, a cross-site post, another donor's or an unknown gift, an ended gift.
 */
import assert from "node:assert/strict";
import { translator } from "@/lib/core/i18n.ts";
import { CARD_UPDATE_LIMITS } from "@/lib/monthly_gifts/card_update_limits.ts";
import type { Store } from "@/lib/storage/types.ts";
import { mainText, signInAs as signedIn } from "@/tests/helpers/donor_portal.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { followReturn, GOOD_CARD, payOnSandboxPage } from "@/tests/helpers/payments.ts";
import { backendTest } from "@/tests/helpers/stores.ts";
import { portalGift, pressUpdate, startUpdate } from "@/tests/helpers/card_gift.ts";

const cardMessages = async (store: Store, subscriptionId: string) =>
  (await store.outbox.listRecent(100)).filter((m) =>
    m.kind === "card-updated" && (m.data as { subscriptionId: string }).subscriptionId === subscriptionId
  );

backendTest("donor portal: a new card on the sandbox, applied once and shown", async (t, open) => {
  const store = await open();
  const app = await startTestApp({ store });
  try {
    const suffix = crypto.randomUUID().slice(0, 8);
    const sub = await portalGift(store, `card.${suffix}@example.org`);
    const cookie = await signedIn(app, sub.donorId);

    await t.step("the account page has an Update card form per active monthly gift", async () => {
      const page = await (await fetch(`${app.url}/he/account`, { headers: { cookie } })).text();
      assert.ok(page.includes(`action="/he/account/card/${sub.id}"`), "the gift's form");
      assert.ok(mainText(page).includes(translator("he")("portalCard.button")));
    });

    await t.step("a query string claiming success before anything was paid applies nothing", async () => {
      const pageUrl = await startUpdate(app, "en", sub, cookie);
      const ref = pageUrl.split("/").pop()!;
      const attempt = (await store.cardUpdates.getByProviderRef("sandbox", ref))!;
      const forged =
        `${app.url}/payments/card/${attempt.id}?SandboxTransactionId=${ref}&SandboxStatusCode=000`;
      const landed = await followReturn(app, forged);
      assert.equal(landed.pathname + landed.search, "/en/account?card=pending");
      assert.equal((await store.subscriptions.get(sub.id))!.token, sub.token);
    });

    await t.step("a declined card keeps the old one, with a translated message", async () => {
      const pageUrl = await startUpdate(app, "he", sub, cookie);
      const landed = await payOnSandboxPage(app, pageUrl, "4000 0000 0000 0051");
      assert.equal(landed.pathname + landed.search, "/he/account?card=declined");
      assert.deepEqual(await store.subscriptions.get(sub.id), sub);
      const page = await (await fetch(landed, { headers: { cookie } })).text();
      assert.ok(mainText(page).includes(translator("he")("portalCard.declined")));
      assert.ok(mainText(page).includes("4580"));
      assert.equal((await cardMessages(store, sub.id)).length, 0);
    });

    await t.step("a good card: applied, the page shows its last four, one email", async () => {
      const pageUrl = await startUpdate(app, "en", sub, cookie);
      const sandboxPage = await (await fetch(pageUrl)).text();
      assert.ok(sandboxPage.includes(translator("en")("portalCard.sandboxNotice")), "a check, no amount");
      const landed = await payOnSandboxPage(app, pageUrl, GOOD_CARD);
      assert.equal(landed.pathname + landed.search, "/en/account?card=applied");
      const after = (await store.subscriptions.get(sub.id))!;
      assert.notEqual(after.token, sub.token);
      assert.match(after.cardMasked!, /9015$/);
      const page = await (await fetch(landed, { headers: { cookie } })).text();
      const text = mainText(page);
      assert.ok(text.includes(translator("en")("portalCard.applied")), text);
      assert.ok(text.includes(translator("en")("account.cardLine", { brand: "Visa", last4: "9015" })), text);

      // The return reloaded, and the provider's notification again: nothing changes.
      const ref = pageUrl.split("/").pop()!;
      const attempt = (await store.cardUpdates.getByProviderRef("sandbox", ref))!;
      assert.equal(attempt.status, "applied");
      const again = await followReturn(app, `${app.url}/payments/card/${attempt.id}`);
      assert.equal(again.search, "?card=applied");
      const notified = await fetch(`${app.url}/api/payment/notify/sandbox`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ StatusCode: "000", ResultData: { TransactionId: ref } }),
      });
      assert.deepEqual(await notified.json(), { outcome: "applied" });
      assert.deepEqual(await store.subscriptions.get(sub.id), after);
      const messages = await cardMessages(store, sub.id);
      assert.equal(messages.length, 1);
      assert.equal((messages[0].data as { last4: string }).last4, "9015");
      // A check only: nothing was charged.
      assert.equal((await store.transactions.listByDonors([sub.donorId], 10)).length, 0);
    });
  } finally {
    await app.close();
  }
});

backendTest("donor portal: card update refusals", async (t, open) => {
  const store = await open();
  const app = await startTestApp({ store });
  try {
    const suffix = crypto.randomUUID().slice(0, 8);
    const mine = await portalGift(store, `mine.${suffix}@example.org`);
    const theirs = await portalGift(store, `theirs.${suffix}@example.org`);
    const cookie = await signedIn(app, mine.donorId);

    await t.step("no session: back to the sign-in form, nothing started", async () => {
      const res = await pressUpdate(app, "en", mine.id, null);
      await res.body?.cancel();
      assert.equal(res.status, 303);
      assert.equal(res.headers.get("location"), "/en/account");
    });

    await t.step("a cross-site post is refused", async () => {
      const res = await pressUpdate(app, "en", mine.id, cookie, "https://evil.example");
      await res.body?.cancel();
      assert.equal(res.status, 403);
    });

    for (const [lang, id] of [["en", theirs.id], ["he", "sub_unknown_000000000000"], ["es", "../../x"]]) {
      await t.step(`another donor's or an unknown gift (${id}): 404, translated, in ${lang}`, async () => {
        const res = await pressUpdate(app, lang, id, cookie);
        const page = await res.text();
        assert.equal(res.status, 404);
        assert.ok(
          mainText(page).includes(translator(lang as "en")("portalCard.notFound")),
          page.slice(0, 300),
        );
      });
    }
    assert.deepEqual(await store.subscriptions.get(theirs.id), theirs);

    await t.step(
      `more than ${CARD_UPDATE_LIMITS.perGift} card checks of a gift in an hour: 429, translated`,
      async () => {
        for (let i = 0; i < CARD_UPDATE_LIMITS.perGift; i++) {
          const res = await pressUpdate(app, "en", mine.id, cookie);
          await res.body?.cancel();
          assert.equal(res.status, 303, `try ${i + 1}`);
        }
        const res = await pressUpdate(app, "pt", mine.id, cookie);
        const page = await res.text();
        assert.equal(res.status, 429);
        const wait = Number(res.headers.get("retry-after"));
        assert.ok(wait > 0 && wait <= 3600, String(wait));
        assert.ok(
          mainText(page).includes(translator("pt")("portalCard.tooMany", { minutes: Math.ceil(wait / 60) })),
          mainText(page),
        );
      },
    );

    await t.step("an ended gift: 409, translated", async () => {
      await store.subscriptions.updateIfActive(mine.id, {
        status: "cancelled",
        cancelledAt: new Date().toISOString(),
      });
      const res = await pressUpdate(app, "ru", mine.id, cookie);
      const page = await res.text();
      assert.equal(res.status, 409);
      assert.ok(mainText(page).includes(translator("ru")("portalCard.ended")));
    });

    await t.step("the button's address opened as a page: to the account page, never an error", async () => {
      const res = await fetch(`${app.url}/he/account/card/${mine.id}`, {
        headers: { cookie },
        redirect: "manual",
      });
      await res.body?.cancel();
      assert.equal(res.status, 303);
      assert.equal(res.headers.get("location"), "/he/account");
    });

    await t.step("an unknown return address: 404", async () => {
      const res = await fetch(`${app.url}/payments/card/unknown_attempt_00000000`);
      await res.body?.cancel();
      assert.equal(res.status, 404);
    });
  } finally {
    await app.close();
  }
});
