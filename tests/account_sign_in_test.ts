/**
 * The donor portal's sign-in (issue 15, `lib/donor_portal/sign_in.ts`, `/{lang}/account*`) over real
 * HTTP, on Deno KV and PostgreSQL: the same answer for known and unknown addresses, the emailed link
 * (rendered as the outbox would send it) signing in once, expired and tampered links refused, the
 * cookie's flags, sign-out revoking the session, the rate limits, and a manage link's page and button.
 */
import assert from "node:assert/strict";
import {
  SESSION_TTL_MS,
  SIGN_IN_TTL_MS,
  SIGN_INS_PER_ADDRESS,
  signInKey,
  signInToken,
} from "@/lib/donor_portal/sign_in.ts";
import { translator } from "@/lib/core/i18n.ts";
import { createRenderer } from "@/lib/outbox/templates/mod.ts";
import { createManageToken, manageLinkKey } from "@/lib/donor_portal/manage_link.ts";
import { hashRefreshToken } from "@/lib/staff/tokens.ts";
import { startTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { backendTest } from "@/tests/helpers/stores.ts";
import { donorFixture } from "@/tests/storage/fixtures.ts";

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

const post = (app: TestApp, fields: Record<string, string>, cookie?: string): RequestInit => ({
  method: "POST",
  headers: {
    "content-type": "application/x-www-form-urlencoded",
    origin: app.url,
    ...(cookie ? { cookie } : {}),
  },
  body: new URLSearchParams(fields).toString(),
});

/** The `name=value` of a response's session cookie, or "". */
const cookieOf = (res: Response) =>
  res.headers.getSetCookie().map((c) => c.split(";")[0]).find((c) => c.startsWith("donor_session=")) ?? "";

backendTest("donor portal: sign in by email link", async (t, open) => {
  const store = await open();
  const app = await startTestApp({ store });
  // The sign-in links' emails, read back from the outbox they are written to with their link.
  const links = async () => (await store.outbox.listRecent(500)).filter((m) => m.kind === "sign-in-link");
  try {
    // Two donor records under one address (two donation forms filled in): one donor here.
    const email = `ada.${crypto.randomUUID().slice(0, 8)}@example.org`;
    const first = donorFixture({
      id: `d1_${crypto.randomUUID()}`,
      email,
      createdAt: new Date().toISOString(),
    });
    await store.donors.create(first);
    await store.donors.create(donorFixture({ id: `d2_${crypto.randomUUID()}`, email }));
    const key = await signInKey(app.config.appSecret);
    let link = "";

    await t.step("GET /en/account shows the email form, no JavaScript needed", async () => {
      const { res, page } = await send(app, "/en/account");
      assert.equal(res.status, 200);
      assert.ok(page.includes('<form method="post" action="/en/account">'));
      assert.ok(page.includes('name="email"'));
      assert.ok(page.includes('<meta name="robots" content="noindex"'));
    });

    await t.step(
      "known and unknown addresses get the same page; only the known one gets a link",
      async () => {
        const known = await send(app, "/he/account", post(app, { email: `  ${email.toUpperCase()} ` }));
        const unknown = await send(app, "/he/account", post(app, { email: "nobody.here@example.org" }));
        assert.equal(known.res.status, 200);
        assert.equal(unknown.res.status, 200);
        assert.ok(known.text.includes(he("account.sent", { email })));
        assert.equal(known.text.replace(email, "X"), unknown.text.replace("nobody.here@example.org", "X"));
        const sent = await links();
        assert.equal(sent.length, 1);
        const [message] = sent;
        assert.equal(message.kind, "sign-in-link");
        assert.equal(message.language, "he");
        assert.ok("donorId" in message.to && message.to.donorId.startsWith("d"));
        // The outbox holds the link's id only, never a usable token.
        assert.deepEqual(Object.keys(message.data), ["signInId"]);
        const stored = await store.donorSessions.getSignIn(
          await hashRefreshToken(await signInToken(key, (message.data as { signInId: string }).signInId)),
        );
        assert.equal(stored?.email, email);
        assert.equal(Date.parse(stored!.expiresAt) - Date.parse(stored!.createdAt), SIGN_IN_TTL_MS);
        // Rendered as the outbox sends it: to the address, with the link.
        const render = createRenderer({
          store,
          publicUrl: app.url,
          manageKey: await manageLinkKey(app.config.appSecret),
          signInKey: key,
          receiptAttachment: () => Promise.resolve(null),
        });
        const rendered = await render(message);
        assert.deepEqual(rendered?.to, [email]);
        const match = rendered!.text.match(/http:\/\/\S+\/he\/account\/sign-in\?t=\S+/);
        assert.ok(match, rendered!.text);
        link = new URL(match[0]).pathname + new URL(match[0]).search;
      },
    );

    await t.step("a malformed address gets a translated 400 and no link", async () => {
      const before = (await links()).length;
      const got = await send(app, "/en/account", post(app, { email: "not-an-address" }));
      assert.equal(got.res.status, 400);
      assert.ok(got.text.includes(en("account.invalidEmail")));
      assert.equal((await links()).length, before);
    });

    let cookie = "";
    await t.step(
      "the link's GET only shows a button; its POST signs in once with the right cookie",
      async () => {
        const shown = await send(app, link);
        assert.equal(shown.res.status, 200);
        assert.ok(shown.page.includes('action="/he/account/sign-in"'));
        const token = new URL(app.url + link).searchParams.get("t")!;
        const signedIn = await send(app, "/he/account/sign-in", post(app, { t: token }));
        assert.equal(signedIn.res.status, 303);
        assert.equal(signedIn.res.headers.get("location"), "/he/account");
        const setCookie = signedIn.res.headers.get("set-cookie") ?? "";
        assert.match(
          setCookie,
          /^donor_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=(\d+); HttpOnly; SameSite=Lax$/,
        );
        const maxAge = Number(setCookie.match(/Max-Age=(\d+)/)![1]);
        assert.ok(maxAge <= SESSION_TTL_MS / 1000 && maxAge > SESSION_TTL_MS / 1000 - 60, String(maxAge));
        cookie = cookieOf(signedIn.res);
        const page = await send(app, "/he/account", { headers: { cookie } });
        assert.equal(page.res.status, 200);
        assert.ok(page.text.includes(he("account.signedInAs")));
        assert.ok(page.text.includes(email));

        const again = await send(app, "/he/account/sign-in", post(app, { t: token }));
        assert.equal(again.res.status, 410, "a used link");
        assert.ok(again.text.includes(he("account.linkRefused")));
        assert.equal(again.res.headers.get("set-cookie"), null);
      },
    );

    await t.step("a tampered or expired link is refused, translated", async () => {
      const token = await signInToken(key, "AAAAAAAAAAAAAAAAAAAAAA");
      const tampered = token.slice(0, -2) + (token.endsWith("AA") ? "BB" : "AA");
      for (const [lang, tr] of [["en", en], ["he", he]] as const) {
        const shown = await send(app, `/${lang}/account/sign-in?t=${tampered}`);
        assert.equal(shown.res.status, 400);
        assert.ok(shown.text.includes(tr("account.linkRefused")), lang);
        const posted = await send(app, `/${lang}/account/sign-in`, post(app, { t: tampered }));
        assert.equal(posted.res.status, 400);
      }
      // An expired link: signed by us, stored, but past its 30 minutes.
      const expired = await signInToken(key, "BBBBBBBBBBBBBBBBBBBBBB");
      const created = new Date(Date.now() - SIGN_IN_TTL_MS - 1000);
      await store.donorSessions.createSignIn({
        hash: await hashRefreshToken(expired),
        email,
        createdAt: created.toISOString(),
        expiresAt: new Date(created.getTime() + SIGN_IN_TTL_MS).toISOString(),
        usedAt: null,
      });
      const got = await send(app, "/en/account/sign-in", post(app, { t: expired }));
      assert.equal(got.res.status, 410);
      assert.ok(got.text.includes(en("account.linkRefused")));
    });

    await t.step("sign-out revokes the session in storage: the old cookie opens nothing", async () => {
      const out = await send(app, "/he/account/sign-out", post(app, {}, cookie));
      assert.equal(out.res.status, 303);
      assert.equal(out.res.headers.get("location"), "/he/account?signedOut");
      assert.match(out.res.headers.get("set-cookie") ?? "", /^donor_session=; Path=\/; Max-Age=0; HttpOnly/);
      const page = await send(app, "/he/account", { headers: { cookie } });
      assert.ok(page.page.includes('name="email"'), "the form again");
      assert.ok(!page.text.includes(email));
      const session = await store.donorSessions.getSession(await hashRefreshToken(cookie.split("=")[1]));
      assert.ok(session?.revokedAt);
    });

    await t.step("a cross-site POST is refused (403) and sends nothing", async () => {
      const before = (await links()).length;
      const init = post(app, { email });
      (init.headers as Record<string, string>).origin = "https://evil.example";
      const got = await send(app, "/en/account", init);
      assert.equal(got.res.status, 403);
      assert.equal((await links()).length, before);
    });

    await t.step("a manage link's GET shows a button; its POST opens that donor's page", async () => {
      const token = await createManageToken(await manageLinkKey(app.config.appSecret), first.id);
      const shown = await send(app, `/en/account?token=${token}`);
      assert.equal(shown.res.status, 200);
      assert.equal(cookieOf(shown.res), "", "a GET signs nobody in");
      assert.ok(shown.page.includes('action="/en/account/link"'));
      const got = await send(app, "/en/account/link", post(app, { token }));
      assert.equal(got.res.status, 303);
      assert.equal(got.res.headers.get("location"), "/en/account");
      const page = await send(app, "/en/account", { headers: { cookie: cookieOf(got.res) } });
      assert.ok(page.text.includes(email));
      const bad = await send(app, `/en/account?token=${token.slice(0, -3)}xyz`);
      assert.equal(bad.res.status, 200);
      assert.ok(!(bad.res.headers.get("set-cookie") ?? "").includes("donor_session"));
    });

    await t.step(
      "requests are limited per email address (5 an hour) and per client (20 an hour): 429, translated",
      async () => {
        const limited = `limited.${crypto.randomUUID().slice(0, 8)}@example.org`;
        for (let i = 0; i < 5; i++) {
          assert.equal((await send(app, "/en/account", post(app, { email: limited }))).res.status, 200);
        }
        const refused = await send(app, "/en/account", post(app, { email: limited }));
        assert.equal(refused.res.status, 429);
        assert.ok(Number(refused.res.headers.get("retry-after")) > 0);
        assert.ok(refused.text.includes(en("account.rateLimited", { minutes: 60 })));
        // This client has asked 8 times so far (2 above, 6 here): 12 more addresses, then refused.
        let allowed = 0;
        for (let i = 0; i < 30; i++) {
          const got = await send(app, "/en/account", post(app, { email: `n${i}.${limited}` }));
          if (got.res.status === 429) break;
          allowed++;
        }
        assert.equal(allowed, SIGN_INS_PER_ADDRESS - 8);
      },
    );
  } finally {
    await app.close();
  }
});
