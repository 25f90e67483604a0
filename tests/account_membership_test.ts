/**
 * The donor portal's membership page (issue 27, items 4 and 7), on both backends: the account page
 * links to it; a manage link's session sees the level, the state, the valid-until date, the number,
 * a card per cardholder (the PDF's QR token verifies with the public key served at
 * `/.well-known/member-card-key.json`; the PNG is a PNG) and "renew now"; naming cardholders needs a
 * fresh full sign-in (a manage link's session is sent to the step-up page, nothing stored); signed
 * in, the names are stored and each gets a card; a name no card may carry is refused (400, nothing
 * stored); a holder beyond the names is 404; signed out, the sign-in form.
 */
import assert from "node:assert/strict";
import { verifyMemberCardToken } from "@/lib/memberships/mod.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { formPost, openManageLink, send, signInAs } from "@/tests/helpers/donor_portal.ts";
import { backendTest } from "@/tests/helpers/stores.ts";
import { memberFixture } from "@/tests/helpers/membership_world.ts";
import { pdfText } from "@/tests/helpers/pdf.ts";
import { scanPdfQr } from "@/tests/helpers/qr.ts";

backendTest("donor portal: the membership page, its cards and the cardholders", async (t, open) => {
  const store = await open();
  const app = await startTestApp({ store });
  try {
    const { donor, membership } = await memberFixture(store, 3);

    await t.step("signed out: the sign-in form; the account page links to the membership", async () => {
      const { res } = await send(app, "/en/account/membership");
      assert.equal(res.status, 303);
      assert.equal(res.headers.get("location"), "/en/account");
      const cookie = await openManageLink(app, donor.id);
      const { page } = await send(app, "/en/account", { headers: { cookie } });
      assert.match(page, /href="\/en\/account\/membership"/);
    });

    await t.step("a manage link's session sees the membership and downloads its card", async () => {
      const cookie = await openManageLink(app, donor.id);
      const { res, text, page } = await send(app, "/en/account/membership", { headers: { cookie } });
      assert.equal(res.status, 200);
      for (const shown of ["Family", "Active", membership.number, "Card of Dana Levi", "Renew now"]) {
        assert.ok(text.includes(shown), `the page shows ${shown}`);
      }
      assert.match(page, /href="\/en\/\?level=3"/);
      assert.match(page, /href="\/en\/account\/membership\/card\.pdf\?holder=1"/);
      // No form for a manage link: the step-up button instead.
      assert.doesNotMatch(page, /name="holder1"/);
      assert.match(page, /name="for" value="cardholders"/);

      const pdf = await fetch(`${app.url}/en/account/membership/card.pdf?holder=1`, { headers: { cookie } });
      assert.equal(pdf.status, 200);
      assert.equal(pdf.headers.get("content-type"), "application/pdf");
      assert.match(pdf.headers.get("cache-control") ?? "", /no-store/);
      const bytes = new Uint8Array(await pdf.arrayBuffer());
      assert.ok((await pdfText(bytes)).includes(membership.number));
      const key = await fetch(`${app.url}/.well-known/member-card-key.json`);
      assert.match(key.headers.get("cache-control") ?? "", /public/);
      const jwk = await key.json();
      assert.equal(jwk.d, undefined, "no private part served");
      const card = await verifyMemberCardToken(await scanPdfQr(bytes), jwk);
      assert.deepEqual([card.number, card.levelId, card.holder, card.name], [
        membership.number,
        3,
        0,
        "Dana Levi",
      ]);

      const png = await fetch(`${app.url}/en/account/membership/card.png?holder=1`, { headers: { cookie } });
      assert.equal(png.headers.get("content-type"), "image/png");
      assert.deepEqual([...new Uint8Array(await png.arrayBuffer()).slice(1, 4)], [0x50, 0x4e, 0x47]);
      const beyond = await fetch(`${app.url}/en/account/membership/card.pdf?holder=2`, {
        headers: { cookie },
      });
      await beyond.body?.cancel();
      assert.equal(beyond.status, 404);
    });

    await t.step(
      "naming cardholders: a manage link is sent to the step-up page, nothing stored",
      async () => {
        const cookie = await openManageLink(app, donor.id);
        const { res } = await send(
          app,
          "/en/account/membership",
          formPost(app, { holder1: "Dana Levi", holder2: "Avi Levi" }, cookie),
        );
        assert.equal(res.status, 303);
        assert.equal(res.headers.get("location"), "/en/account/confirm?for=cardholders");
        assert.deepEqual((await store.memberships.get(donor.email))!.cardholders, []);
      },
    );

    await t.step("signed in: the names are stored and each gets a card; a bad name refused", async () => {
      const cookie = await signInAs(app, donor.id);
      const bad = await send(
        app,
        "/en/account/membership",
        formPost(app, { holder1: "x".repeat(101) }, cookie),
      );
      assert.equal(bad.res.status, 400);
      assert.ok(bad.text.includes("at most 100 letters"));
      const { res } = await send(
        app,
        "/en/account/membership",
        formPost(
          app,
          { holder1: "Dana Levi", holder2: "", holder3: "Avi Levi", holder5: "Not covered" },
          cookie,
        ),
      );
      assert.equal(res.status, 303);
      assert.equal(res.headers.get("location"), "/en/account/membership?saved=1");
      assert.deepEqual((await store.memberships.get(donor.email))!.cardholders, ["Dana Levi", "Avi Levi"]);
      const { text } = await send(app, "/he/account/membership?saved=1", { headers: { cookie } });
      assert.ok(text.includes("השמות נשמרו"));
      assert.ok(text.includes("הכרטיס של Avi Levi"));
      const second = await fetch(`${app.url}/he/account/membership/card.pdf?holder=2`, {
        headers: { cookie },
      });
      const card = await verifyMemberCardToken(
        await scanPdfQr(new Uint8Array(await second.arrayBuffer())),
        await (await fetch(`${app.url}/.well-known/member-card-key.json`)).json(),
      );
      assert.deepEqual([card.holder, card.name], [1, "Avi Levi"]);
    });
  } finally {
    await app.close();
  }
});
