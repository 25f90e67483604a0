import assert from "node:assert/strict";
import { ADMIN, memoryStorage } from "@/tests/helpers/admin_session.ts";
import {
  clearSession,
  readSession,
  saveProfile,
  saveSession,
  saveTokens,
  SESSION_KEYS,
} from "./admin_session.ts";

const STORED = { accessToken: "access-1", refreshToken: "refresh-1", admin: JSON.stringify(ADMIN) };

Deno.test("the three item names are the spec's", () => {
  assert.deepEqual([...SESSION_KEYS], ["accessToken", "refreshToken", "admin"]);
});

Deno.test("readSession: all three items make a session", () => {
  assert.deepEqual(readSession(memoryStorage(STORED)), {
    accessToken: "access-1",
    refreshToken: "refresh-1",
    admin: ADMIN,
  });
});

Deno.test("readSession: any one item missing or empty is no session", () => {
  for (const key of SESSION_KEYS) {
    const missing = memoryStorage(STORED);
    missing.map.delete(key);
    assert.equal(readSession(missing), null, `${key} missing`);
    assert.equal(readSession(memoryStorage({ ...STORED, [key]: "" })), null, `${key} empty`);
  }
  assert.equal(readSession(memoryStorage()), null);
});

Deno.test("readSession: a profile that is not JSON or lacks an email, name or id is no session", () => {
  const { email: _email, ...noEmail } = ADMIN;
  const { name: _name, ...noName } = ADMIN;
  const { id: _id, ...noId } = ADMIN;
  for (
    const admin of [
      "{not json",
      "undefined",
      "null",
      '"ana@museum.org"',
      "42",
      "[]",
      JSON.stringify(noEmail),
      JSON.stringify(noName),
      JSON.stringify(noId),
      JSON.stringify({ ...ADMIN, email: 7 }),
    ]
  ) {
    assert.equal(readSession(memoryStorage({ ...STORED, admin })), null, admin);
  }
});

Deno.test("readSession: no storage at all (disabled in the browser) is no session", () => {
  assert.equal(readSession(null), null);
});

Deno.test("readSession: storage that throws on access is no session, not a crash", () => {
  const original = Object.getOwnPropertyDescriptor(globalThis, "localStorage");
  Object.defineProperty(globalThis, "localStorage", {
    configurable: true,
    get() {
      throw new DOMException("The operation is insecure.", "SecurityError");
    },
  });
  try {
    assert.equal(readSession(), null);
    // Saving and clearing without storage do nothing and do not throw.
    saveSession({ accessToken: "a", refreshToken: "r", admin: ADMIN });
    clearSession();
  } finally {
    if (original) Object.defineProperty(globalThis, "localStorage", original);
    else delete (globalThis as { localStorage?: Storage }).localStorage;
  }
});

Deno.test("saveSession stores the three items, the profile as JSON, and reads back", () => {
  const storage = memoryStorage();
  saveSession({ accessToken: "a-2", refreshToken: "r-2", admin: ADMIN }, storage);
  assert.deepEqual(Object.fromEntries(storage.map), {
    accessToken: "a-2",
    refreshToken: "r-2",
    admin: JSON.stringify(ADMIN),
  });
  assert.deepEqual(readSession(storage), { accessToken: "a-2", refreshToken: "r-2", admin: ADMIN });
});

Deno.test("saveTokens replaces both tokens and keeps the profile", () => {
  const storage = memoryStorage(STORED);
  saveTokens({ accessToken: "a-3", refreshToken: "r-3" }, storage);
  assert.deepEqual(readSession(storage), { accessToken: "a-3", refreshToken: "r-3", admin: ADMIN });
});

Deno.test("saveProfile replaces the profile and keeps the tokens", () => {
  const storage = memoryStorage(STORED);
  saveProfile({ ...ADMIN, name: "Ana B." }, storage);
  assert.deepEqual(readSession(storage)?.admin, { ...ADMIN, name: "Ana B." });
  assert.equal(storage.map.get("accessToken"), "access-1");
});

Deno.test("clearSession removes all three items and nothing else", () => {
  const storage = memoryStorage({ ...STORED, lang: "he" });
  clearSession(storage);
  assert.deepEqual(Object.fromEntries(storage.map), { lang: "he" });
  assert.equal(readSession(storage), null);
  // Clearing twice is fine.
  clearSession(storage);
  assert.deepEqual(Object.fromEntries(storage.map), { lang: "he" });
});
