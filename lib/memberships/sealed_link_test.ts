/**
 * The memberships' emailed links: each kind opens only its own tokens, within its time and length
 * bounds, and a changed token opens as nothing.
 */
import assert from "node:assert/strict";
import { MAX_SEALED_LINK_LENGTH, openLink, sealedLinkKey, sealLink } from "./sealed_link.ts";
import { createRenewalToken, readRenewalToken, RENEWAL_LINK_TTL_MS, renewalKey } from "./renewal_link.ts";
import {
  AUTO_RENEW_OFF_TTL_MS,
  autoRenewOffKey,
  createAutoRenewOffToken,
  readAutoRenewOffToken,
} from "./auto_renew.ts";

const SECRET = "test-app-secret-for-sealed-links-0123456789";
const NOW = new Date("2026-11-29T10:00:00Z");
const at = (ms: number) => new Date(NOW.getTime() + ms);

Deno.test("a sealed link opens under its own key, with its subject and claims, and shows neither in the token", async () => {
  const key = await sealedLinkKey(SECRET, "test/v1");
  const token = await sealLink(
    key,
    { sub: "dana@example.org", claims: { lvl: 2, act: "x" }, ttlMs: 60_000 },
    NOW,
  );
  assert.ok(!token.includes("dana") && !atob(token.split(".")[0]).includes("dana"));
  const payload = await openLink(key, token, NOW);
  assert.equal(payload?.sub, "dana@example.org");
  assert.equal(payload?.lvl, 2);
  assert.equal(payload?.act, "x");
  assert.equal(
    await openLink(await sealedLinkKey(SECRET, "other/v1"), token, NOW),
    null,
    "another purpose's key",
  );
  assert.equal(
    await openLink(await sealedLinkKey(SECRET + "!", "test/v1"), token, NOW),
    null,
    "another secret",
  );
  assert.equal(await openLink(key, token, at(61_000)), null, "expired");
  const changed = token.slice(0, -3) + (token.endsWith("A") ? "BBB" : "AAA");
  assert.equal(await openLink(key, changed, NOW), null, "changed");
  assert.equal(await openLink(key, "", NOW), null);
  assert.equal(await openLink(key, "a".repeat(MAX_SEALED_LINK_LENGTH + 1), NOW), null, "too long, unread");
  assert.equal(await openLink(key, "not.a.token.at.all", NOW), null);
});

Deno.test("a renewal link and a turn-off link never open as each other, and keep their lifetimes", async () => {
  const renewal = await createRenewalToken(await renewalKey(SECRET), {
    email: " Dana@Example.org ",
    levelId: 2,
  }, NOW);
  const off = await createAutoRenewOffToken(await autoRenewOffKey(SECRET), {
    email: "Dana@Example.org",
    number: "7KQ3-9DXM",
  }, NOW);
  for (const t of [renewal, off]) assert.ok(t.length < MAX_SEALED_LINK_LENGTH, `${t.length} characters`);

  assert.deepEqual(await readRenewalToken(await renewalKey(SECRET), renewal, NOW), {
    email: "dana@example.org",
    levelId: 2,
  });
  assert.deepEqual(await readAutoRenewOffToken(await autoRenewOffKey(SECRET), off, NOW), {
    email: "dana@example.org",
    number: "7KQ3-9DXM",
  });
  assert.equal(await readRenewalToken(await renewalKey(SECRET), off, NOW), null);
  assert.equal(await readAutoRenewOffToken(await autoRenewOffKey(SECRET), renewal, NOW), null);
  // The turn-off link's action claim is checked too: a token under its key without it is refused.
  const noAction = await sealLink(await autoRenewOffKey(SECRET), {
    sub: "dana@example.org",
    claims: { num: "7KQ3-9DXM" },
    ttlMs: 60_000,
  }, NOW);
  assert.equal(await readAutoRenewOffToken(await autoRenewOffKey(SECRET), noAction, NOW), null);

  assert.ok(await readRenewalToken(await renewalKey(SECRET), renewal, at(RENEWAL_LINK_TTL_MS - 1000)));
  assert.equal(
    await readRenewalToken(await renewalKey(SECRET), renewal, at(RENEWAL_LINK_TTL_MS + 1000)),
    null,
  );
  assert.ok(
    await readAutoRenewOffToken(await autoRenewOffKey(SECRET), off, at(AUTO_RENEW_OFF_TTL_MS - 1000)),
  );
  assert.equal(
    await readAutoRenewOffToken(await autoRenewOffKey(SECRET), off, at(AUTO_RENEW_OFF_TTL_MS + 1000)),
    null,
  );
});
