/**
 * Regular-expression denial of service, through the API: a body at the limit whose email is built
 * to make a backtracking pattern slow (`a@` + dots + `@`, which took the old email pattern 5 to 9 s
 * of the one event loop) is refused with a 400 and a JSON message naming the field's length, and
 * only that: the pattern is not run on a value whose length check failed. The timing of the
 * patterns themselves is `lib/app/input_patterns_test.ts`'s; this test asserts answers, not times.
 *
 * @module
 */
import assert from "node:assert/strict";
import { BODY_LIMIT } from "@/lib/app/app.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { api } from "@/tests/helpers/http.ts";

const ROUTES: [string, Record<string, string>][] = [
  ["/api/user", { firstName: "Dana", lastName: "Levi", country: "Israel" }],
  ["/api/auth/admin/login", { password: "violet-harbor-1" }],
  ["/api/auth/admin/register", { password: "violet-harbor-1", name: "Dana" }],
];

/** Emails filling the body to just under the limit. */
function hostileEmails(room: number): string[] {
  return [
    "a@" + ".".repeat(room - 3) + "@",
    "a@" + "a".repeat(room - 3) + " ",
    "@".repeat(room),
    "a@b" + ".a".repeat((room - 4) / 2) + " ",
  ];
}

Deno.test("redos: a 64 KB adversarial email is a 400 with a JSON message on donor creation, login and register", async () => {
  const app = await startTestApp();
  try {
    for (const [path, rest] of ROUTES) {
      const room = BODY_LIMIT - JSON.stringify({ ...rest, email: "" }).length - 64;
      for (const email of hostileEmails(room)) {
        const health = fetch(`${app.url}/health`);
        const res = await api(app.url, "POST", path, { ...rest, email });
        assert.equal(res.status, 400, `${path}: ${JSON.stringify(email.slice(0, 8))}`);
        assert.equal(typeof res.body.message, "string");
        assert.match(res.body.message, /email/);
        // Exactly one problem for the field: its length. The pattern and the checks after it did not run.
        const emailErrors = res.body.errors.filter((e: { path: string }) => e.path === "email");
        assert.deepEqual(emailErrors.map((e: { message: string }) => e.message), [
          "email must be at most 254 characters",
        ]);
        assert.equal((await health).status, 200, "the server answered /health meanwhile");
      }
    }
  } finally {
    await app.close();
  }
});

Deno.test("redos: a long email just over the limit is refused as too long; a valid one still passes", async () => {
  const app = await startTestApp();
  try {
    const over = "a".repeat(250) + "@b.co";
    const res = await api(app.url, "POST", "/api/user", {
      firstName: "D",
      lastName: "L",
      country: "IL",
      email: over,
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.message, "Invalid request body: email: email must be at most 254 characters");
    const ok = await api(app.url, "POST", "/api/user", {
      firstName: "D",
      lastName: "L",
      country: "IL",
      email: "a".repeat(248) + "@b.co",
    });
    assert.equal(ok.status, 201);
  } finally {
    await app.close();
  }
});

Deno.test("redos: trailing slashes on the admin calls still decide access; a run of them is a JSON 404", async () => {
  const app = await startTestApp();
  try {
    const me = await api(app.url, "GET", "/api/auth/admin/me/");
    assert.equal(me.status, 401, "not a public call: needs a signed-in admin");
    // /\/+$/ (the middleware's trim, now a loop) was quadratic on a run of slashes; the request
    // line's limit is near 8 KB, and such paths match no route.
    for (
      const path of ["/api/auth/admin/me" + "/".repeat(6_000), "/api/auth/admin/" + "/".repeat(6_000) + "x"]
    ) {
      const res = await api(app.url, "GET", path);
      assert.ok([401, 404].includes(res.status), `${res.status}`);
      assert.equal(typeof res.body.message, "string");
    }
    // A public call with a trailing slash is still public: its body is checked, not a token.
    const login = await api(app.url, "POST", "/api/auth/admin/login/", { email: "x", password: "y" });
    assert.equal(login.status, 400);
    assert.match(login.body.message, /email/);
  } finally {
    await app.close();
  }
});
