/**
 * The cancel-subscription page opened by a manage link (`?token=…`, `lib/donor_portal/manage_link.ts`) over real
 * HTTP with a real sandbox monthly donation: a valid token shows the donor and cancels; a tampered
 * one is refused (400) and changes nothing; an expired one (410) offers a no-JavaScript form that
 * enqueues a fresh link and answers the same whatever happens; `userId` keeps the spec's behaviour
 * whatever `token` says.
 */
import assert from "node:assert/strict";
import { translator } from "@/lib/core/i18n.ts";
import type { MessageInput } from "@/lib/storage/message_types.ts";
import { createManageToken, MANAGE_LINK_TTL_MS, manageLinkKey } from "@/lib/donor_portal/manage_link.ts";
import { startTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { createPayment, newDonor, payOnSandboxPage } from "@/tests/helpers/payments.ts";

const en = translator("en");
const he = translator("he");

/** The page's `<main>` as text (tags dropped, the few entities the server writes decoded). */
function mainText(page: string): string {
  const main = page.slice(page.indexOf("<main"), page.indexOf("</main>"));
  return main.replace(/<[^>]*>/g, "").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&");
}

async function send(app: TestApp, path: string, init?: RequestInit) {
  const res = await fetch(app.url + path, { redirect: "manual", ...init });
  const page = await res.text();
  return { res, page, text: mainText(page) };
}

const form = (app: TestApp, body: string, origin = app.url): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded", origin },
  body,
});

/** A donor with an active monthly gift, paid in the sandbox. */
async function monthlyDonor(app: TestApp, name: string): Promise<string> {
  const userId = await newDonor(app, name);
  const created = await createPayment(app, { amount: 50, currency: "dollars", userId, isMonthly: true });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  assert.equal((await payOnSandboxPage(app, created.body.url)).pathname, "/en/success");
  return userId;
}

Deno.test("cancel page with a manage token: valid, tampered, expired, and userId unchanged", async (t) => {
  const app = await startTestApp();
  const enqueued: MessageInput[] = [];
  app.services.enqueueMessage = (message) => Promise.resolve(void enqueued.push(message));
  try {
    const key = await manageLinkKey(app.config.appSecret);
    const userId = await monthlyDonor(app, "Tamar");
    const token = await createManageToken(key, userId);
    const expired = await createManageToken(key, userId, new Date(Date.now() - MANAGE_LINK_TTL_MS - 60_000));
    const tampered = token.slice(0, 20) + (token[20] === "x" ? "y" : "x") + token.slice(21);

    await t.step("a valid token shows the donor and the cancel form, never the donor id", async () => {
      const { res, page, text } = await send(app, `/en/cancel-subscription?token=${token}`);
      assert.equal(res.status, 200);
      assert.ok(text.includes("Tamar Levi"));
      assert.ok(text.includes(en("cancel.monthlyActive") + en("cancel.yes")));
      assert.ok(page.includes('<form method="post">'));
      assert.ok(page.includes('<meta name="robots" content="noindex"'));
      assert.ok(!page.includes(userId), "the page does not hand out the permanent id");
    });

    await t.step("a tampered token is refused with a translated page and cancels nothing", async () => {
      for (const [lang, tr] of [["en", en], ["he", he]] as const) {
        const got = await send(app, `/${lang}/cancel-subscription?token=${tampered}`);
        assert.equal(got.res.status, 400);
        assert.ok(got.text.includes(tr("manageLink.invalid")), lang);
        assert.ok(!got.page.includes("<form"), "nothing to submit");
        const posted = await send(app, `/${lang}/cancel-subscription?token=${tampered}`, form(app, ""));
        assert.equal(posted.res.status, 400);
      }
      assert.equal((await app.store.donors.get(userId))?.monthlyPaymentAvailable, true);
    });

    await t.step("an expired token: 410, a no-JS form, and the same answer whatever happens", async () => {
      const path = `/he/cancel-subscription?token=${expired}`;
      const got = await send(app, path);
      assert.equal(got.res.status, 410);
      assert.ok(got.text.includes(he("manageLink.expired")));
      assert.ok(got.page.includes('<html lang="he" dir="rtl"'));
      assert.ok(got.page.includes('<input type="hidden" name="send" value="link">'));
      assert.ok(got.text.includes(he("manageLink.sendButton")));
      // Posting without the form's field cancels nothing: an expired link cannot cancel.
      const bare = await send(app, path, form(app, ""));
      assert.equal(bare.res.status, 410);
      assert.equal((await app.store.donors.get(userId))?.monthlyPaymentAvailable, true);
      assert.equal(enqueued.length, 0);

      const sent = await send(app, path, form(app, "send=link"));
      assert.equal(sent.res.status, 200);
      assert.ok(sent.text.includes(he("manageLink.requested")));
      assert.equal(enqueued.length, 1);
      assert.deepEqual(
        { ...enqueued[0], key: undefined },
        { key: undefined, kind: "manage-link", to: { donorId: userId }, language: "he", data: {} },
      );
      // The donor's email allows three an hour; after that the page answers the same.
      for (let i = 0; i < 3; i++) {
        const again = await send(app, path, form(app, "send=link"));
        assert.equal(again.res.status, 200);
        assert.equal(again.text, sent.text);
      }
      assert.equal(enqueued.length, 3);
      // A token for a donor that does not exist: the same answer, nothing enqueued.
      const stranger = await createManageToken(key, "A".repeat(24), new Date(0));
      const unknown = await send(app, `/he/cancel-subscription?token=${stranger}`, form(app, "send=link"));
      assert.equal(unknown.text, sent.text);
      assert.equal(enqueued.length, 3);
      // A cross-site form is refused before it gets here.
      const cross = await send(app, path, form(app, "send=link", "https://evil.example"));
      assert.equal(cross.res.status, 403);
      assert.equal(enqueued.length, 3);
    });

    await t.step("userId keeps the spec's behaviour whatever token says", async () => {
      const got = await send(app, `/en/cancel-subscription?userId=${userId}&token=${tampered}`);
      assert.equal(got.res.status, 200);
      assert.ok(got.text.includes("Tamar Levi"));
      const unknown = await send(app, `/en/cancel-subscription?userId=${"B".repeat(24)}&token=${token}`);
      assert.equal(unknown.res.status, 404);
      assert.ok(unknown.text.includes(en("cancel.unknownId")));
      const missing = await send(app, `/en/cancel-subscription?token=`);
      assert.equal(missing.res.status, 200);
      assert.ok(missing.text.includes(en("cancel.missingId")));
    });

    await t.step("the cancel button with a valid token stops the monthly gift", async () => {
      const got = await send(app, `/en/cancel-subscription?token=${token}`, form(app, ""));
      assert.equal(got.res.status, 200);
      assert.ok(got.text.includes(en("cancel.cancelled")));
      assert.equal((await app.store.donors.get(userId))?.monthlyPaymentAvailable, false);
      const [sub] = await app.store.subscriptions.listByDonor(userId);
      assert.equal(sub.status, "cancelled");
    });

    await t.step("no token, no id, in the log", () => {
      const lines = JSON.stringify(app.logs);
      assert.ok(!lines.includes(token.slice(3)) && !lines.includes(expired.slice(3)));
      assert.ok(app.logs.some((l) => l.msg === "fresh manage link asked for" && l.outcome === "sent"));
      assert.ok(app.logs.some((l) => l.outcome === "rate-limited"));
    });
  } finally {
    await app.close();
  }
});
