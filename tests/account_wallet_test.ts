/**
 * The member card's Apple Wallet pass in the donor portal (issue 27, item 3), on both backends:
 * without the museum's pass certificates nothing about the wallet shows and the pass's address is
 * 404; with them, the membership page links a pass per cardholder (in the page's language), and the
 * address answers the session's own membership's pass (`application/vnd.apple.pkpass`, kept by no
 * cache), signed; another donor's session gets only its own, a donor without a membership and a
 * cardholder beyond the names 404, signed out the sign-in form.
 */
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { openManageLink, send, signInAs } from "@/tests/helpers/donor_portal.ts";
import { memberFixture } from "@/tests/helpers/membership_world.ts";
import { backendTest } from "@/tests/helpers/stores.ts";
import {
  assertManifest,
  assertPassSignature,
  makePassCertificates,
  openPass,
} from "@/tests/helpers/wallet.ts";
import { newId } from "@/lib/core/ids.ts";

const certs = makePassCertificates();
const PASS = "/account/membership/wallet.pkpass";

async function get(app: TestApp, path: string, cookie?: string) {
  const res = await fetch(`${app.url}${path}`, { redirect: "manual", headers: cookie ? { cookie } : {} });
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

backendTest(
  "donor portal: the Apple Wallet pass, only when configured, only the session's own",
  async (t, open) => {
    const store = await open();
    const { donor, membership } = await memberFixture(store, 3);
    const other = await memberFixture(store, 1, {
      firstName: "Noa",
      lastName: "Cohen",
      email: "noa@example.org",
    });
    const plain = await startTestApp({ store });
    const wallet = await startTestApp({ store, env: certs.env });
    try {
      await t.step("not configured: no link, no word of the wallet, and the pass is 404", async () => {
        const cookie = await signInAs(plain, donor.id);
        const { page } = await send(plain, "/en/account/membership", { headers: { cookie } });
        assert.match(page, /card\.pdf\?holder=1/);
        assert.doesNotMatch(page, /wallet|pkpass/i);
        const { res } = await get(plain, `/en${PASS}?holder=1`, cookie);
        assert.equal(res.status, 404);
      });

      await t.step("configured: a link per cardholder; the session's own pass, signed", async () => {
        const cookie = await openManageLink(wallet, donor.id);
        const { page, text } = await send(wallet, "/en/account/membership", { headers: { cookie } });
        assert.match(page, /href="\/en\/account\/membership\/wallet\.pkpass\?holder=1"/);
        assert.ok(text.includes("Add to Apple Wallet"));
        const he = await send(wallet, "/he/account/membership", { headers: { cookie } });
        assert.match(he.page, /href="\/he\/account\/membership\/wallet\.pkpass\?holder=1"/);
        assert.ok(he.text.includes("הוספה ל-Apple Wallet"));

        const { res, bytes } = await get(wallet, `/en${PASS}?holder=1`, cookie);
        assert.equal(res.status, 200);
        assert.equal(res.headers.get("content-type"), "application/vnd.apple.pkpass");
        assert.match(res.headers.get("cache-control") ?? "", /no-store/);
        assert.match(res.headers.get("content-disposition") ?? "", /member-card-.+-1\.pkpass/);
        const { files, pass } = openPass(bytes);
        assert.equal(pass.storeCard.primaryFields[0].value, "Dana Levi");
        assert.ok(JSON.stringify(pass).includes(membership.number));
        assertManifest(files);
        assertPassSignature(files, certs);
        const beyond = await get(wallet, `/en${PASS}?holder=2`, cookie);
        assert.equal(beyond.res.status, 404);
        const bad = await get(wallet, `/en${PASS}?holder=x`, cookie);
        assert.equal(bad.res.status, 404);
      });

      await t.step("another donor's session gets its own pass, never this one's", async () => {
        const cookie = await signInAs(wallet, other.donor.id);
        const { res, bytes } = await get(wallet, `/en${PASS}?holder=1&number=${membership.number}`, cookie);
        assert.equal(res.status, 200);
        const text = JSON.stringify(openPass(bytes).pass);
        assert.ok(text.includes("Noa Cohen") && text.includes(other.membership.number));
        assert.ok(!text.includes("Dana Levi") && !text.includes(membership.number));
        const stranger = await store.donors.create({
          ...donor,
          id: newId(),
          email: "stranger@example.org",
          firstName: "No",
          lastName: "Member",
        });
        const none = await get(wallet, `/en${PASS}?holder=1`, await signInAs(wallet, stranger.id));
        assert.equal(none.res.status, 404);
        const signedOut = await get(wallet, `/en${PASS}?holder=1`);
        assert.equal(signedOut.res.status, 303);
        assert.equal(signedOut.res.headers.get("location"), "/en/account");
      });
    } finally {
      await plain.close();
      await wallet.close();
    }
  },
);
