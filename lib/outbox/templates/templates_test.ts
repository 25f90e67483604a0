import assert from "node:assert/strict";
import { translator } from "@/lib/core/i18n.ts";
import { newId } from "@/lib/core/ids.ts";
import {
  assertDirection,
  assertManageLink,
  fixture,
  message,
  NOW,
  PUBLIC_URL,
  subscription,
  transaction,
} from "@/tests/helpers/mail.ts";
import { emailDate, emailMoney } from "./format.ts";

for (const lang of ["en", "he"] as const) {
  const t = translator(lang);
  const museum = t("welcome.museumTitle");

  Deno.test(`receipt (${lang}): figures, card, PDF attached, manage link; one-time and monthly`, async () => {
    const { store, donor, render, attached } = await fixture();
    try {
      const tx = transaction(donor);
      await store.transactions.record(tx);
      const out = (await render(message({
        kind: "receipt",
        to: { donorId: donor.id },
        language: lang,
        data: { transactionId: tx.id },
      })))!;
      assert.deepEqual(out.to, ["dana@example.org"]);
      assert.equal(out.subject, t("email.receipt.subject", { museum }));
      const amount = emailMoney(18000, 1, lang);
      const date = emailDate(tx.createdAt, lang);
      assert.ok(out.text.includes(t("email.receipt.body", { amount, date })));
      assert.ok(
        out.text.includes(`${t("email.labels.payment")}: ${t("email.labels.card", { last4: "4580" })}`),
      );
      assert.ok(out.html.includes(amount) && out.html.includes(date));
      assert.deepEqual(out.attachments.map((a) => a.filename), [`receipt-${tx.id}.pdf`]);
      assert.deepEqual(attached.map((a) => a.id), [tx.id]);
      assertDirection(out, lang);
      await assertManageLink(out, donor, lang);

      const monthly = transaction(donor, { isMonthly: true, amount: 5000, currency: 2 });
      await store.transactions.record(monthly);
      const second = (await render(message({
        kind: "receipt",
        to: { donorId: donor.id },
        language: lang,
        data: { transactionId: monthly.id },
      })))!;
      assert.equal(second.subject, t("email.receipt.subjectMonthly", { museum }));
      assert.ok(second.text.includes(emailMoney(5000, 2, lang)));
    } finally {
      await store.close();
    }
  });

  Deno.test(`monthly welcome (${lang}): amount, next charge, manage link; none once cancelled`, async () => {
    const { store, donor, render } = await fixture();
    try {
      const sub = await store.subscriptions.create(subscription(donor));
      const welcome = message({
        kind: "monthly-welcome",
        to: { donorId: donor.id },
        language: lang,
        data: { subscriptionId: sub.id },
      });
      const out = (await render(welcome))!;
      assert.equal(out.subject, t("email.welcome.subject", { museum }));
      const body = t("email.welcome.body", {
        amount: emailMoney(5000, 2, lang),
        date: emailDate(sub.nextPaymentDate, lang),
      });
      assert.ok(out.text.includes(body));
      assert.ok(out.html.includes(body.replaceAll("'", "&#39;").replaceAll('"', "&quot;")));
      assert.deepEqual(out.attachments, []);
      assertDirection(out, lang);
      await assertManageLink(out, donor, lang);
      await store.subscriptions.cancelForDonor(donor.id, NOW.toISOString());
      assert.equal(await render(welcome), null, "no welcome for a gift already cancelled");
    } finally {
      await store.close();
    }
  });

  Deno.test(`charge failed (${lang}): the retry's date, or that the gift stopped`, async () => {
    const { store, donor, render } = await fixture();
    try {
      const sub = await store.subscriptions.create(subscription(donor));
      const tx = transaction(donor, { kind: "error", statusCode: "033", isMonthly: true, resultData: null });
      await store.transactions.record(tx);
      const failed = (retryAt: string | null) =>
        render(message({
          kind: "charge-failed",
          to: { donorId: donor.id },
          language: lang,
          data: { subscriptionId: sub.id, transactionId: tx.id, retryAt },
        }));
      const retry = (await failed("2026-03-08T14:07:00.000Z"))!;
      assert.equal(retry.subject, t("email.chargeFailed.subject"));
      assert.ok(
        retry.text.includes(t("email.chargeFailed.retry", { date: emailDate("2026-03-08T14:07:00Z", lang) })),
      );
      assert.ok(retry.text.includes(t("email.chargeFailed.body", {
        amount: emailMoney(5000, 2, lang),
        date: emailDate(tx.createdAt, lang),
      })));
      assert.ok(!retry.text.includes(t("email.chargeFailed.stopped")));
      await assertManageLink(retry, donor, lang);
      const stopped = (await failed(null))!;
      assert.ok(stopped.text.includes(t("email.chargeFailed.stopped")));
      assert.ok(stopped.text.includes(`${PUBLIC_URL}/${lang}\n`), "a link to donate again");
      assertDirection(stopped, lang);
      await assertManageLink(stopped, donor, lang);
    } finally {
      await store.close();
    }
  });

  Deno.test(`monthly changed (${lang}): what changed, the amount and next charge carried, manage link`, async () => {
    const { store, donor, render } = await fixture();
    try {
      for (const change of ["amount", "pause", "skip", "resume"] as const) {
        const out = (await render(message({
          kind: "monthly-changed",
          to: { donorId: donor.id },
          language: lang,
          data: {
            subscriptionId: "sub_1",
            change,
            amount: 7_550,
            currency: 2,
            nextPaymentDate: "2026-06-10T09:00:00Z",
          },
        })))!;
        assert.equal(out.subject, t("giftChanges.subject", { museum }));
        const amount = emailMoney(7_550, 2, lang);
        const date = emailDate("2026-06-10T09:00:00Z", lang);
        assert.ok(out.text.includes(t(`giftChanges.${change}`, { amount, date })), `${change}: its sentence`);
        assert.ok(out.html.includes(amount) && out.html.includes(date));
        assertDirection(out, lang);
        await assertManageLink(out, donor, lang);
      }
    } finally {
      await store.close();
    }
  });

  Deno.test(`monthly cancelled and manage link (${lang})`, async () => {
    const { store, donor, render } = await fixture();
    try {
      const cancelled = (await render(message({
        kind: "monthly-cancelled",
        to: { donorId: donor.id },
        language: lang,
        data: { at: "2026-03-09T20:00:00.000Z" },
      })))!;
      assert.equal(cancelled.subject, t("email.cancelled.subject", { museum }));
      assert.ok(
        cancelled.text.includes(t("email.cancelled.body", { date: emailDate("2026-03-09T20:00:00Z", lang) })),
      );
      assertDirection(cancelled, lang);
      await assertManageLink(cancelled, donor, lang);
      const link = (await render(message({
        kind: "manage-link",
        to: { donorId: donor.id },
        language: lang,
        data: {},
      })))!;
      assert.equal(link.subject, t("email.manageLink.subject", { museum }));
      assert.ok(link.text.includes(t("email.manageNote", { date: emailDate("2026-05-09T08:00:00Z", lang) })));
      assertDirection(link, lang);
      await assertManageLink(link, donor, lang);
    } finally {
      await store.close();
    }
  });

  Deno.test(`yearly statement (${lang}): the year's gifts by email address, totals per currency`, async () => {
    const { store, donor, render } = await fixture();
    try {
      // An earlier donor record with the same address (a donor record is made per form), another
      // address, the year before, the year after, and a declined payment: only three gifts count.
      const earlier = await store.donors.create({
        ...donor,
        id: newId(),
        email: "DANA@example.org".toLowerCase(),
      });
      const stranger = { ...donor, id: newId(), email: "someone@example.org" };
      for (
        const tx of [
          transaction(donor, { createdAt: "2024-12-31T23:59:59.000Z", amount: 99900 }),
          transaction(earlier, { createdAt: "2025-01-01T00:00:00.000Z", amount: 10000, currency: 1 }),
          transaction(stranger, { createdAt: "2025-02-01T00:00:00.000Z", amount: 77700 }),
          transaction(donor, {
            createdAt: "2025-06-01T00:00:00.000Z",
            amount: 2500,
            currency: 2,
            isMonthly: true,
          }),
          transaction(donor, { createdAt: "2025-07-01T00:00:00.000Z", kind: "error", amount: 55500 }),
          transaction(donor, { createdAt: "2025-12-31T23:00:00.000Z", amount: 5000, currency: 1 }),
          transaction(donor, { createdAt: "2026-01-01T00:00:00.000Z", amount: 88800 }),
        ]
      ) await store.transactions.record(tx);
      const out = (await render(message({
        kind: "yearly-statement",
        to: { donorId: donor.id },
        language: lang,
        data: { year: 2025 },
      })))!;
      assert.equal(out.subject, t("email.yearly.subject", { museum, year: 2025 }));
      for (
        const amount of [emailMoney(10000, 1, lang), emailMoney(2500, 2, lang), emailMoney(5000, 1, lang)]
      ) {
        assert.ok(out.text.includes(amount), amount);
      }
      for (const minor of [99900, 77700, 55500, 88800]) {
        assert.ok(!out.text.includes(emailMoney(minor, 1, lang)), `${minor} is not the year's`);
      }
      assert.ok(
        out.text.includes(
          `${t("email.labels.total", { currency: "ILS" })} |  | ${emailMoney(15000, 1, lang)}`,
        ),
      );
      assert.ok(
        out.text.includes(
          `${t("email.labels.total", { currency: "USD" })} |  | ${emailMoney(2500, 2, lang)}`,
        ),
      );
      const rows = out.text.split("\n").filter((line) => line.split(" | ").length === 3);
      assert.equal(rows[1].split(" | ")[0], emailDate("2025-01-01T00:00:00Z", lang), "oldest first");
      assert.match(out.html, /<th\s+scope="col"/);
      assertDirection(out, lang);
      await assertManageLink(out, donor, lang);
      const none = await render(message({
        kind: "yearly-statement",
        to: { donorId: donor.id },
        language: lang,
        data: { year: 2023 },
      }));
      assert.equal(none, null, "no gifts that year: nothing to send");
    } finally {
      await store.close();
    }
  });

  Deno.test(`admin pending (${lang}): to every approved admin, nothing once decided`, async () => {
    const { store, render } = await fixture();
    try {
      const admin = (id: string, email: string, status: "approved" | "pending") => ({
        id,
        email,
        name: `Name ${id}`,
        passwordHash: "x",
        status,
        role: status === "approved" ? "owner" as const : null,
        createdAt: "2026-03-01T09:00:00.000Z",
        decidedBy: null,
        decidedAt: null,
      });
      await store.admins.create(admin("a1", "boss@museum.example", "approved"));
      await store.admins.create(admin("a2", "curator@museum.example", "approved"));
      await store.admins.create(admin("p1", "new@museum.example", "pending"));
      const pending = message({
        kind: "admin-pending",
        to: { admins: true },
        language: lang,
        data: { adminId: "p1" },
      });
      const out = (await render(pending))!;
      assert.deepEqual(out.to.sort(), ["boss@museum.example", "curator@museum.example"]);
      assert.equal(out.subject, t("email.adminPending.subject", { name: "Name p1" }));
      assert.ok(out.text.includes("new@museum.example"));
      assert.ok(out.text.includes(`${PUBLIC_URL}/${lang}/admin`));
      assert.ok(out.text.includes(emailDate("2026-03-01T09:00:00Z", lang)));
      assertDirection(out, lang);
      await store.admins.setStatus("p1", "approved", "a1", NOW.toISOString());
      assert.equal(await render(pending), null);
    } finally {
      await store.close();
    }
  });
}

