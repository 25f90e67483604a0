/**
 * The result pages (online and terminal success and error) and the cancel-subscription page over
 * real HTTP, with real sandbox payments and donors: what they show comes from the server's record,
 * never from the query string; the cancel button is a plain form protected against cross-site
 * posts; and the pages ship no JavaScript beyond the shell's islands and the progress bar.
 */
import assert from "node:assert/strict";
import { errorMessageKey } from "@/lib/donations/error_codes.ts";
import { translator } from "@/lib/core/i18n.ts";
import type { Lang } from "@/lib/shared/languages.ts";
import { formatMoney } from "@/lib/shared/money.ts";
import { formatDate } from "@/routes/[lang]/cancel-subscription.tsx";
import { startTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { pairTestKiosk } from "@/tests/helpers/kiosk.ts";
import { createPayment, newDonor, payOnSandboxPage, signedPost } from "@/tests/helpers/payments.ts";

/** The islands of the app shell, on every `/{lang}/` page. */
const SHELL = ["InitPaymentListener", "LanguageSelector", "ScrollToTop"];
/** A card the sandbox declines with status 004. */
const DECLINED_004 = "4000 0000 0000 0004";

const en = translator("en");
const he = translator("he");

/** Decodes the few entities the server writes, so page text can be compared with locale strings. */
function decode(html: string): string {
  return html.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

/** The text of some HTML: tags removed, entities decoded. */
const text = (html: string) => decode(html.replace(/<[^>]*>/g, ""));

/** The details list of a page as label → value. */
function details(html: string): Map<string, string> {
  const rows = new Map<string, string>();
  for (const m of html.matchAll(/<dt>(.*?)<\/dt><dd>(.*?)<\/dd>/g)) rows.set(text(m[1]), text(m[2]));
  return rows;
}

/** The islands a page loads: the names its one module script imports. */
function islandsOf(html: string): string[] {
  const m = html.match(/<script type="module"[^>]*>.*?\bb\(\{([^}]*)\}\)<\/script>/);
  return m ? m[1].split(",").map((pair) => pair.split(":")[0]).sort() : [];
}

/** Whether the HTML has a link of class `klass` to `href` whose text is `label`. */
function hasLink(html: string, href: string, label: string, klass = "button button-primary"): boolean {
  const d = decode(html);
  const start = `<a class="${klass}" href="${href}"`;
  for (let at = d.indexOf(start); at >= 0; at = d.indexOf(start, at + 1)) {
    if (d.startsWith(`${label}</a>`, d.indexOf(">", at) + 1)) return true;
  }
  return false;
}

/**
 * GETs (or sends) a page without following redirects; `html` is the page's `<main>` only (the
 * header's language links repeat the query string, which is not what these tests look at), `page`
 * the whole document.
 */
async function get(
  app: TestApp,
  path: string,
  init?: RequestInit,
): Promise<{ res: Response; html: string; page: string }> {
  const res = await fetch(app.url + path, { redirect: "manual", ...init });
  const page = await res.text();
  const html = page.slice(page.indexOf("<main"), page.indexOf("</main>") + "</main>".length);
  return { res, html, page };
}

/** A one-time online payment through the sandbox's card page; answers where the donor lands. */
async function pay(app: TestApp, card?: string, language: Lang = "en"): Promise<URL> {
  const userId = await newDonor(app, "Ruth");
  const created = await createPayment(app, { amount: 100, currency: "nis", userId, language });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  return await payOnSandboxPage(app, created.body.url, card);
}

/**
 * A terminal sale from a kiosk paired for the shop (the sandbox's terminal decides as the app's
 * SANDBOX_TERMINAL_AUTO says).
 */
async function terminalSale(app: TestApp, shopNumber: string): Promise<{ StatusCode: string; ref: string }> {
  const kiosk = await pairTestKiosk(app, shopNumber);
  const userId = await newDonor(app, "Kiosk");
  const res = await signedPost(app, "/api/payment/pay-emv", {
    amount: 100,
    currency: "nis",
    userId,
    language: "en",
    isMonthly: false,
    shopNumber,
  }, kiosk.headers);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return { StatusCode: res.body.StatusCode, ref: res.body.ResultData.TransactionId };
}

Deno.test("result pages: success and error, online and at the terminal", async (t) => {
  const app = await startTestApp({ env: { SANDBOX_TERMINAL_AUTO: "decline:004", TERMINALS: "12:pp-12" } });
  // A second instance on the same store whose simulated terminal approves.
  const approving = await startTestApp({ store: app.store, env: { SANDBOX_TERMINAL_AUTO: "approve" } });
  try {
    await t.step(
      "success without an id: thanks, no id, 'New payment' to /{lang} with the progress bar",
      async () => {
        for (const [lang, tr] of [["en", en], ["he", he]] as const) {
          const { res, html } = await get(app, `/${lang}/success`);
          assert.equal(res.status, 200);
          assert.ok(text(html).includes(tr("pages.success")), lang);
          assert.ok(text(html).includes(tr("success.message")), lang);
          assert.ok(!text(html).includes(tr("success.transactionId")), `${lang}: no transaction id`);
          assert.ok(hasLink(html, `/${lang}`, tr("success.newPayment")), lang);
          assert.match(html, /role="progressbar"/);
          assert.match(html, /aria-valuemin="0" aria-valuemax="100" aria-valuenow="0"/);
          assert.match(html, /<div class="progress-block" hidden>/, "hidden until its island runs");
          assert.ok(decode(html).includes(`"href":"/${lang}"`), "the island navigates to /{lang}");
          assert.ok(text(html).includes(tr("progress.label")));
        }
      },
    );

    await t.step(
      "success after a real payment shows its id; an id that names nothing shows none",
      async () => {
        const landed = await pay(app);
        assert.equal(landed.pathname, "/en/success");
        const id = landed.searchParams.get("SandboxTransactionId")!;
        const { html } = await get(app, landed.pathname + landed.search);
        assert.ok(text(html).includes(`${en("success.transactionId")}: ${id}`));
        const forged = "MadeUpMadeUpMadeUp123456";
        const other = await get(app, `/en/success?SandboxTransactionId=${forged}`);
        assert.equal(other.res.status, 200);
        assert.ok(!other.html.includes(forged));
        assert.ok(!text(other.html).includes(en("success.transactionId")));
      },
    );

    await t.step(
      "error: the message of a known code in en and he; an unknown code has the default",
      async () => {
        for (const [lang, tr] of [["en", en], ["he", he]] as const) {
          const { res, html } = await get(app, `/${lang}/error?SandboxStatusCode=004`);
          assert.equal(res.status, 200);
          assert.ok(text(html).includes(tr("transactionError.title")), lang);
          assert.notEqual(errorMessageKey("004"), errorMessageKey("987"), "004 has a message of its own");
          assert.ok(text(html).includes(tr(errorMessageKey("004"))), `${lang}: the message of 004`);
          assert.ok(hasLink(html, `/${lang}`, tr("transactionError.retry")), lang);
          assert.ok(html.includes('<details class="result-details">'));
          const rows = details(html);
          for (
            const key of ["amount", "statusCode", "errorMessage", "transactionId", "gatewayResult"]
          ) {
            assert.equal(
              rows.get(tr(`transactionError.${key}`)),
              tr("common.notAvailable"),
              `${lang}: ${key}`,
            );
          }
        }
        const unknown = await get(app, "/en/error?SandboxStatusCode=987");
        assert.ok(text(unknown.html).includes(en(errorMessageKey("987"))));
        assert.equal(en(errorMessageKey("987")), en("transactionError.default"));
        const none = await get(app, "/en/error");
        assert.ok(text(none.html).includes(en("transactionError.default")));
      },
    );

    let declined = "";
    await t.step("a declined sandbox payment: the details come from the record", async () => {
      const landed = await pay(app, DECLINED_004, "he");
      assert.equal(landed.pathname, "/he/error");
      assert.equal(landed.searchParams.get("SandboxStatusCode"), "004");
      declined = landed.searchParams.get("SandboxTransactionId")!;
      for (const [lang, tr] of [["he", he], ["en", en]] as const) {
        const { res, html } = await get(app, `/${lang}/error${landed.search}`);
        assert.equal(res.status, 200);
        assert.ok(text(html).includes(tr(errorMessageKey("004"))));
        assert.ok(text(html).includes(`${tr("transactionError.transactionId")}: ${declined}`));
        const rows = details(html);
        assert.equal(rows.get(tr("transactionError.amount")), formatMoney(10000, 1, lang));
        assert.equal(rows.get(tr("transactionError.statusCode")), "004");
        assert.equal(rows.get(tr("transactionError.errorMessage")), "Declined (004)");
        assert.equal(rows.get(tr("transactionError.transactionId")), declined);
        assert.equal(rows.get(tr("transactionError.gatewayResult")), tr("common.notAvailable"));
      }
    });

    await t.step("a forged query shows nothing false", async () => {
      // Code 000 claimed for the declined transaction: the record's 004 is what shows.
      const claimed = await get(app, `/en/error?SandboxStatusCode=000&SandboxTransactionId=${declined}`);
      assert.equal(claimed.res.status, 200);
      assert.ok(text(claimed.html).includes(en(errorMessageKey("004"))));
      assert.equal(details(claimed.html).get(en("transactionError.statusCode")), "004");
      assert.ok(!/>000</.test(claimed.html));
      // A made-up transaction id: the query's code only chooses the message; no id, no details.
      const forged = "MadeUpMadeUpMadeUp123456";
      const madeUp = await get(app, `/en/error?SandboxStatusCode=004&SandboxTransactionId=${forged}`);
      assert.ok(text(madeUp.html).includes(en(errorMessageKey("004"))));
      assert.ok(!madeUp.html.includes(forged));
      assert.ok(!/₪|\$/.test(text(madeUp.html)), "no amount");
      for (const value of details(madeUp.html).values()) assert.equal(value, en("common.notAvailable"));
      // The success page never thanks for a declined payment, and the error page never fails an approved one.
      const thanks = await get(app, `/en/success?SandboxTransactionId=${declined}`);
      assert.equal(thanks.res.status, 303);
      assert.equal(
        thanks.res.headers.get("location"),
        `/en/error?SandboxStatusCode=004&SandboxTransactionId=${declined}`,
      );
      const approved = (await pay(app)).searchParams.get("SandboxTransactionId")!;
      const failed = await get(app, `/he/error?SandboxStatusCode=004&SandboxTransactionId=${approved}`);
      assert.equal(failed.res.status, 303);
      assert.equal(failed.res.headers.get("location"), `/he/success?SandboxTransactionId=${approved}`);
    });

    await t.step("terminal error: the recorded details, and every way back goes to the shop", async () => {
      for (const [shop, terminal] of [["12", "pp-12"], ["7", "sim-7"]]) {
        const sale = await terminalSale(app, shop);
        assert.equal(sale.StatusCode, "004");
        const { res, html } = await get(
          app,
          `/en/terminal-error/${shop}?SandboxStatusCode=000&SandboxTransactionId=${sale.ref}`,
        );
        assert.equal(res.status, 200);
        assert.ok(text(html).includes(en(errorMessageKey("004"))), "the record's code, not the query's");
        const rows = details(html);
        assert.equal(rows.get(en("transactionError.amount")), "₪100.00");
        assert.equal(rows.get(en("transactionError.statusCode")), "004");
        assert.equal(rows.get(en("transactionError.errorMessage")), "Declined at the terminal (004)");
        assert.equal(rows.get(en("transactionError.transactionId")), sale.ref);
        assert.equal(rows.get(en("transactionError.clearingResult")), en("common.notAvailable"));
        assert.equal(rows.get(en("transactionError.voucherId")), en("common.notAvailable"));
        assert.equal(rows.get(en("transactionError.terminalId")), terminal);
        assert.ok(hasLink(html, `/en/terminal-payment/${shop}`, en("transactionError.retry")));
        assert.ok(decode(html).includes(`"href":"/en/terminal-payment/${shop}"`));
      }
      const bare = await get(app, "/he/terminal-error/7?SandboxStatusCode=004");
      assert.ok(text(bare.html).includes(he(errorMessageKey("004"))));
      assert.equal(details(bare.html).get(he("transactionError.terminalId")), he("common.notAvailable"));
      const noShop = await get(app, "/en/terminal-error");
      assert.ok(hasLink(noShop.html, "/en/terminal-payment", en("transactionError.retry")));
    });

    await t.step("terminal success: thanks, the recorded id, and back to the shop", async () => {
      const sale = await terminalSale(approving, "7");
      assert.equal(sale.StatusCode, "000");
      const { res, html } = await get(app, `/he/terminal-success/7?SandboxTransactionId=${sale.ref}`);
      assert.equal(res.status, 200);
      assert.ok(text(html).includes(he("pages.terminalSuccess")));
      assert.ok(text(html).includes(`${he("terminalSuccess.transactionId")}: ${sale.ref}`));
      assert.ok(hasLink(html, "/he/terminal-payment/7", he("terminalSuccess.newPayment")));
      assert.ok(decode(html).includes(`"href":"/he/terminal-payment/7"`));
      // An approved sale on the error page, a declined one on the success page: each goes to its own.
      const wrong = await get(
        app,
        `/en/terminal-error/7?SandboxStatusCode=004&SandboxTransactionId=${sale.ref}`,
      );
      assert.equal(wrong.res.status, 303);
      assert.equal(
        wrong.res.headers.get("location"),
        `/en/terminal-success/7?SandboxTransactionId=${sale.ref}`,
      );
      const declinedSale = await terminalSale(app, "7");
      const thanks = await get(app, `/en/terminal-success/7?SandboxTransactionId=${declinedSale.ref}`);
      assert.equal(thanks.res.status, 303);
      assert.match(thanks.res.headers.get("location")!, /^\/en\/terminal-error\/7\?SandboxStatusCode=004&/);
      const noShop = await get(app, "/en/terminal-success");
      assert.ok(hasLink(noShop.html, "/en/terminal-payment", en("terminalSuccess.newPayment")));
    });

    await t.step("result pages ship JavaScript only for the progress bar, beyond the shell", async () => {
      for (const lang of ["en", "he"]) {
        for (
          const path of [
            "success",
            "error?SandboxStatusCode=004",
            "terminal-success/7",
            "terminal-error/7?SandboxStatusCode=004",
          ]
        ) {
          const { page } = await get(app, `/${lang}/${path}`);
          assert.deepEqual(islandsOf(page), [...SHELL, "ProgressBar"].sort(), `/${lang}/${path}`);
          assert.equal(page.match(/<script/g)?.length, 1, `/${lang}/${path}: one script`);
        }
      }
    });
  } finally {
    await approving.close();
    await app.close();
  }
});

Deno.test("cancel-subscription page: before and after cancelling, refusals and messages", async (t) => {
  const app = await startTestApp();
  const post = (path: string, headers: Record<string, string>) =>
    get(app, path, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: "",
    });
  try {
    const userId = await newDonor(app, "Miriam");
    const created = await createPayment(app, { amount: 50, currency: "dollars", userId, isMonthly: true });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.equal((await payOnSandboxPage(app, created.body.url)).pathname, "/en/success");
    const page = `/en/cancel-subscription?userId=${userId}`;

    await t.step("a monthly donor: details, dates in US English, and the orange cancel form", async () => {
      const donor = (await app.store.donors.get(userId))!;
      const { res, html, page: document } = await get(app, page);
      assert.equal(res.status, 200);
      assert.ok(
        document.includes('<meta name="robots" content="noindex"'),
        "the capability URL is not indexed",
      );
      assert.ok(text(html).includes(en("pages.cancelSubscription")));
      assert.ok(text(html).includes(en("cancel.subtitle")));
      const rows = details(html);
      assert.equal(rows.get(en("cancel.name")), "Miriam Levi");
      assert.equal(rows.get(en("cancel.email")), "miriam@example.org");
      assert.equal(rows.get(en("cancel.country")), "Israel");
      assert.equal(rows.get(en("cancel.lastPayment")), formatDate(donor.paymentDate));
      assert.equal(rows.get(en("cancel.nextPayment")), formatDate(donor.nextPaymentDate));
      assert.match(
        rows.get(en("cancel.lastPayment"))!,
        /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M UTC$/,
      );
      assert.equal(rows.get(en("cancel.monthlyActive")), en("cancel.yes"));
      assert.ok(
        html.includes(
          `<form method="post"><button type="submit" class="button button-cancel">${
            en("cancel.cancelButton")
          }</button></form>`,
        ),
      );
      const hebrew = await get(app, `/he/cancel-subscription?userId=${userId}`);
      const heRows = details(hebrew.html);
      assert.equal(heRows.get(he("cancel.monthlyActive")), he("cancel.yes"));
      assert.equal(
        heRows.get(he("cancel.lastPayment")),
        formatDate(donor.paymentDate),
        "dates stay US English",
      );
    });

    await t.step("a cross-site POST is refused with 403 and changes nothing", async () => {
      for (
        const headers of [
          { origin: "https://evil.example" },
          { origin: "null" },
          { "sec-fetch-site": "cross-site" },
          {},
        ] as Record<string, string>[]
      ) {
        const { res, html } = await post(page, headers);
        assert.equal(res.status, 403, JSON.stringify(headers));
        assert.ok(text(html).includes(en("cancel.forbidden")));
      }
      assert.equal((await app.store.donors.get(userId))?.monthlyPaymentAvailable, true);
      const [sub] = await app.store.subscriptions.listByDonor(userId);
      assert.equal(sub.status, "active");
    });

    await t.step("the cancel button stops the donation and shows the server's answer", async () => {
      const { res, html } = await post(page, { origin: app.url });
      assert.equal(res.status, 200);
      assert.ok(text(html).includes(en("cancel.cancelled")));
      const rows = details(html);
      assert.equal(rows.get(en("cancel.monthlyActive")), en("cancel.no"));
      assert.ok(!rows.has(en("cancel.nextPayment")), "no next payment once cancelled");
      assert.ok(!html.includes("<form"));
      assert.ok(hasLink(html, "/en", en("cancel.homeButton"), "button"));
      assert.equal((await app.store.donors.get(userId))?.monthlyPaymentAvailable, false);
      const [sub] = await app.store.subscriptions.listByDonor(userId);
      assert.equal(sub.status, "cancelled");
      // Same-origin by Sec-Fetch-Site (no Origin header) is accepted too; cancelling again changes nothing.
      const again = await post(page, { "sec-fetch-site": "same-origin" });
      assert.equal(again.res.status, 200);
      const later = await get(app, page);
      assert.equal(details(later.html).get(en("cancel.monthlyActive")), en("cancel.no"));
      assert.ok(!text(later.html).includes(en("cancel.cancelled")));
    });

    await t.step("a one-time donor: no next payment, 'No', and the home button", async () => {
      const landed = await pay(app);
      const tx = await app.store.transactions.getByProviderId(
        "sandbox",
        landed.searchParams.get("SandboxTransactionId")!,
      );
      const { html } = await get(app, `/es/cancel-subscription?userId=${tx!.donorId}`);
      const es = translator("es");
      const rows = details(html);
      assert.equal(rows.get(es("cancel.monthlyActive")), es("cancel.no"));
      assert.ok(!rows.has(es("cancel.nextPayment")));
      assert.ok(hasLink(html, "/es", es("cancel.homeButton"), "button"));
    });

    await t.step("a donor without a payment: last payment N/A", async () => {
      const fresh = await newDonor(app, "Fresh");
      const { html } = await get(app, `/en/cancel-subscription?userId=${fresh}`);
      assert.equal(details(html).get(en("cancel.lastPayment")), en("common.notAvailable"));
    });

    await t.step(
      "an unknown or malformed id: 404 with a clear message; a missing one: the page asking for the link",
      async () => {
        for (const id of ["UnknownDonorIdUnknown123", "x", "<script>"]) {
          for (const [lang, tr] of [["en", en], ["he", he]] as const) {
            const { res, html } = await get(
              app,
              `/${lang}/cancel-subscription?userId=${encodeURIComponent(id)}`,
            );
            assert.equal(res.status, 404, id);
            assert.ok(text(html).includes(tr("cancel.unknownId")), `${lang} ${id}`);
            assert.ok(!html.includes("<form"));
          }
        }
        for (const path of ["/en/cancel-subscription", "/en/cancel-subscription?userId="]) {
          const { res, html } = await get(app, path);
          assert.equal(res.status, 200, path);
          assert.ok(text(html).includes(en("cancel.missingId")));
        }
        const missingHe = await get(app, "/he/cancel-subscription");
        assert.ok(text(missingHe.html).includes(he("cancel.missingId")));
        const unknownPost = await post("/en/cancel-subscription?userId=UnknownDonorIdUnknown123", {
          origin: app.url,
        });
        assert.equal(unknownPost.res.status, 404);
      },
    );

    await t.step("the cancel page ships no JavaScript beyond the shell's islands", async () => {
      for (const path of [page, "/he/cancel-subscription", "/en/cancel-subscription?userId=x"]) {
        const { page } = await get(app, path);
        assert.deepEqual(islandsOf(page), [...SHELL].sort(), path);
        assert.equal(page.match(/<script/g)?.length, 1, path);
      }
    });
  } finally {
    await app.close();
  }
});
