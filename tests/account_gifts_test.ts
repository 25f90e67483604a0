/**
 * The donor portal's forms for a monthly gift (issue 15, `routes/[lang]/account/gifts/[id]/[action].tsx`)
 * over real HTTP, without JavaScript, on Deno KV and PostgreSQL: change the amount (a tier or another
 * amount), pause, skip, resume and cancel with a reason, each answered by a redirect to the account
 * page that confirms it and a confirmation message in the outbox; a repeat changes and sends nothing;
 * bad input is refused with a translated 400, another donor's gift with 404, a gift that has ended
 * or is being charged with 409; no session redirects to the sign-in form; a cross-site post is
 * refused (403). Also the manage link of an email landing on the account page.
 */
import assert from "node:assert/strict";
import { translator } from "@/lib/core/i18n.ts";
import { createManageToken, MANAGE_LINK_TTL_MS, manageLinkKey } from "@/lib/donor_portal/manage_link.ts";
import { nextMonth } from "@/lib/monthly_gifts/billing_dates.ts";
import { formatMoney } from "@/lib/shared/money.ts";
import { defaultMuseumSettings } from "@/lib/museum/mod.ts";
import type { Store, Subscription } from "@/lib/storage/types.ts";
import { startTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { formPost, send, signInAs } from "@/tests/helpers/donor_portal.ts";
import { backendTest } from "@/tests/helpers/stores.ts";
import { donorFixture, subscriptionFixture } from "@/tests/storage/fixtures.ts";

const DAY = 86_400_000;
const en = translator("en");
const he = translator("he");

/** A monthly gift of ₪100 made 10 days ago, its next charge in about 20 days. */
function freshGift(donorId: string, over: Partial<Subscription> = {}): Subscription {
  const createdAt = new Date(Date.now() - 10 * DAY).toISOString();
  return subscriptionFixture({
    donorId,
    amount: 10_000,
    currency: 1,
    createdAt,
    paymentDate: createdAt,
    nextPaymentDate: nextMonth(createdAt, createdAt),
    ...over,
  });
}

/** The date as the portal writes it. */
const shown = (iso: string, lang: string) =>
  new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeZone: "UTC" }).format(new Date(iso));