Deno.test("renderers: nothing to send for an erased donor or a declined payment; names are escaped", async () => {
  const { store, donor, render } = await fixture('Dana <b>"&</b>');
  try {
    const declined = transaction(donor, { kind: "error", statusCode: "004" });
    await store.transactions.record(declined);
    assert.equal(
      await render(message({
        kind: "receipt",
        to: { donorId: donor.id },
        language: "en",
        data: { transactionId: declined.id },
      })),
      null,
    );
    assert.equal(
      await render(message({ kind: "manage-link", to: { donorId: newId() }, language: "en", data: {} })),
      null,
    );
    const out =
      (await render(message({ kind: "manage-link", to: { donorId: donor.id }, language: "fr", data: {} })))!;
    assert.equal(out.language, "en", "an unknown language falls back to English");
    assert.ok(
      out.html.includes("Dana &lt;b>&quot;&amp;&lt;/b>") ||
        out.html.includes("Dana &lt;b&gt;&quot;&amp;&lt;/b&gt;"),
    );
    assert.ok(!out.html.includes("<b>"));
    assert.ok(out.text.includes('Dana <b>"&</b>'), "text is not HTML");
  } finally {
    await store.close();
  }
});

Deno.test("sign-in link: greets the address, not a name anyone could have typed on a donor record", async () => {
  // Anyone may create a donor record under any address without paying (POST /api/user), with any
  // first name: the sign-in email goes to the address, so it must not carry that record's words.
  const { store, donor, render } = await fixture("Your account is blocked, call +1 555 0100");
  try {
    for (const lang of ["en", "he", "ru", "pt", "es"] as const) {
      const t = translator(lang);
      const out = (await render(message({
        kind: "sign-in-link",
        to: { donorId: donor.id },
        language: lang,
        data: { signInId: "0123456789abcdef0123456789abcdef" },
      })))!;
      assert.deepEqual(out.to, ["dana@example.org"]);
      assert.ok(!out.text.includes("555 0100") && !out.html.includes("555 0100"), lang);
      assert.ok(out.text.includes(t("email.greetingAddress")), lang);
    }
  } finally {
    await store.close();
  }
});
