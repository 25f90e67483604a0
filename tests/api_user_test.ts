/** `POST /api/user`, `GET /api/user/{id}`, `PATCH /api/user/off-monthly-payment/{id}` on both backends. */
import assert from "node:assert/strict";
import { startTestApp } from "./helpers/app.ts";
import { api } from "./helpers/http.ts";
import { backendTest } from "./helpers/stores.ts";

const DONOR = { firstName: "Dana", lastName: "Levi", email: "Dana.Levi@Example.org", country: "Israel" };

backendTest("api: donors", async (t, open) => {
  const app = await startTestApp({ store: await open() });
  const post = (body: unknown, headers?: Record<string, string>) =>
    api(app.url, "POST", "/api/user", body, headers);
  try {
    let id = "";
    await t.step("POST /api/user creates a donor with an unguessable id", async () => {
      const res = await post({ ...DONOR, firstName: "  Dana ", extra: "ignored" });
      assert.equal(res.status, 201);
      assert.deepEqual(Object.keys(res.body), ["id"]);
      assert.match(res.body.id, /^[A-Za-z0-9_-]{24}$/);
      id = res.body.id;
      const again = await post(DONOR);
      assert.notEqual(again.body.id, id, "a known email still gets a new donor");
    });

    await t.step("GET /api/user/{id} answers the spec's user fields, trimmed and normalized", async () => {
      const res = await api(app.url, "GET", `/api/user/${id}`);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, {
        id,
        firstName: "Dana",
        lastName: "Levi",
        email: "dana.levi@example.org",
        country: "Israel",
        paymentDate: null,
        nextPaymentDate: null,
        monthlyPaymentAvailable: false,
      });
    });

    await t.step("names in any script are kept as given", async () => {
      const res = await post({
        firstName: "דוד",
        lastName: "Иванов",
        email: "d@example.co.il",
        country: "ישראל",
      });
      assert.equal(res.status, 201);
      const got = await api(app.url, "GET", `/api/user/${res.body.id}`);
      assert.equal(got.body.firstName, "דוד");
      assert.equal(got.body.lastName, "Иванов");
    });

    await t.step("every bad input answers 400, 413 or 415 with a JSON message", async () => {
      const cases: [unknown, string, RegExp][] = [
        [{ ...DONOR, firstName: undefined }, "firstName", /firstName/],
        [{ ...DONOR, lastName: "   " }, "lastName", /lastName is required/],
        [{ ...DONOR, email: "not-an-email" }, "email", /not a valid email/],
        [{ ...DONOR, email: "a@b" }, "email", /not a valid email/],
        [{ ...DONOR, country: 42 }, "country", /country must be a string/],
        [{ ...DONOR, firstName: "x".repeat(101) }, "firstName", /at most 100/],
        [{ ...DONOR, lastName: "Le\u0000vi" }, "lastName", /control characters/],
        [{ ...DONOR, email: `${"a".repeat(250)}@example.org` }, "email", /at most 254/],
      ];
      for (const [body, path, message] of cases) {
        const res = await post(body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.statusCode, 400);
        assert.match(res.body.message, message);
        assert.ok(res.body.errors.some((e: { path: string }) => e.path === path), JSON.stringify(res.body));
      }
      for (const raw of ["{not json", "[]", "null", "42", '"text"', ""]) {
        const res = await post(raw);
        assert.equal(res.status, 400, raw);
        assert.equal(typeof res.body.message, "string");
      }
      const textBody = await post(JSON.stringify(DONOR), { "content-type": "text/plain" });
      assert.equal(textBody.status, 415);
      assert.match(textBody.body.message, /must be JSON/);
      const huge = await post({ ...DONOR, country: "x".repeat(100_000) });
      assert.equal(huge.status, 413);
    });

    await t.step(
      "POST /api/user takes an optional Israeli ID number: stored as nine digits, never answered",
      async () => {
        const res = await post({ ...DONOR, israeliId: " 12345678-2 " });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        assert.deepEqual(Object.keys(res.body), ["id"]);
        assert.equal((await app.store.donors.get(res.body.id))?.israeliId, "123456782");
        const got = await api(app.url, "GET", `/api/user/${res.body.id}`);
        assert.equal(got.status, 200);
        assert.ok(!JSON.stringify(got.body).includes("782"), "the ID number is in the API's answer");
        const padded = await post({ ...DONOR, israeliId: "18" });
        assert.equal((await app.store.donors.get(padded.body.id))?.israeliId, "000000018");
        for (const none of [null, undefined]) {
          const plain = await post({ ...DONOR, israeliId: none });
          assert.equal(plain.status, 201);
          assert.equal((await app.store.donors.get(plain.body.id))?.israeliId, null);
        }
        for (const line of app.logs.map((l) => JSON.stringify(l))) {
          assert.ok(!line.includes("12345678"), `the ID number in the log: ${line}`);
        }
      },
    );

    await t.step(
      "a malformed Israeli ID number answers 400 with a specific message naming the field",
      async () => {
        const cases: [unknown, RegExp][] = [
          ["123456789", /check digit is wrong/],
          ["000000019", /check digit is wrong/],
          ["12345678a", /up to 9 digits/],
          ["1234567820", /up to 9 digits/],
          ["000000000", /not all zeros/],
          ["", /israeliId is empty/],
          ["1".repeat(21), /israeliId must be at most 20 characters/],
          [123456782, /israeliId must be a string/],
        ];
        for (const [israeliId, message] of cases) {
          const res = await post({ ...DONOR, email: "refused.id@example.org", israeliId });
          assert.equal(res.status, 400, JSON.stringify(israeliId));
          assert.match(res.body.message, message);
          assert.deepEqual(res.body.errors.map((e: { path: string }) => e.path), ["israeliId"]);
          assert.ok(!res.body.message.includes("123456"), "the refusal repeats the number");
        }
      },
    );

    await t.step("unknown and malformed ids answer 404 JSON", async () => {
      for (const bad of ["AAAAAAAAAAAAAAAAAAAAAAAA", "short", "..%2F..%2Fetc", "x".repeat(200)]) {
        for (
          const [method, path] of [["GET", `/api/user/${bad}`], [
            "PATCH",
            `/api/user/off-monthly-payment/${bad}`,
          ]]
        ) {
          const res = await api(app.url, method, path);
          assert.equal(res.status, 404, `${method} ${path}`);
          assert.deepEqual(res.body, { message: "No donor with this id", statusCode: 404 });
        }
      }
    });

    await t.step("PATCH off-monthly-payment stops the monthly donation, idempotently", async () => {
      await app.store.donors.update(id, {
        monthlyPaymentAvailable: true,
        paymentDate: "2026-11-01T10:00:00.000Z",
        nextPaymentDate: "2026-12-01T10:00:00.000Z",
      });
      const before = await api(app.url, "GET", `/api/user/${id}`);
      assert.equal(before.body.monthlyPaymentAvailable, true);
      assert.equal(before.body.nextPaymentDate, "2026-12-01T10:00:00.000Z");
      const first = await api(app.url, "PATCH", `/api/user/off-monthly-payment/${id}`);
      assert.equal(first.status, 200);
      assert.equal(first.body.monthlyPaymentAvailable, false);
      assert.equal(first.body.nextPaymentDate, null);
      assert.equal(first.body.paymentDate, "2026-11-01T10:00:00.000Z", "the last payment stays visible");
      const second = await api(app.url, "PATCH", `/api/user/off-monthly-payment/${id}`);
      assert.deepEqual(second.body, first.body);
      assert.equal((await app.store.donors.get(id))?.monthlyPaymentAvailable, false);
    });

    await t.step("wrong methods answer 405 JSON", async () => {
      const res = await api(app.url, "DELETE", `/api/user/${id}`);
      assert.equal(res.status, 405);
      assert.equal(res.body.statusCode, 405);
    });
  } finally {
    await app.close();
  }
});
