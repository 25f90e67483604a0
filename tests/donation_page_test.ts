/**
 * The donation page over HTTP: the form without JavaScript (problems shown in place with the
 * input kept, a valid post rendering the payment frame), the cross-site guard, the gated parts
 * and the terminal page without a shop number.
 */
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { pairTestKiosk } from "@/tests/helpers/kiosk.ts";

function post(
  app: TestApp,
  path: string,
  fields: Record<string, string>,
  origin: string | null = app.url,
  extra: Record<string, string> = {},
) {
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", ...extra };
  if (origin) headers.origin = origin;
  return fetch(`${app.url}${path}`, {
    method: "POST",
    headers,
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
}

const DONOR = { firstName: "Dana", lastName: "Levi", email: "dana@example.org", country: "Israel" };

/** The island props of the payment island, parsed. */
function paymentProps(html: string) {
  const m = html.match(/data-island="DonorPayment" data-props="([^"]*)"/);
  assert.ok(m, "the payment island is rendered");
  return JSON.parse(m[1].replaceAll("&quot;", '"').replaceAll("&amp;", "&").replaceAll("&#39;", "'"));
}

Deno.test("donation page: the no-JavaScript post shows problems in place and keeps the input", async () => {
  const app = await startTestApp();
  try {
    const res = await post(app, "/en/", {
      period: "one-time",
      choice: "other",
      otherAmount: "0.5",
      otherCurrency: "nis",
      firstName: "Dana",
      lastName: "",
      email: "dana@",
      country: "Israel",
    });
    assert.equal(res.status, 422);
    const html = await res.text();
    assert.match(html, /Please enter your last name/);
    assert.match(html, /Invalid email address/);
    assert.match(html, /role="alert">Error: Incorrect amount</);
    assert.match(html, /aria-invalid="true"[^>]*aria-describedby="donor-lastName-error"/);
    assert.match(html, /value="Dana"/);
    assert.match(html, /value="dana@"/);
    assert.match(html, /name="otherAmount"[^>]*value="0.5"/);
    assert.match(html, /value="nis" checked/);

    const none = await post(app, "/en/", { period: "one-time", ...DONOR });
    assert.equal(none.status, 422);
    assert.match(await none.text(), /role="alert">Please select a membership or other amount</);

    const he = await post(app, "/he/", { choice: "tier-1", ...DONOR, firstName: "" });
    assert.equal(he.status, 422);
    assert.match(await he.text(), /נא להזין שם פרטי/);
  } finally {
    await app.close();
  }
});

Deno.test("donation page: a valid post renders the sandbox frame and records a pending payment", async () => {
  const app = await startTestApp();
  try {
    const res = await post(app, "/en/", { period: "one-time", choice: "tier-2", ...DONOR });
    assert.equal(res.status, 200);
    const html = await res.text();
    const src = html.match(/<iframe src="([^"]+)"/)?.[1];
    assert.ok(src, "the payment frame is shown");
    assert.match(src, /\/sandbox\/pay\//);
    assert.match(html, /title="Secure card payment"/);
    assert.match(html, /height="500" width="100%"/);
    assert.equal(paymentProps(html).paymentUrl, src.replaceAll("&amp;", "&"));
    const pending = app.logs.find((l) => l.msg === "payment started");
    assert.ok(pending, "a payment was started");
    const payment = await app.store.payments.get(String(pending.paymentId));
    assert.equal(payment?.status, "pending");
    assert.equal(payment?.amount, 10000);
    assert.equal(payment?.currency, 1);
    assert.equal(payment?.isMonthly, false);

    const other = await post(app, "/en/", {
      period: "monthly",
      choice: "other",
      otherAmount: "12.5",
      ...DONOR,
    });
    assert.equal(other.status, 200);
    const started = app.logs.filter((l) => l.msg === "payment started").at(-1)!;
    const second = await app.store.payments.get(String(started.paymentId));
    assert.equal(second?.amount, 1250);
    assert.equal(second?.currency, 2, "the other amount is in dollars by default");
    assert.equal(second?.isMonthly, true, "monthly is on in the test defaults");
  } finally {
    await app.close();
  }
});

Deno.test("donation page: a cross-site or origin-less post is refused", async () => {
  const app = await startTestApp();
  try {
    const fields = { choice: "tier-1", ...DONOR };
    const evil = await post(app, "/en/", fields, "https://evil.example");
    assert.equal(evil.status, 403);
    await evil.body?.cancel();
    const none = await post(app, "/en/", fields, null);
    assert.equal(none.status, 403);
    await none.body?.cancel();
    const kiosk = await pairTestKiosk(app, "7");
    const terminal = await post(app, "/en/terminal-payment/7", fields, "https://evil.example", kiosk.headers);
    assert.equal(terminal.status, 403);
    await terminal.body?.cancel();
    assert.ok(!app.logs.some((l) => l.msg === "donor created"), "nothing was created");
  } finally {
    await app.close();
  }
});

Deno.test("no-JavaScript forms: one same-origin rule for every form post under /{lang}/", async (t) => {
  // Accepted posts are left incomplete (or name no donor), so passing the rule shows as the form's own
  // answer (422, 404) without starting a payment; a refusal is 403.
  const app = await startTestApp({ env: { PUBLIC_URL: "https://donate.museum.example" } });
  const forms = [
    { name: "donation", path: "/en/", accepted: 422 },
    { name: "kiosk", path: "/en/terminal-payment/7", accepted: 422 },
    { name: "cancel", path: "/en/cancel-subscription?userId=UnknownDonorIdUnknown123", accepted: 404 },
  ];
  // The kiosk's form starts a sale only from a paired kiosk: this one is, so the rule shows alone.
  const kiosk = await pairTestKiosk(app, "7");
  const send = async (path: string, headers: Record<string, string>) => {
    const res = await fetch(`${app.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...kiosk.headers, ...headers },
      body: new URLSearchParams({ choice: "tier-1", firstName: "Dana" }),
      redirect: "manual",
    });
    return { status: res.status, body: await res.text() };
  };
  try {
    for (const form of forms) {
      await t.step(`${form.name}: a post from another site is refused`, async () => {
        for (
          const headers of [
            { origin: "https://evil.example" },
            { origin: "https://evil.example", "sec-fetch-site": "same-origin" },
            { "sec-fetch-site": "cross-site" },
          ] as Record<string, string>[]
        ) {
          assert.equal((await send(form.path, headers)).status, 403, JSON.stringify(headers));
        }
      });
      await t.step(`${form.name}: no Origin but Sec-Fetch-Site: same-origin is accepted`, async () => {
        assert.equal((await send(form.path, { "sec-fetch-site": "same-origin" })).status, form.accepted);
      });
      await t.step(`${form.name}: neither Origin nor Sec-Fetch-Site is refused`, async () => {
        assert.equal((await send(form.path, {})).status, 403);
      });
      await t.step(`${form.name}: our own origin and the public one are accepted`, async () => {
        assert.equal((await send(form.path, { origin: app.url })).status, form.accepted);
        assert.equal(
          (await send(form.path, { origin: "https://donate.museum.example" })).status,
          form.accepted,
        );
      });
    }
    await t.step(
      "each form keeps its refusal: the cancel page's own message, a plain 403 elsewhere",
      async () => {
        const cancel = await send(forms[2].path, { origin: "https://evil.example" });
        assert.match(cancel.body, /This request could not be verified, so nothing was changed/);
        assert.equal((await send("/en/", {})).body, "Forbidden: cross-site form post");
        // Any other page too: the rule is the folder's, not each form's.
        assert.equal((await send("/en/success", { origin: "https://evil.example" })).status, 403);
      },
    );
    assert.ok(!app.logs.some((l) => l.msg === "donor created"), "nothing was created");
    assert.ok(app.logs.some((l) => l.msg === "cross-site form post refused" && l.path === "/en/"));
  } finally {
    await app.close();
  }
});

Deno.test("donation page: the monthly tab only with MONTHLY_PAYMENT", async () => {
  for (const [flag, shown] of [["1", true], ["0", false]] as const) {
    const app = await startTestApp({ env: { FEATURE_MONTHLY_PAYMENT: flag } });
    try {
      const html = await (await fetch(`${app.url}/en/`)).text();
      assert.equal(/name="period" value="monthly"/.test(html), shown, `flag ${flag}`);
      if (!shown) {
        // A monthly post while the flag is off is taken as one-time.
        const res = await post(app, "/en/", { period: "monthly", choice: "tier-1", ...DONOR });
        assert.equal(res.status, 200);
        await res.body?.cancel();
        const started = app.logs.find((l) => l.msg === "payment started")!;
        assert.equal((await app.store.payments.get(String(started.paymentId)))?.isMonthly, false);
      }
    } finally {
      await app.close();
    }
  }
});

Deno.test("terminal page: test-terminal buttons only with TEST_TERMINAL_PAYMENT; no monthly tab", async () => {
  for (const [flag, shown] of [["1", true], ["0", false]] as const) {
    const app = await startTestApp({ env: { FEATURE_TEST_TERMINAL_PAYMENT: flag } });
    try {
      const { headers } = await pairTestKiosk(app, "7");
      const html = await (await fetch(`${app.url}/en/terminal-payment/7`, { headers })).text();
      for (const n of app.config.payments.testTerminals) {
        assert.equal(html.includes(`name="testTerminal" value="${n}"`), shown, `flag ${flag}, terminal ${n}`);
      }
      assert.ok(!/name="period" value="monthly"/.test(html), "terminals take one-time gifts");
      assert.match(html, /Donate at the terminal/);
      assert.match(paymentProps(html).texts["terminal.deadline"], /within 1 minute,/);
      const online = await (await fetch(`${app.url}/en/`)).text();
      assert.ok(!online.includes('name="testTerminal"'), "never on the online page");
    } finally {
      await app.close();
    }
  }
});

Deno.test("terminal page: without a shop number it asks for one instead of the contribution section", async () => {
  const app = await startTestApp();
  try {
    for (const [lang, title] of [["en", "The terminal number is missing"], ["he", "חסר מספר מסוף"]]) {
      const res = await fetch(`${app.url}/${lang}/terminal-payment`);
      assert.equal(res.status, 200);
      const html = await res.text();
      assert.ok(html.includes(title), lang);
      assert.ok(html.includes(`/${lang}/terminal-payment/12`), "the subtitle shows an example address");
      assert.ok(!html.includes('name="choice"'), "no contribution section");
      assert.ok(!html.includes("DonorPayment"), "no payment island");
    }
  } finally {
    await app.close();
  }
});

Deno.test("terminal page: the no-JavaScript post runs the sale and redirects to the result page", async () => {
  const app = await startTestApp({ env: { SANDBOX_TERMINAL_AUTO: "approve" } });
  try {
    const kiosk = await pairTestKiosk(app, "7");
    const res = await post(
      app,
      "/en/terminal-payment/7",
      { choice: "tier-1", ...DONOR },
      app.url,
      kiosk.headers,
    );
    assert.equal(res.status, 303);
    assert.match(res.headers.get("location")!, /^\/en\/terminal-success\/7\?SandboxTransactionId=.+/);
    await res.body?.cancel();
    const test = await post(
      app,
      "/en/terminal-payment/7",
      {
        testTerminal: app.config.payments.testTerminals[0],
      },
      app.url,
      kiosk.headers,
    );
    assert.equal(test.status, 303);
    assert.match(test.headers.get("location")!, /\/sandbox\/pay\//);
    await test.body?.cancel();
  } finally {
    await app.close();
  }
});

Deno.test("kiosk page: the form is marked for kiosk ergonomics, the online page is not", async () => {
  const app = await startTestApp();
  try {
    const { headers } = await pairTestKiosk(app, "7");
    const kiosk = await (await fetch(`${app.url}/en/terminal-payment/7`, { headers })).text();
    const online = await (await fetch(`${app.url}/en/`)).text();
    assert.match(kiosk, /<form[^>]*class="donation-form kiosk"/);
    assert.match(online, /<form[^>]*class="donation-form"/);
    assert.doesNotMatch(online, /donation-form kiosk/);
  } finally {
    await app.close();
  }
});
