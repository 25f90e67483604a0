import assert from "node:assert/strict";
import { argon2id, argon2Verify } from "hash-wasm";
import {
  ARGON2_PARAMS,
  DUMMY_HASH,
  hashPassword,
  needsRehash,
  PASSWORD_MESSAGES,
  passwordProblem,
  verifyAgainstDummy,
  verifyPassword,
} from "./passwords.ts";

const PHC_SHAPE = /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/;

Deno.test("hash and verify round-trip with OWASP argon2id parameters", async () => {
  const phc = await hashPassword("violet-harbor-lantern");
  assert.match(phc, PHC_SHAPE);
  assert.equal(await verifyPassword("violet-harbor-lantern", phc), true);
  assert.equal(await verifyPassword("violet-harbor-lanterN", phc), false);
  assert.equal(await verifyPassword("", phc), false);
  assert.equal(needsRehash(phc), false);
});

Deno.test("the PHC string is the standard one other argon2 implementations read", async () => {
  const phc = await hashPassword("interop-check");
  assert.equal(await argon2Verify({ password: "interop-check", hash: phc }), true);
});

Deno.test("two hashes of one password differ (random salt) and both verify", async () => {
  const [a, b] = await Promise.all([hashPassword("same-password"), hashPassword("same-password")]);
  assert.notEqual(a, b);
  assert.notEqual(a.split("$")[4], b.split("$")[4]);
  assert.equal(await verifyPassword("same-password", a), true);
  assert.equal(await verifyPassword("same-password", b), true);
});

Deno.test("unicode passwords round-trip, and composed and decomposed forms match", async () => {
  const password = "пароль-סיסמה-🦄-ção";
  const phc = await hashPassword(password);
  assert.equal(await verifyPassword(password, phc), true);
  assert.equal(await verifyPassword("пароль-סיסמה-🦄-cao", phc), false);
  const composed = "caf\u00e9-au-lait";
  const decomposed = "cafe\u0301-au-lait";
  assert.notEqual(composed, decomposed);
  assert.equal(await verifyPassword(decomposed, await hashPassword(composed)), true);
});

Deno.test("malformed and tampered hashes answer false without throwing", async () => {
  const phc = await hashPassword("tamper-target");
  const [, , version, params, salt, hash] = phc.split("$");
  const flipped = (hash[0] === "A" ? "B" : "A") + hash.slice(1);
  const bad = [
    "",
    "not a hash",
    "$argon2id$",
    phc + "$extra",
    phc.replace("$argon2id$", "$argon2i$"),
    phc.replace("$argon2id$", "$argon2d$"),
    phc.replace("$argon2id$", "$ARGON2ID$"),
    phc.replace(`$${version}$`, "$v=16$"),
    phc.replace(`$${params}$`, "$t=2,m=19456,p=1$"),
    phc.replace(`$${params}$`, "$m=19456,t=2$"),
    `$argon2id$${version}$${params}$${salt}$${flipped}`,
    `$argon2id$${version}$${params}$${salt}$${hash.slice(0, 30)}`,
    `$argon2id$${version}$${params}$${salt}$${hash}=`,
    `$argon2id$${version}$${params}$${salt.slice(0, 8)}$${hash}`,
    `$argon2id$${version}$${params}$${salt}$${hash.replace(/[A-Za-z]/, "-")}`,
    " " + phc,
    phc + "\n",
  ];
  for (const candidate of bad) {
    assert.equal(await verifyPassword("tamper-target", candidate), false, candidate);
  }
  assert.equal(await verifyPassword("tamper-target", null as unknown as string), false);
  assert.equal(await verifyPassword(undefined as unknown as string, phc), false);
});

