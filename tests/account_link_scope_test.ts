/**
 * What the manage link of every donor email may do (issue 23, item 3), over real HTTP on Deno KV
 * and PostgreSQL: opening it (a GET) signs nobody in, its page's button (a same-origin POST) opens
 * a session limited to that donor record's gifts, which may see, pause, skip, lower or cancel them
 * and download their receipts with the Israeli ID number masked, and nothing else: erasure, the data
 * download, a year's receipts, a card change, a raised amount and the full receipts go to a page
 * that emails a one-time sign-in link to the address on file (step-up), after which they work. A
 * cross-site page cannot sign a browser in, a session for another address is never replaced
 * without the donor choosing so, token sign-ins are rate limited, and an address keeps at most ten
 * sessions.
 */
import assert from "node:assert/strict";
import { signInKey, signInToken } from "@/lib/donor_portal/sign_in.ts";
import { hashRefreshToken } from "@/lib/staff/tokens.ts";
import { translator } from "@/lib/core/i18n.ts";
import { createManageToken, manageLinkKey } from "@/lib/donor_portal/manage_link.ts";
import { issueReceipt } from "@/lib/receipts/issue.ts";
import type { Store, Transaction } from "@/lib/storage/types.ts";
import { startTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { formPost, postManageLink, send, sessionCookieOf, signInAs } from "@/tests/helpers/donor_portal.ts";
import { pdfText } from "@/tests/helpers/pdf.ts";
import { backendTest } from "@/tests/helpers/stores.ts";
import { donorFixture, subscriptionFixture, txFixture } from "@/tests/storage/fixtures.ts";

const LEGAL = {
  RECEIPT_LEGAL_NAME: "Example Museum Association",
  RECEIPT_ADDRESS: "1 Museum Road, Jerusalem",
};
const en = translator("en");
const he = translator("he");
/** A valid Israeli ID number, as the receipts print it, and masked. */
const TAX_ID = "123456782";
const MASKED = "******782";

/** An address with two donor records (each with a receipted gift), a monthly gift on the first, and a stranger. */
async function seed(app: TestApp) {
  const store = app.store;
  const suffix = crypto.randomUUID().slice(0, 8);
  const email = `noa.${suffix}@example.org`;
  const [first, second, stranger] = [
    `la_${suffix}_aaaaaaaaaa`,
    `lb_${suffix}_aaaaaaaaaa`,
    `lx_${suffix}_aaaaaaaaaa`,
  ];
  const strangerEmail = `eve.${suffix}@example.org`;
  await store.donors.create(donorFixture({ id: first, firstName: "Noa", email, israeliId: TAX_ID }));
  await store.donors.create(donorFixture({ id: second, firstName: "Noa", email }));
  await store.donors.create(donorFixture({ id: stranger, firstName: "Eve", email: strangerEmail }));
  const user = { firstName: "Noa", lastName: "Cohen", email };
  const gifts = {
    first: txFixture({ donorId: first, user, amount: 18_000, createdAt: "2026-03-01T08:00:00.000Z" }),
    second: txFixture({ donorId: second, user, amount: 36_000, createdAt: "2026-03-02T08:00:00.000Z" }),
  };
  for (const tx of Object.values(gifts)) await store.transactions.record(tx);
  const issue = (tx: Transaction, taxId: string | null) =>
    issueReceipt(store, app.config.receipts, {
      transaction: tx,
      donorName: "Noa Cohen",
      donorTaxId: taxId,
      now: new Date(tx.createdAt),
    });
  const receipts = { first: await issue(gifts.first, TAX_ID), second: await issue(gifts.second, null) };
  const gift = await store.subscriptions.create(subscriptionFixture({
    donorId: first,
    provider: "sandbox",
    token: `tok_${suffix}_secret`,
    cardMasked: "458045******4580",
    amount: 5_000,
    currency: 1,
    nextPaymentDate: "2099-01-10T09:00:00.000Z",
  }));
  return { email, first, second, stranger, strangerEmail, receipts, gift };
}

const tokenOf = async (app: TestApp, donorId: string) =>
  await createManageToken(await manageLinkKey(app.config.appSecret), donorId);

const withCookie = (cookie: string): RequestInit => ({ headers: { cookie } });

/** Whether the cookie opens a session (the account page, not the sign-in form). */
async function signedIn(app: TestApp, cookie: string): Promise<boolean> {
  const got = await send(app, "/en/account", withCookie(cookie));
  return !got.page.includes('name="email"');
}

/** The PDF text of the receipt `number`'s link on a page. */
async function receiptOnPage(app: TestApp, page: string, number: string): Promise<string> {
  const links = [...page.matchAll(/href="([^"]*\/receipts\/download\?c=[^"]+)"[^>]*>([^<]*)</g)];
  const link = links.find((m) => m[2].includes(number));
  assert.ok(link, `no link to receipt ${number}`);
  const res = await fetch(app.url + link[1].replaceAll("&amp;", "&"));
  assert.equal(res.status, 200);
  return await pdfText(new Uint8Array(await res.arrayBuffer()));
}

/** The last sign-in link emailed to `email` (from the outbox), as the link's token. */
async function lastSignInToken(app: TestApp, store: Store, donorIds: string[]): Promise<string | null> {
  const sent = (await store.outbox.listRecent(500)).filter((m) =>
    m.kind === "sign-in-link" && "donorId" in m.to && donorIds.includes(m.to.donorId)
  );
  if (sent.length === 0) return null;
  const id = (sent[0].data as { signInId: string }).signInId;
  return await signInToken(await signInKey(app.config.appSecret), id);
}

backendTest("manage link: a limited session, step-up for the rest, no login CSRF", async (t, open) => {
  const store = await open();
  const app = await startTestApp({ store, env: LEGAL });
  try {
    const s = await seed(app);
    const token = await tokenOf(app, s.first);

    await t.step("opening the link (GET, also from another site) signs nobody in: a button", async () => {
      for (const headers of [{}, { "sec-fetch-site": "cross-site" }] as Record<string, string>[]) {
        const got = await send(app, `/en/account?token=${token}`, { headers });
        assert.equal(got.res.status, 200);
        assert.equal(sessionCookieOf(got.res), "", "no session cookie from a GET");
        assert.ok(got.page.includes('<form method="post" action="/en/account/link">'), got.text);
        assert.ok(got.page.includes(`name="token" value="${token}"`));
      }
    });

    await t.step("a cross-site POST of the link or of a sign-in link is refused: no cookie", async () => {
      const link = formPost(app, { token });
      (link.headers as Record<string, string>).origin = "https://evil.example";
      const refused = await send(app, "/en/account/link", link);
      assert.equal(refused.res.status, 403);
      assert.equal(sessionCookieOf(refused.res), "");
      const signIn = formPost(app, {
        t: await signInToken(await signInKey(app.config.appSecret), "A".repeat(22)),
      });
      (signIn.headers as Record<string, string>).origin = "https://evil.example";
      const refusedSignIn = await send(app, "/en/account/sign-in", signIn);
      assert.equal(refusedSignIn.res.status, 403);
      assert.equal(sessionCookieOf(refusedSignIn.res), "");
    });

    let manage = "";
    await t.step("the button's POST opens that donor record's page only", async () => {
      const res = await postManageLink(app, token);
      await res.body?.cancel();
      assert.equal(res.status, 303);
      assert.equal(res.headers.get("location"), "/en/account");
      manage = sessionCookieOf(res);
      assert.ok(manage);
      for (const [lang, tr] of [["en", en], ["he", he]] as const) {
        const page = await send(app, `/${lang}/account`, withCookie(manage));
        assert.equal(page.res.status, 200);
        assert.ok(page.text.includes(s.receipts.first.number), "this record's receipt");
        assert.ok(!page.text.includes(s.receipts.second.number), "not the address's other record");
        assert.ok(page.text.includes(tr("portalAccess.manageNotice")), lang);
        assert.ok(page.page.includes(`action="/${lang}/account/confirm"`), "the step-up button");
      }
    });

    await t.step("its receipts hide the Israeli ID number", async () => {
      const page = await send(app, "/en/account", withCookie(manage));
      const text = await receiptOnPage(app, page.page, s.receipts.first.number);
      assert.ok(text.includes(MASKED), text);
      assert.ok(!text.includes(TAX_ID), "the full ID number");
    });

    await t.step("it may see, pause and lower the amount", async () => {
      const lower = await send(
        app,
        `/en/account/gifts/${s.gift.id}/amount`,
        formPost(app, { amount: "other", otherAmount: "40" }, manage),
      );
      assert.equal(lower.res.status, 303);
      assert.equal(lower.res.headers.get("location"), "/en/account?done=amount");
      assert.equal((await store.subscriptions.get(s.gift.id))?.amount, 4_000);
      const pause = await send(
        app,
        `/en/account/gifts/${s.gift.id}/pause`,
        formPost(app, { months: "1" }, manage),
      );
      assert.equal(pause.res.status, 303);
      assert.equal(pause.res.headers.get("location"), "/en/account?done=pause");
    });

    await t.step(
      "it cannot erase, download the data or a year's receipts, change the card or raise the amount",
      async () => {
        const before = (await store.subscriptions.get(s.gift.id))!;
        const tries: [string, RequestInit, string][] = [
          ["/en/account/data", withCookie(manage), "data"],
          ["/en/account/erase", withCookie(manage), "erase"],
          ["/en/account/erase", formPost(app, { confirm: "erase" }, manage), "erase"],
          ["/en/account/receipts/2026", withCookie(manage), "receipts"],
          [`/en/account/card/${s.gift.id}`, formPost(app, {}, manage), "card"],
          [`/en/account/gifts/${s.gift.id}/amount`, formPost(app, { amount: "400" }, manage), "amount"],
        ];
        for (const [path, init, action] of tries) {
          const got = await send(app, path, init);
          assert.equal(got.res.status, 303, `${init.method ?? "GET"} ${path}`);
          assert.equal(got.res.headers.get("location"), `/en/account/confirm?for=${action}`, path);
          assert.ok(!got.page.includes(s.email), "nothing of the donor's data in the answer");
        }
        assert.ok((await store.donors.get(s.first))?.email, "not erased");
        const after = (await store.subscriptions.get(s.gift.id))!;
        assert.equal(after.amount, before.amount, "the amount not raised");
        assert.equal(after.token, before.token, "the card not changed");
        assert.ok(await signedIn(app, manage), "still signed in");
      },
    );

    await t.step("the step-up page: a button that emails a sign-in link to the address on file", async () => {
      for (const [lang, tr] of [["en", en], ["he", he]] as const) {
        const page = await send(app, `/${lang}/account/confirm?for=data`, withCookie(manage));
        assert.equal(page.res.status, 200);
        assert.ok(page.text.includes(tr("portalAccess.reason.data")), lang);
        assert.ok(page.page.includes(`<form method="post" action="/${lang}/account/confirm">`));
        assert.ok(!page.page.includes('name="email"'), "no address to type");
      }
      // An address the visitor sends along is ignored: the link goes to the address on file.
      const sent = await send(
        app,
        "/en/account/confirm",
        formPost(app, { for: "data", email: s.strangerEmail }, manage),
      );
      assert.equal(sent.res.status, 200);
      assert.ok(sent.text.includes(en("account.sent", { email: s.email })), sent.text);
      assert.equal(await lastSignInToken(app, store, [s.stranger]), null, "nothing to another address");
      assert.ok(await lastSignInToken(app, store, [s.first, s.second]));
    });

    let full = "";
    await t.step("following the emailed sign-in link, the donor can do all of it", async () => {
      const link = (await lastSignInToken(app, store, [s.first, s.second]))!;
      const shown = await send(app, `/en/account/sign-in?t=${link}`, withCookie(manage));
      assert.equal(shown.res.status, 200);
      assert.equal(sessionCookieOf(shown.res), "");
      const res = await fetch(`${app.url}/en/account/sign-in`, formPost(app, { t: link }, manage));
      await res.body?.cancel();
      assert.equal(res.status, 303);
      full = sessionCookieOf(res);
      assert.ok(full && full !== manage);
      assert.ok(!(await signedIn(app, manage)), "the limited session ended with the upgrade");
      const page = await send(app, "/en/account", withCookie(full));
      assert.ok(page.text.includes(s.receipts.second.number), "every record of the address");
      assert.ok((await receiptOnPage(app, page.page, s.receipts.first.number)).includes(TAX_ID));
      const data = await fetch(`${app.url}/en/account/data`, {
        headers: { cookie: full },
        redirect: "manual",
      });
      assert.equal(data.status, 200);
      assert.ok((await data.text()).includes(s.email));
      const zip = await fetch(`${app.url}/en/account/receipts/2026`, {
        headers: { cookie: full },
        redirect: "manual",
      });
      await zip.body?.cancel();
      assert.equal(zip.status, 200);
      const raise = await send(
        app,
        `/en/account/gifts/${s.gift.id}/amount`,
        formPost(app, { amount: "400" }, full),
      );
      assert.equal(raise.res.headers.get("location"), "/en/account?done=amount");
      assert.equal((await store.subscriptions.get(s.gift.id))?.amount, 40_000);
    });

    await t.step("a full sign-in older than an hour asks again", async () => {
      const cookieToken = "S".repeat(43);
      const created = Date.now() - 2 * 3_600_000;
      await store.donorSessions.createSession(
        {
          hash: await hashRefreshToken(cookieToken),
          email: s.email,
          createdAt: new Date(created).toISOString(),
          expiresAt: new Date(created + 86_400_000).toISOString(),
          revokedAt: null,
          scope: "full",
          donorId: null,
        } as Parameters<Store["donorSessions"]["createSession"]>[0],
      );
      const got = await send(app, "/en/account/data", withCookie(`donor_session=${cookieToken}`));
      assert.equal(got.res.status, 303);
      assert.equal(got.res.headers.get("location"), "/en/account/confirm?for=data");
    });

    await t.step("a link the session already covers opens the page without a new session", async () => {
      const got = await send(app, `/en/account?token=${await tokenOf(app, s.second)}`, withCookie(full));
      assert.equal(got.res.status, 303);
      assert.equal(got.res.headers.get("location"), "/en/account");
      assert.equal(sessionCookieOf(got.res), "");
    });

    await t.step("the cancel page's receipts hide the ID number too (userId and token)", async () => {
      for (const query of [`userId=${s.first}`, `token=${token}`]) {
        const page = await send(app, `/en/cancel-subscription?${query}`);
        assert.equal(page.res.status, 200);
        const text = await receiptOnPage(app, page.page, s.receipts.first.number);
        assert.ok(text.includes(MASKED) && !text.includes(TAX_ID), query);
      }
    });
  } finally {
    await app.close();
  }
});

backendTest("manage link: a session for another address is never replaced silently", async (t, open) => {
  const store = await open();
  const app = await startTestApp({ store, env: LEGAL });
  try {
    const s = await seed(app);

    await t.step("a manage link: the donor chooses; keeping changes nothing", async () => {
      const mine = await signInAs(app, s.stranger);
      const token = await tokenOf(app, s.first);
      for (const [lang, tr] of [["en", en], ["he", he]] as const) {
        const shown = await send(app, `/${lang}/account?token=${token}`, withCookie(mine));
        assert.equal(shown.res.status, 200);
        assert.ok(shown.text.includes(tr("portalAccess.switch.intro", { current: s.strangerEmail })), lang);
        assert.ok(shown.page.includes('name="switch" value="1"'));
      }
      const plain = await postManageLink(app, token, "en", mine);
      const page = await plain.text();
      assert.equal(plain.status, 409);
      assert.equal(sessionCookieOf(plain), "");
      assert.ok(page.includes('name="switch" value="1"'));
      assert.ok(await signedIn(app, mine), "the current session is kept");
      const switched = await postManageLink(app, token, "en", mine, { switch: "1" });
      await switched.body?.cancel();
      assert.equal(switched.status, 303);
      assert.ok(sessionCookieOf(switched));
      assert.ok(!(await signedIn(app, mine)), "the old session ended");
    });

    await t.step("a one-time sign-in link: the same choice, and the link is not used up", async () => {
      const mine = await signInAs(app, s.stranger);
      await send(
        app,
        "/en/account/confirm",
        formPost(
          app,
          {},
          await (async () => {
            const res = await postManageLink(app, await tokenOf(app, s.first));
            await res.body?.cancel();
            return sessionCookieOf(res);
          })(),
        ),
      );
      const link = (await lastSignInToken(app, store, [s.first, s.second]))!;
      const shown = await send(app, `/he/account/sign-in?t=${link}`, withCookie(mine));
      assert.equal(shown.res.status, 200);
      assert.ok(shown.text.includes(he("portalAccess.switch.intro", { current: s.strangerEmail })));
      const plain = await fetch(`${app.url}/en/account/sign-in`, formPost(app, { t: link }, mine));
      await plain.body?.cancel();
      assert.equal(plain.status, 409);
      assert.equal(sessionCookieOf(plain), "");
      assert.equal((await store.donorSessions.getSignIn(await hashRefreshToken(link)))?.usedAt, null);
      assert.ok(await signedIn(app, mine));
      const switched = await fetch(
        `${app.url}/en/account/sign-in`,
        formPost(app, { t: link, switch: "1" }, mine),
      );
      await switched.body?.cancel();
      assert.equal(switched.status, 303);
      assert.ok(sessionCookieOf(switched));
      assert.ok(!(await signedIn(app, mine)));
    });
  } finally {
    await app.close();
  }
});

backendTest("manage link: token sign-ins are limited; an address keeps ten sessions", async (t, open) => {
  const store = await open();
  const app = await startTestApp({ store, env: LEGAL });
  try {
    const s = await seed(app);

    await t.step("at most 10 live sessions per address: the oldest ends", async () => {
      const cookies: string[] = [];
      for (let i = 0; i < 12; i++) {
        const res = await postManageLink(app, await tokenOf(app, i % 2 ? s.first : s.second));
        await res.body?.cancel();
        assert.equal(res.status, 303);
        cookies.push(sessionCookieOf(res));
      }
      const live = [];
      for (const cookie of cookies) live.push(await signedIn(app, cookie));
      assert.deepEqual(live, [false, false, ...Array(10).fill(true)]);
    });

    await t.step("one link signs in at most 10 times an hour: 429, translated", async () => {
      const token = await tokenOf(app, s.stranger);
      for (let i = 0; i < 10; i++) {
        const res = await postManageLink(app, token);
        await res.body?.cancel();
        assert.equal(res.status, 303, `sign-in ${i + 1}`);
      }
      const refused = await postManageLink(app, token, "he");
      const page = await refused.text();
      assert.equal(refused.status, 429);
      assert.ok(Number(refused.headers.get("retry-after")) > 0);
      assert.equal(sessionCookieOf(refused), "");
      assert.ok(page.includes(he("portalAccess.rateLimited", { minutes: 60 })));
    });

    await t.step("one client signs in by links at most 30 times an hour", async () => {
      // 12 + 11 so far from this address.
      let allowed = 0;
      for (let i = 0; i < 10; i++) {
        const res = await postManageLink(app, await tokenOf(app, s.stranger));
        await res.body?.cancel();
        if (res.status === 429) break;
        allowed++;
      }
      assert.equal(allowed, 30 - 23);
    });
  } finally {
    await app.close();
  }
});