backendTest("donor portal: a monthly gift's forms, without JavaScript", async (t, open) => {
  const store: Store = await open();
  const app: TestApp = await startTestApp({ store });
  try {
    const suffix = crypto.randomUUID().slice(0, 8);
    const email = `gifts.${suffix}@example.org`;
    const [first, second] = [`g1_${suffix}_aaaaaaaaaaaa`, `g2_${suffix}_aaaaaaaaaaaa`];
    await store.donors.create(donorFixture({ id: first, email }));
    await store.donors.create(donorFixture({ id: second, email }));
    // The gift is on the second donor record of the address; the session comes from the first.
    const gift = freshGift(second);
    await store.subscriptions.create(gift);
    const stranger = donorFixture({ id: `gx_${suffix}_aaaaaaaaaaaa`, email: `other.${suffix}@example.org` });
    await store.donors.create(stranger);
    const strangers = freshGift(stranger.id);
    await store.subscriptions.create(strangers);
    const cookie = await signInAs(app, first);
    const path = (action: string, id = gift.id, lang = "en") => `/${lang}/account/gifts/${id}/${action}`;
    const post = (action: string, fields: Record<string, string>, lang = "en", id = gift.id) =>
      send(app, path(action, id, lang), formPost(app, fields, cookie));
    const stored = async () => (await store.subscriptions.get(gift.id))!;

    await t.step("the account page shows the gift's state and its forms", async () => {
      for (const [lang, tr] of [["en", en], ["he", he]] as const) {
        const got = await send(app, `/${lang}/account`, { headers: { cookie } });
        assert.equal(got.res.status, 200);
        assert.ok(got.text.includes(tr("portalGifts.stateActive")), lang);
        for (const action of ["amount", "pause", "skip", "cancel"]) {
          assert.ok(got.page.includes(`action="${path(action, gift.id, lang)}"`), `${lang}: ${action} form`);
        }
        assert.ok(!got.page.includes(`action="${path("resume", gift.id, lang)}"`), "no resume: not paused");
        // The tiers in the gift's currency (NIS), none chosen beforehand.
        assert.ok(got.page.includes('name="amount" value="100"') && got.page.includes('value="400"'));
        assert.ok(!got.page.includes('name="amount" value="25"'), "not the dollar tiers");
        assert.ok(!/name="amount"[^>]*checked/.test(got.page));
      }
    });

    await t.step("its amount choices are the museum's levels offered monthly, as saved now", async () => {
      const settings = defaultMuseumSettings();
      const levels = structuredClone(settings.levels);
      levels[1].price.nis = 12_000;
      levels[3].monthly = false;
      const input = { identity: settings.identity, levels, lastLevelId: settings.lastLevelId };
      await store.museum.save(input, 0, new Date().toISOString(), "owner@museum.org");
      const got = await send(app, "/en/account", { headers: { cookie } });
      assert.ok(got.page.includes('name="amount" value="120"'), "the new price");
      assert.ok(!got.page.includes('name="amount" value="100"'), "not the old one");
      assert.ok(!got.page.includes('name="amount" value="400"'), "not a level offered one-time only");
      await store.museum.save(settings, 1, new Date().toISOString(), "owner@museum.org");
    });

    await t.step(
      "change the amount to a tier: 303 to the page, which confirms; the email is queued",
      async () => {
        const got = await post("amount", { amount: "200" });
        assert.equal(got.res.status, 303);
        assert.equal(got.res.headers.get("location"), "/en/account?done=amount");
        const after = await stored();
        assert.equal(after.amount, 20_000);
        assert.equal(after.nextPaymentDate, gift.nextPaymentDate, "from the next charge on, same date");
        const message = await store.outbox.get(`gift-changed:${gift.id}:${after.version}`);
        assert.equal(message?.kind, "monthly-changed");
        assert.deepEqual(message?.to, { donorId: second });
        const page = await send(app, "/en/account?done=amount", { headers: { cookie } });
        assert.ok(page.text.includes(en("portalGifts.done.amount")));
        assert.ok(page.text.includes(formatMoney(20_000, 1, "en")), "the new amount is shown");
      },
    );

    await t.step("the same again is idempotent: 303, nothing written, nothing sent", async () => {
      const before = await stored();
      const got = await post("amount", { amount: "200" });
      assert.equal(got.res.status, 303);
      const after = await stored();
      assert.equal(after.version, before.version);
      assert.equal(await store.outbox.get(`gift-changed:${gift.id}:${before.version + 1}`), null);
    });

    await t.step("a double submit (two posts at once): one change, one email", async () => {
      const before = await stored();
      const [a, b] = await Promise.all([
        post("amount", { amount: "400" }),
        post("amount", { amount: "400" }),
      ]);
      assert.deepEqual([a.res.status, b.res.status], [303, 303]);
      const after = await stored();
      assert.equal(after.amount, 40_000);
      assert.equal(after.version, before.version + 1, "written once");
      assert.ok(await store.outbox.get(`gift-changed:${gift.id}:${after.version}`));
      assert.equal(await store.outbox.get(`gift-changed:${gift.id}:${after.version + 1}`), null);
    });

    await t.step("another amount, typed with a decimal comma (the radio forgotten)", async () => {
      const got = await post("amount", { otherAmount: "37,5" });
      assert.equal(got.res.status, 303);
      assert.equal((await stored()).amount, 3_750);
    });

    await t.step("bad input: a translated 400 beside the form, nothing changed", async () => {
      const max = app.config.payments.maxAmount;
      const cases: [Record<string, string>, string, Record<string, number>?][] = [
        [{ amount: "other", otherAmount: "" }, "amountMissing"],
        [{}, "amountMissing"],
        [{ amount: "other", otherAmount: "ten" }, "amountInvalid"],
        [{ amount: "other", otherAmount: "1e3" }, "amountInvalid"],
        [{ amount: "other", otherAmount: "0.5" }, "amountTooSmall", { min: 1 }],
        [{ amount: "other", otherAmount: String(max + 1) }, "amountTooLarge", { max }],
        [{ amount: "other", otherAmount: "12.345" }, "amountDecimals"],
      ];
      const before = await stored();
      for (const lang of ["en", "he"] as const) {
        const tr = translator(lang);
        for (const [fields, key, values] of cases) {
          const got = await post("amount", fields, lang);
          assert.equal(got.res.status, 400, `${lang} ${JSON.stringify(fields)}`);
          assert.equal(got.res.headers.get("cache-control"), "no-store");
          assert.ok(got.text.includes(tr(`portalGifts.errors.${key}`, values ?? {})), `${lang} ${key}`);
          // The amount form is shown open, its field marked and described by the message.
          assert.match(got.page, /<details class="result-details" open/);
          assert.match(got.page, /name="otherAmount"[^>]*aria-invalid="true"/);
        }
        const months = await post("pause", { months: "7" }, lang);
        assert.equal(months.res.status, 400);
        assert.ok(months.text.includes(tr("portalGifts.errors.months")));
        const reason = await post("cancel", { reason: "bored" }, lang);
        assert.equal(reason.res.status, 400);
        assert.ok(reason.text.includes(tr("portalGifts.errors.reason")));
        const later = nextMonth(gift.nextPaymentDate, gift.createdAt);
        const skip = await post("skip", { period: later }, lang);
        assert.equal(skip.res.status, 400);
        assert.ok(skip.text.includes(tr("portalGifts.errors.skipNotNext")));
        const notDate = await post("skip", { period: "soon" }, lang);
        assert.equal(notDate.res.status, 400);
      }
      const after = await stored();
      assert.equal(after.version, before.version, "nothing written");
      assert.equal(after.status, "active");
    });

    await t.step("another donor's gift, an unknown one: 404, translated; theirs unchanged", async () => {
      for (const lang of ["en", "he"] as const) {
        const theirs = await post("cancel", { reason: "" }, lang, strangers.id);
        assert.equal(theirs.res.status, 404);
        assert.ok(theirs.text.includes(translator(lang)("portalGifts.errors.noSuchGift")));
        const unknown = await post("pause", { months: "1" }, lang, "no_such_gift_0123456789");
        assert.equal(unknown.res.status, 404);
        const odd = await post("pause", { months: "1" }, lang, "a%20b");
        assert.equal(odd.res.status, 404);
      }
      assert.equal((await store.subscriptions.get(strangers.id))?.status, "active");
      const unknownAction = await post("explode", {});
      assert.equal(unknownAction.res.status, 404);
    });

    await t.step("no session: a redirect to the sign-in form, nothing changed", async () => {
      const before = await stored();
      for (const unknown of [undefined, "donor_session=" + "A".repeat(43)]) {
        const got = await send(app, path("pause"), formPost(app, { months: "1" }, unknown));
        assert.equal(got.res.status, 303);
        assert.equal(got.res.headers.get("location"), "/en/account");
      }
      assert.equal((await stored()).version, before.version);
    });

    await t.step("a cross-site post is refused (403), even with the cookie", async () => {
      const before = await stored();
      const got = await send(app, path("cancel"), {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          origin: "https://evil.example",
          cookie,
        },
        body: "reason=",
      });
      assert.equal(got.res.status, 403);
      assert.equal((await stored()).status, "active");
      assert.equal((await stored()).version, before.version);
    });

    await t.step("a GET of a form's address goes to the account page", async () => {
      const got = await send(app, path("pause"), { headers: { cookie } });
      assert.equal(got.res.status, 303);
      assert.equal(got.res.headers.get("location"), "/en/account");
    });

    await t.step("pause two months, shown until the resume date; again is idempotent; resume", async () => {
      const got = await post("pause", { months: "2" });
      assert.equal(got.res.status, 303);
      assert.equal(got.res.headers.get("location"), "/en/account?done=pause");
      const paused = await stored();
      const resumeOn = nextMonth(nextMonth(gift.nextPaymentDate, gift.createdAt), gift.createdAt);
      assert.equal(paused.pausedFrom, gift.nextPaymentDate);
      assert.equal(paused.nextPaymentDate, resumeOn);
      for (const [lang, tr] of [["en", en], ["he", he]] as const) {
        const page = await send(app, `/${lang}/account`, { headers: { cookie } });
        assert.ok(page.text.includes(tr("portalGifts.statePaused", { date: shown(resumeOn, lang) })), lang);
        assert.ok(page.page.includes(`action="${path("resume", gift.id, lang)}"`), `${lang}: resume form`);
      }
      assert.equal((await post("pause", { months: "2" })).res.status, 303);
      assert.equal((await stored()).version, paused.version, "a repeat writes nothing");
      const resumed = await post("resume", {});
      assert.equal(resumed.res.status, 303);
      const after = await stored();
      assert.equal(after.pausedFrom, null);
      assert.equal(after.nextPaymentDate, gift.nextPaymentDate, "the paused periods are given back");
      assert.equal(
        (await store.outbox.get(`gift-changed:${gift.id}:${after.version}`))?.kind,
        "monthly-changed",
      );
      assert.equal((await post("resume", {})).res.status, 303);
      assert.equal((await stored()).version, after.version, "resuming again writes nothing");
    });

    await t.step(
      "skip the next charge: shown as skipped; a repeat of the stale form changes nothing",
      async () => {
        const got = await post("skip", { period: gift.nextPaymentDate });
        assert.equal(got.res.status, 303);
        const skipped = await stored();
        const next = nextMonth(gift.nextPaymentDate, gift.createdAt);
        assert.equal(skipped.nextPaymentDate, next);
        const page = await send(app, "/en/account?done=skip", { headers: { cookie } });
        assert.ok(page.text.includes(en("portalGifts.done.skip")));
        assert.ok(
          page.text.includes(
            en("portalGifts.stateSkipped", {
              date: shown(gift.nextPaymentDate, "en"),
              next: shown(next, "en"),
            }),
          ),
          page.text,
        );
        assert.equal((await post("skip", { period: gift.nextPaymentDate })).res.status, 303);
        assert.equal((await stored()).version, skipped.version);
        assert.equal((await post("resume", {})).res.status, 303);
      },
    );

    await t.step("a charge in progress: changes refused with 409, translated", async () => {
      const before = await stored();
      await store.subscriptions.updateIfVersion(gift.id, before.version, { charging: "test:charge:0" });
      const got = await post("amount", { amount: "400" }, "he");
      assert.equal(got.res.status, 409);
      assert.ok(got.text.includes(he("portalGifts.errors.chargeInProgress")));
      const marked = await stored();
      await store.subscriptions.updateIfVersion(gift.id, marked.version, { charging: null });
    });

    await t.step("cancel with a reason: 303, confirmed, stored; again is idempotent; then 409", async () => {
      const got = await post("cancel", { reason: "moved-away" });
      assert.equal(got.res.status, 303);
      assert.equal(got.res.headers.get("location"), "/en/account?done=cancel");
      const after = await stored();
      assert.equal(after.status, "cancelled");
      assert.equal(after.cancelReason, "moved-away");
      assert.equal((await store.outbox.get(`gift-cancelled:${gift.id}`))?.kind, "monthly-cancelled");
      const page = await send(app, "/en/account?done=cancel", { headers: { cookie } });
      assert.ok(page.text.includes(en("portalGifts.done.cancel")));
      assert.ok(page.text.includes(en("account.noMonthly")), "no active monthly gift left");
      assert.equal((await post("cancel", { reason: "" })).res.status, 303);
      assert.equal((await stored()).version, after.version);
      const ended = await post("amount", { amount: "100" });
      assert.equal(ended.res.status, 409);
      assert.ok(ended.text.includes(en("portalGifts.errors.ended")));
    });

    await t.step("an email's manage link: signs in; an expired one shows the form, saying so", async () => {
      const key = await manageLinkKey(app.config.appSecret);
      const old = await createManageToken(key, first, new Date(Date.now() - MANAGE_LINK_TTL_MS - DAY));
      for (const [lang, tr] of [["en", en], ["he", he]] as const) {
        const got = await send(app, `/${lang}/account?token=${old}`);
        assert.equal(got.res.status, 200);
        assert.ok(got.text.includes(tr("portalGifts.manageLinkRefused")), lang);
        assert.ok(got.page.includes('name="email"'));
      }
    });
  } finally {
    await app.close();
  }
});
