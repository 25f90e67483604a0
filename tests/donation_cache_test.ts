/**
 * The donation page's HTML cache (`ctx.renderCached`, `routes/[lang]/_donation_page.ts`): every
 * response gets its own CSP nonce and browser signing key, a flag flip shows within the flags'
 * interval, languages, kiosks and query strings never share a page, a browser that is not the
 * shop's paired kiosk never gets the kiosk's cached form, and a no-JavaScript post (the donor's
 * input, errors, the payment frame) is never cached.
 */
import assert from "node:assert/strict";
import { PAGE_FLAGS_MAX_AGE_MS } from "@/lib/settings/flags.ts";
import { bytesToHex } from "@/lib/shared/signing.ts";
import { startTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { pairTestKiosk } from "@/tests/helpers/kiosk.ts";

const DONOR = { firstName: "Dana", lastName: "Levi", email: "dana@example.org", country: "Israel" };

/** The props of the payment island, parsed. */
function paymentProps(html: string) {
  const m = html.match(/data-island="DonorPayment" data-props="([^"]*)"/);
  assert.ok(m, "the payment island is rendered");
  return JSON.parse(m[1].replaceAll("&quot;", '"').replaceAll("&amp;", "&").replaceAll("&#39;", "'"));
}

interface Page {
  res: Response;
  html: string;
  nonce: string;
  key: { keyId: string; key: string; expiresAt: number };
}

async function page(app: TestApp, path: string, headers: Record<string, string> = {}): Promise<Page> {
  const res = await fetch(app.url + path, { headers });
  assert.equal(res.status, 200, path);
  const html = await res.text();
  const nonce = res.headers.get("content-security-policy")?.match(/'nonce-([^']+)'/)?.[1];
  assert.ok(nonce, "the CSP carries a nonce");
  return { res, html, nonce, key: paymentProps(html).signingKey };
}

function post(app: TestApp, path: string, fields: Record<string, string>) {
  return fetch(app.url + path, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: app.url },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
}

/** HMAC-SHA256(APP_SECRET, keyId) by WebCrypto: what a browser key must be. */
async function expectedKey(appSecret: string, keyId: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(appSecret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return bytesToHex(new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(keyId))));
}

