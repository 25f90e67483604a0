/**
 * Staff resend a member's cards (issue 27, item 8's "staff can resend a card"), on both backends:
 * `POST /api/memberships/{number}/resend-card` is FINANCE and up (a viewer 403), enqueues one
 * `member-card` message with its audit entry `member-card-resent` (a double click within 10 seconds
 * answers `repeated`, nothing more), which renders the card email with the card attached; an unknown
 * number is 404.
 */
import assert from "node:assert/strict";
import { startTestApp } from "@/tests/helpers/app.ts";
import { api } from "@/tests/helpers/http.ts";
import { memberFixture } from "@/tests/helpers/membership_world.ts";
import { tokensFor } from "@/tests/helpers/role_tokens.ts";
import { backendTest } from "@/tests/helpers/stores.ts";

backendTest(
  "staff resend a member's card: finance and up, audited, once per double click",
  async (t, open) => {
    const store = await open();
    const app = await startTestApp({ store });
    try {
      const tokens = await tokensFor(app, store);
      const as = (role: "viewer" | "finance") => ({ authorization: `Bearer ${tokens.get(role)}` });
      const { membership } = await memberFixture(store, 2);
      const path = `/api/memberships/${membership.number}/resend-card`;

      await t.step("a viewer may not", async () => {
        assert.equal((await api(app.url, "POST", path, undefined, as("viewer"))).status, 403);
      });

      await t.step("finance: queued once with its audit entry; a double click repeats nothing", async () => {
        const first = await api(app.url, "POST", path, undefined, as("finance"));
        assert.equal(first.status, 202);
        assert.equal(first.body.repeated, false);
        const again = await api(app.url, "POST", path, undefined, as("finance"));
        assert.deepEqual([again.status, again.body.repeated, again.body.key], [202, true, first.body.key]);
        const messages = (await store.outbox.listRecent(50)).filter((m) => m.kind === "member-card");
        assert.equal(messages.length, 1);
        const entries = (await store.audit.list({}, 100)).filter((e) => e.action === "member-card-resent");
        assert.deepEqual(entries.map((e) => [e.target, e.changes.message]), [[
          membership.number,
          first.body.key,
        ]]);
        const email = (await app.services.mail.render(messages[0]))!;
        assert.match(email.subject, /member card/);
        assert.equal(email.attachments.length, 1);
        assert.equal(email.attachments[0].contentType, "application/pdf");
      });

      await t.step("an unknown number: 404", async () => {
        const res = await api(
          app.url,
          "POST",
          "/api/memberships/ZZZZ-ZZZZ/resend-card",
          undefined,
          as("finance"),
        );
        assert.equal(res.status, 404);
        assert.equal(res.body.statusCode, 404);
      });
    } finally {
      await app.close();
    }
  },
);
