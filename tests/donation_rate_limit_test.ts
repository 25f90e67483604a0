/**
 * The donation page's form without JavaScript against card testing: the honeypot field (hidden
 * from people and screen readers; filled, the post is refused and nothing is created), and the
 * rate limits' refusal in the donor's language (429, `Retry-After`, the input kept), Hebrew
 * right-to-left included.
 */
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { createPayment, newDonor } from "@/tests/helpers/payments.ts";

function post(app: TestApp, path: string, fields: Record<string, string>) {
  return fetch(`${app.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: app.url },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
}

const DONATION = {
  period: "one-time",
  choice: "tier-2",
  firstName: "Dana",
  lastName: "Levi",
  email: "dana@example.org",
  country: "Israel",
};

Deno.test("donation page: the honeypot is hidden from people and screen readers, and refuses robots", async (t) => {
  const app = await startTestApp();
  try {
    await t.step("the form carries it: off-screen, aria-hidden, not focusable, no autocomplete", async () => {
      const html = await (await fetch(`${app.url}/en/`)).text();
      const field = html.match(/<div class="hp-field" aria-hidden="true">([\s\S]*?)<\/div>/)?.[1];
      assert.ok(field, "the honeypot's container is aria-hidden");
      assert.match(field, /<label for="donor-website">Leave this field empty<\/label>/);
      const input = field.match(/<input[^>]*>/)?.[0] ?? "";
      assert.match(input, /name="website"/);
      assert.match(input, /tabindex="-1"/i);
      assert.match(input, /autocomplete="off"/i);
      const css = await (await fetch(`${app.url}${html.match(/href="([^"]*styles[^"]*\.css)"/)![1]}`)).text();
      assert.match(css, /\.hp-field\s*\{[^}]*position:\s*absolute[^}]*inset-inline-start:\s*-10000px/);
    });

    await t.step("filled in, the post answers the page's general error and creates nothing", async () => {
      const res = await post(app, "/en/", { ...DONATION, website: "https://spam.example" });
      assert.equal(res.status, 422);
      const html = await res.text();
      assert.match(html, /role="alert">Something went wrong\. Please try again\.</);
      assert.doesNotMatch(html, /<iframe src=/);
      assert.equal(app.logs.filter((l) => l.msg === "donor created").length, 0, "no donor was created");
      assert.equal(app.logs.filter((l) => l.msg === "payment started").length, 0);
      assert.ok(app.logs.some((l) => l.msg === "donation form refused: honeypot filled"));
    });

    await t.step("left empty, as a person leaves it, the donation goes ahead", async () => {
      const res = await post(app, "/en/", { ...DONATION, website: "" });
      assert.equal(res.status, 200);
      assert.match(await res.text(), /<iframe src="[^"]*\/sandbox\/pay\//);
      assert.equal(app.logs.filter((l) => l.msg === "donor created").length, 1);
    });
  } finally {
    await app.close();
  }
});

Deno.test("donation page: over the payment limit, no donor is created without its payment", async () => {
  const app = await startTestApp({ env: { RATE_LIMIT_PER_ADDRESS: "2", RATE_LIMIT_WINDOW_SECONDS: "600" } });
  try {
    // Through the API: one donor, two payments: this address's payment limit is reached.
    const userId = await newDonor(app);
    for (const amount of [10, 20]) {
      assert.equal((await createPayment(app, { amount, currency: "nis", userId })).status, 200);
    }
    // The form's donor would be within its limit, its payment not: the post checks both first.
    const res = await post(app, "/en/", DONATION);
    assert.equal(res.status, 429);
    await res.body?.cancel();
    assert.equal(app.logs.filter((l) => l.msg === "donor created").length, 1, "only the API's donor");
  } finally {
    await app.close();
  }
});

Deno.test("donation page: over a rate limit, the form says so in the donor's language (429, Retry-After)", async (t) => {
  const app = await startTestApp({ env: { RATE_LIMIT_PER_ADDRESS: "2", RATE_LIMIT_WINDOW_SECONDS: "600" } });
  try {
    await t.step(
      "two donations, then the third is refused in Hebrew, right to left, input kept",
      async () => {
        for (let i = 0; i < 2; i++) assert.equal((await post(app, "/he/", DONATION)).status, 200);
        const res = await post(app, "/he/", { ...DONATION, firstName: "דנה" });
        assert.equal(res.status, 429);
        const retry = Number(res.headers.get("retry-after"));
        assert.ok(Number.isInteger(retry) && retry >= 1 && retry <= 600, `Retry-After ${retry}`);
        const html = await res.text();
        assert.match(html, /<html lang="he" dir="rtl"/);
        const minutes = Math.ceil(retry / 60);
        assert.ok(
          html.includes(
            `role="alert">שגיאה: יותר מדי ניסיונות תרומה מחיבור זה. יש להמתין ${minutes} דק&#39; ולנסות שוב.<`,
          ) ||
            html.includes(
              `role="alert">שגיאה: יותר מדי ניסיונות תרומה מחיבור זה. יש להמתין ${minutes} דק' ולנסות שוב.<`,
            ),
          "the Hebrew message with the minutes to wait",
        );
        assert.match(html, /value="דנה"/, "the donor's input is kept");
        assert.doesNotMatch(html, /<iframe src=/);
        assert.equal(
          app.logs.filter((l) => l.msg === "donor created").length,
          2,
          "the refused post created nothing",
        );
      },
    );

    await t.step("in every language its own words", async () => {
      const expected: Record<string, RegExp> = {
        en: /Too many donation attempts from this connection\. Please wait \d+ min and try again\./,
        ru: /Слишком много попыток пожертвования с этого подключения/,
        pt: /Muitas tentativas de doação a partir desta conexão/,
        es: /Demasiados intentos de donación desde esta conexión/,
      };
      for (const [lang, text] of Object.entries(expected)) {
        const res = await post(app, `/${lang}/`, DONATION);
        assert.equal(res.status, 429, lang);
        assert.match(await res.text(), text, lang);
      }
    });
  } finally {
    await app.close();
  }
});