Deno.test("cached donation page: each response has its own nonce and signing key, and nothing else differs", async () => {
  const app = await startTestApp();
  try {
    const pages: Page[] = [];
    for (let i = 0; i < 3; i++) pages.push(await page(app, "/en/"));
    assert.equal(new Set(pages.map((p) => p.nonce)).size, 3, "three nonces");
    assert.equal(new Set(pages.map((p) => p.key.keyId)).size, 3, "three key ids");
    assert.equal(new Set(pages.map((p) => p.key.key)).size, 3, "three keys");
    for (const p of pages) {
      // The key is the one the server derives for its id, and expires when its id says.
      assert.match(p.key.keyId, /^v1\.\d{13}\.[0-9a-f]{32}$/);
      assert.equal(p.key.key, await expectedKey(app.config.appSecret, p.key.keyId));
      assert.equal(String(p.key.expiresAt), p.key.keyId.split(".")[1]);
      assert.ok(p.key.expiresAt > Date.now());
      // Every script tag carries this response's nonce, and the page holds no other nonce.
      const scripts = [...p.html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
      assert.ok(scripts.length > 0, "the page has its island script");
      for (const tag of scripts) assert.ok(tag.includes(` nonce="${p.nonce}"`), tag);
      assert.equal([...p.html.matchAll(/nonce="/g)].length, scripts.length);
      for (const other of pages) {
        if (other !== p) {
          assert.ok(!p.html.includes(other.nonce), "no other response's nonce");
          assert.ok(!p.html.includes(other.key.keyId) && !p.html.includes(other.key.key), "no other key");
        }
      }
    }
    const normal = (p: Page) =>
      p.html.replaceAll(p.nonce, "NONCE").replaceAll(p.key.keyId, "KEYID").replaceAll(p.key.key, "KEY")
        .replaceAll(String(p.key.expiresAt), "EXP");
    assert.equal(normal(pages[0]), normal(pages[1]));
    assert.equal(normal(pages[1]), normal(pages[2]));
    assert.ok(!pages[0].html.includes("slot_"), "no slot marker left");
  } finally {
    await app.close();
  }
});

Deno.test("cached donation page: a flag flip shows within the flags' interval, both ways", async () => {
  const app = await startTestApp({
    env: { FEATURE_MONTHLY_PAYMENT: "1", FEATURE_TEST_TERMINAL_PAYMENT: "0" },
  });
  const settle = () => new Promise((r) => setTimeout(r, PAGE_FLAGS_MAX_AGE_MS + 100));
  const monthly = /name="period" value="monthly"/;
  const testTerminal = 'name="testTerminal"';
  try {
    const kiosk = await pairTestKiosk(app, "7");
    assert.match((await page(app, "/en/")).html, monthly);
    assert.ok(!(await page(app, "/en/terminal-payment/7", kiosk.headers)).html.includes(testTerminal));

    await app.store.flags.set("MONTHLY_PAYMENT", false);
    await app.store.flags.set("TEST_TERMINAL_PAYMENT", true);
    await settle();
    const off = await page(app, "/en/");
    assert.doesNotMatch(off.html, monthly);
    assert.match(off.html, /<input type="hidden" name="period" value="one-time"/);
    assert.ok((await page(app, "/en/terminal-payment/7", kiosk.headers)).html.includes(testTerminal));

    await app.store.flags.set("MONTHLY_PAYMENT", true);
    await settle();
    assert.match((await page(app, "/en/")).html, monthly);
  } finally {
    await app.close();
  }
});

Deno.test("cached donation page: languages, kiosks and query strings each get their own page", async () => {
  const app = await startTestApp();
  try {
    // Interleaved, so that a shared entry would show.
    for (let i = 0; i < 2; i++) {
      const en = await page(app, "/en/");
      const he = await page(app, "/he/");
      assert.match(en.html, /<html lang="en" dir="ltr">/);
      assert.match(he.html, /<html lang="he" dir="rtl">/);
      assert.equal(en.res.headers.get("content-language"), "en");
      assert.equal(he.res.headers.get("content-language"), "he");
      assert.equal(paymentProps(en.html).lang, "en");
      assert.equal(paymentProps(he.html).lang, "he");
      assert.notEqual(en.html.length, he.html.length);
    }
    const [kiosk7, kiosk12] = [await pairTestKiosk(app, "7"), await pairTestKiosk(app, "12")];
    const k7 = await page(app, "/en/terminal-payment/7", kiosk7.headers);
    const k12 = await page(app, "/en/terminal-payment/12", kiosk12.headers);
    assert.equal(paymentProps(k7.html).shopNumber, "7");
    assert.equal(paymentProps(k12.html).shopNumber, "12");
    assert.equal(
      paymentProps((await page(app, "/en/terminal-payment/7", kiosk7.headers)).html).shopNumber,
      "7",
    );
    // Once the shop's form is cached, a browser that is not its kiosk still gets the notice.
    for (const headers of [{}, kiosk12.headers]) {
      const other = await (await fetch(`${app.url}/en/terminal-payment/7`, { headers })).text();
      assert.ok(other.includes('class="kiosk-refusal"') && !other.includes('data-island="DonorPayment"'));
    }

    const campaign = await page(app, "/en/?utm_source=newsletter");
    assert.ok(campaign.html.includes("utm_source=newsletter"), "the language links keep the query");
    assert.ok(!(await page(app, "/en/")).html.includes("utm_source"), "the plain page does not get it");
  } finally {
    await app.close();
  }
});

Deno.test("cached donation page: no-JavaScript post results are never cached nor leak into the page", async () => {
  const app = await startTestApp();
  try {
    const before = await page(app, "/en/");
    const invalid = await post(app, "/en/", { choice: "tier-1", ...DONOR, email: "dana@" });
    assert.equal(invalid.status, 422);
    const invalidHtml = await invalid.text();
    assert.match(invalidHtml, /value="dana@"/);
    assert.match(invalidHtml, /Invalid email address/);

    const valid = await post(app, "/en/", { choice: "tier-2", ...DONOR });
    assert.equal(valid.status, 200);
    const validHtml = await valid.text();
    assert.match(validHtml, /<iframe src="[^"]*\/sandbox\/pay\//);
    assert.match(validHtml, /value="dana@example.org"/);
    const posted = paymentProps(validHtml).signingKey;
    assert.notEqual(posted.keyId, before.key.keyId);

    // A second post renders its own input, not the first one's.
    const other = await post(app, "/en/", { choice: "tier-1", ...DONOR, firstName: "Noa", email: "noa@" });
    const otherHtml = await other.text();
    assert.match(otherHtml, /value="Noa"/);
    assert.ok(!otherHtml.includes("Dana"), "the earlier donor's name is not in another response");

    for (const after of [await page(app, "/en/"), await page(app, "/en/")]) {
      for (const leaked of ["Dana", "Levi", "dana@", "Noa", "<iframe", 'aria-invalid="true"', posted.keyId]) {
        assert.ok(!after.html.includes(leaked), `the page after the posts holds ${leaked}`);
      }
      const normal = (p: Page) =>
        p.html.replaceAll(p.nonce, "N").replaceAll(p.key.keyId, "I").replaceAll(p.key.key, "K")
          .replaceAll(String(p.key.expiresAt), "E");
      assert.equal(normal(after), normal(before), "the page is the one before the posts");
    }
  } finally {
    await app.close();
  }
});

Deno.test("cached donation page: HEAD answers 200 without a body", async () => {
  const app = await startTestApp();
  try {
    const res = await fetch(`${app.url}/en/`, { method: "HEAD" });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "text/html; charset=utf-8");
    assert.equal(await res.text(), "");
  } finally {
    await app.close();
  }
});