Deno.test("hashes asking for absurd cost are refused before any work", async () => {
  const phc = await hashPassword("cost-target");
  const tampered = [
    phc.replace("m=19456", "m=4000000"),
    phc.replace("m=19456", "m=99999999"),
    phc.replace("t=2", "t=1000"),
    phc.replace("p=1", "p=64"),
    phc.replace("p=1", "p=0"),
    phc.replace("t=2", "t=0"),
    phc.replace("m=19456", "m=4"),
  ];
  for (const candidate of tampered) {
    // needsRehash answers true only for an unreadable or weaker hash; these are refused at parsing.
    assert.equal(needsRehash(candidate), true, candidate);
    // Refused before any work: well under one real verification timed at the same moment (an absolute
    // 50 ms failed under CI's load), best of three so one stall of the machine is not the code.
    let refusedMs = Infinity;
    for (let attempt = 0; attempt < 3; attempt++) {
      const started = performance.now();
      assert.equal(await verifyPassword("cost-target", candidate), false, candidate);
      refusedMs = Math.min(refusedMs, performance.now() - started);
    }
    const started = performance.now();
    assert.equal(await verifyPassword("cost-target", phc), true);
    const realMs = performance.now() - started;
    assert.ok(refusedMs < Math.max(50, realMs / 2), `${candidate} did work before being refused`);
  }
});

Deno.test("older, weaker hashes still verify and are flagged for rehash", async () => {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const weak = await argon2id({
    password: "legacy-password",
    salt,
    memorySize: 4096,
    iterations: 3,
    parallelism: 1,
    hashLength: 32,
    outputType: "encoded",
  });
  assert.equal(await verifyPassword("legacy-password", weak), true);
  assert.equal(needsRehash(weak), true);
  assert.equal(needsRehash("garbage"), true);
  const current = await hashPassword("legacy-password");
  assert.equal(needsRehash(current), false);
  assert.equal(needsRehash(current.replace("t=2", "t=1")), true);
  assert.equal(needsRehash(current.replace("m=19456", "m=65536")), false);
});

Deno.test("the dummy hash is valid, on current parameters, and never lets anyone in", async () => {
  assert.match(DUMMY_HASH, PHC_SHAPE);
  assert.equal(needsRehash(DUMMY_HASH), false);
  assert.equal(
    DUMMY_HASH.startsWith(
      `$argon2id$v=19$m=${ARGON2_PARAMS.memoryKiB},t=${ARGON2_PARAMS.iterations},p=${ARGON2_PARAMS.parallelism}$`,
    ),
    true,
  );
  assert.equal(await verifyAgainstDummy("anything"), false);
  assert.equal(await verifyAgainstDummy(""), false);
});

Deno.test("password policy messages", () => {
  assert.equal(passwordProblem(""), "Password is required");
  assert.equal(passwordProblem("abc"), "Password must be at least 6 characters");
  assert.equal(passwordProblem("abcde"), "Password must be at least 6 characters");
  assert.equal(passwordProblem("x".repeat(129)), "Password must be at most 128 characters");
  const common = "This password is one of the 1,000 most common passwords; choose a less common one";
  assert.equal(passwordProblem("123456"), common);
  assert.equal(passwordProblem("password"), common);
  assert.equal(passwordProblem("Password"), common);
  assert.equal(passwordProblem("PASSWORD"), common);
  assert.equal(passwordProblem("qwerty"), common);
  assert.equal(passwordProblem("violet-harbor-lantern"), null);
  assert.equal(passwordProblem("abcdef-9"), null);
  assert.equal(passwordProblem("x".repeat(128)), null);
  assert.equal(PASSWORD_MESSAGES.common, common);
});

Deno.test("password length counts code points, not UTF-16 units", () => {
  // Each unicorn is two UTF-16 units.
  assert.equal(passwordProblem("🦄".repeat(5)), "Password must be at least 6 characters");
  assert.equal(passwordProblem("🦄".repeat(6)), null);
  assert.equal(passwordProblem("🦄".repeat(128)), null);
  assert.equal(passwordProblem("🦄".repeat(129)), "Password must be at most 128 characters");
  // A decomposed "é" is one character to the person typing it.
  assert.equal(passwordProblem("cafe\u0301s"), "Password must be at least 6 characters");
  assert.equal(passwordProblem("пароль"), null);
});

Deno.test("the common-password list is the head of zxcvbn-ts's passwords-common, lower-cased", async () => {
  const { dictionary } = await import("@zxcvbn-ts/language-common");
  const { default: list } = await import("./common_passwords.json", { with: { type: "json" } });
  const expected = (dictionary["passwords-common"] as string[]).slice(0, 1000).map((p) => p.toLowerCase());
  assert.deepEqual(list, expected);
});
