/**
 * `POST /api/user`, `GET /api/user/{id}`, `PATCH /api/user/off-monthly-payment/{id}` on both backends;
 * and `POST /api/user` under an address with many donor records (issue 23): unused ones recycled,
 * an id never answered twice.
 */
import assert from "node:assert/strict";
import { MANY_RECORDS } from "@/lib/donors/donors.ts";
import type { Donor } from "@/lib/storage/types.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { api } from "@/tests/helpers/http.ts";
import { backendTest } from "@/tests/helpers/stores.ts";
import { donorFixture, paymentFixture, subscriptionFixture, txFixture } from "@/tests/storage/fixtures.ts";

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

backendTest(
  "api: POST /api/user under an address with many records recycles unused ones",
  async (t, open) => {
    const app = await startTestApp({ store: await open() });
    const store = app.store;
    const post = (body: unknown) => api(app.url, "POST", "/api/user", body);
    const count = async (email: string) => (await store.donors.idsByEmail(email, 1_000)).length;
    try {
      const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000).toISOString();
      const suffix = crypto.randomUUID().slice(0, 8);

      await t.step(`up to ${MANY_RECORDS} records, every form adds one`, async () => {
        const email = `few.${suffix}@example.org`;
        for (let i = 0; i < 5; i++) {
          await store.donors.create(donorFixture({ email, createdAt: twoHoursAgo }));
        }
        assert.equal((await post({ ...DONOR, email })).status, 201);
        assert.equal(await count(email), 6);
      });

      await t.step(
        "beyond it, each new record replaces up to two unused ones an hour old; nothing else, and no id twice",
        async () => {
          const email = `many.${suffix}@example.org`;
          const make = async (over: Partial<Donor> = {}) =>
            (await store.donors.create(donorFixture({ email, createdAt: twoHoursAgo, ...over }))).id;
          const abandoned = await Promise.all(Array.from({ length: 30 }, () => make()));
          const fresh = await Promise.all(
            Array.from({ length: 5 }, () => make({ createdAt: new Date().toISOString() })),
          );
          const gifted = await make({ paymentDate: twoHoursAgo });
          await store.transactions.record(txFixture({ donorId: gifted, createdAt: twoHoursAgo }));
          const declined = await make();
          await store.transactions.record(
            txFixture({ donorId: declined, kind: "error", createdAt: twoHoursAgo }),
          );
          const monthly = await make();
          await store.subscriptions.create(subscriptionFixture({ donorId: monthly }));
          const paying = await make();
          await store.payments.createOrReuse(
            paymentFixture({ donorId: paying }),
            `k-${paying}`,
            60_000,
            Date.now(),
          );
          const kept = [...fresh, gifted, declined, monthly, paying];
          const seen = new Set([...abandoned, ...kept]);
          const before = await count(email);
          assert.equal(before, 39);
          const answered: string[] = [];
          for (let i = 0; i < 10; i++) {
            const res = await post({ ...DONOR, firstName: `Try${i}`, email: email.toUpperCase() });
            assert.equal(res.status, 201);
            assert.ok(!seen.has(res.body.id), "an id answered before");
            seen.add(res.body.id);
            answered.push(res.body.id);
          }
          const ids = new Set(await store.donors.idsByEmail(email, 1_000));
          assert.equal(ids.size, before + 10 - 20, "ten added, twenty unused ones recycled");
          for (const id of [...kept, ...answered]) assert.ok(ids.has(id), `${id} was recycled`);
          const gone = abandoned.filter((id) => !ids.has(id));
          assert.equal(gone.length, 20);
          assert.equal(await store.donors.get(gone[0]), null);
          const res = await api(app.url, "GET", `/api/user/${gone[0]}`);
          assert.equal(res.status, 404, "a recycled id opens nothing");
        },
      );
    } finally {
      await app.close();
    }
  },
);
