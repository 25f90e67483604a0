import assert from "node:assert/strict";
import { newId } from "@/lib/core/ids.ts";
import {
  createManageToken,
  FRESH_LINKS_PER_EMAIL,
  MANAGE_LINK_TTL_MS,
  manageLinkKey,
  manageLinkUrl,
  readManageToken,
  requestFreshLink,
} from "./manage_link.ts";
import type { MessageInput } from "@/lib/storage/message_types.ts";
import { openStore } from "@/lib/storage/mod.ts";

const SECRET = "manage-link-test-secret-0123456789abcdef";
const NOW = new Date("2026-03-01T10:00:00Z");

Deno.test("manage token: valid until its expiry, then expired, and never shows the donor id", async () => {
  const key = await manageLinkKey(SECRET);
  const donorId = newId();
  const token = await createManageToken(key, donorId, NOW);
  assert.match(token, /^m1\.[A-Za-z0-9_-]+$/);
  assert.ok(!token.includes(donorId), "the donor id (a permanent capability) is not readable");
  const expiresAt = new Date(NOW.getTime() + MANAGE_LINK_TTL_MS);
  assert.deepEqual(await readManageToken(key, token, NOW), { kind: "valid", donorId, expiresAt });
  assert.deepEqual(await readManageToken(key, token, new Date(expiresAt.getTime() - 1000)), {
    kind: "valid",
    donorId,
    expiresAt,
  });
  assert.deepEqual(await readManageToken(key, token, expiresAt), { kind: "expired", donorId, expiresAt });
  // Two tokens for one donor differ (random IV): a link says nothing about another.
  assert.notEqual(await createManageToken(key, donorId, NOW), token);
});

Deno.test("manage token: tampered, truncated, foreign or malformed tokens are invalid", async () => {
  const key = await manageLinkKey(SECRET);
  const token = await createManageToken(key, newId(), NOW);
  const invalid = { kind: "invalid" };
  const body = token.slice(3);
  for (let i = 0; i < body.length; i += 7) {
    const flipped = body[i] === "A" ? "B" : "A";
    const tampered = `m1.${body.slice(0, i)}${flipped}${body.slice(i + 1)}`;
    assert.deepEqual(await readManageToken(key, tampered, NOW), invalid, `character ${i} changed`);
  }
  const other = await manageLinkKey("another-secret-entirely-0123456789abcdef");
  for (
    const bad of [
      token.slice(0, -2),
      `${token}AA`,
      token.replace("m1.", "m2."),
      token.slice(3),
      "",
      "m1.",
      "m1.!!!",
      "m1." + "A".repeat(500),
      newId(),
    ]
  ) {
    assert.deepEqual(await readManageToken(key, bad, NOW), invalid, bad);
  }
  assert.deepEqual(await readManageToken(other, token, NOW), invalid, "sealed with another secret");
  await assert.rejects(() => createManageToken(key, "not an id"), RangeError);
});

Deno.test("manageLinkUrl: the donor portal of the language, the token in the query", () => {
  assert.equal(
    manageLinkUrl("https://donate.museum.org", "he", "m1.abc_-"),
    "https://donate.museum.org/he/account?token=m1.abc_-",
  );
});

Deno.test("requestFreshLink: enqueues a manage-link message, limited per email, only for our tokens", async () => {
  const store = await openStore({ kvPath: ":memory:" });
  try {
    const key = await manageLinkKey(SECRET);
    const donor = await store.donors.create({
      id: newId(),
      firstName: "Dana",
      lastName: "Levi",
      email: "dana@example.org",
      country: "Israel",
      createdAt: NOW.toISOString(),
      paymentDate: null,
      nextPaymentDate: null,
      monthlyPaymentAvailable: false,
      israeliId: null,
    });
    const sent: MessageInput[] = [];
    const deps = { store, key, enqueue: (m: MessageInput) => Promise.resolve(void sent.push(m)) };
    const expired = await createManageToken(key, donor.id, new Date(NOW.getTime() - MANAGE_LINK_TTL_MS - 1));
    const ask = (token: string, at: Date, address = "203.0.113.7") =>
      requestFreshLink(deps, { token, lang: "he", address }, at);

    assert.equal(await ask(expired, NOW), "sent");
    assert.deepEqual(sent, [{
      key: `manage-link:${donor.id}:${Math.floor(NOW.getTime() / 600_000)}`,
      kind: "manage-link",
      to: { donorId: donor.id },
      language: "he",
      data: {},
    }]);
    assert.equal(await ask("m1.tampered", NOW), "invalid");
    const stranger = await createManageToken(key, newId(), NOW);
    assert.equal(await ask(stranger, NOW), "unknown-donor");
    // From other addresses too: the donor's email caps the links per hour.
    for (let i = 1; i < FRESH_LINKS_PER_EMAIL; i++) {
      assert.equal(await ask(expired, new Date(NOW.getTime() + i * 1000), `198.51.100.${i}`), "sent");
    }
    assert.equal(await ask(expired, new Date(NOW.getTime() + 5000), "192.0.2.1"), "rate-limited");
    assert.equal(sent.length, FRESH_LINKS_PER_EMAIL);
    assert.equal(await ask(expired, new Date(NOW.getTime() + 3_600_000 + 5000), "192.0.2.1"), "sent");
  } finally {
    await store.close();
  }
});
