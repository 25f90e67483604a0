/**
 * `GET /api/transaction/get-all-success-transactions` and `…/get-all-error-transactions` on both
 * backends: item shapes, paging edges, filters and search in several scripts.
 */
import assert from "node:assert/strict";
import { newId } from "@/lib/core/ids.ts";
import { translator } from "@/lib/core/i18n.ts";
import type { Store, Transaction } from "@/lib/storage/types.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { api, bearer } from "@/tests/helpers/http.ts";
import { backendTest } from "@/tests/helpers/stores.ts";

const SUCCESS = "/api/transaction/get-all-success-transactions";
const ERRORS = "/api/transaction/get-all-error-transactions";
const NAMES = [
  ["Dana", "Levi", "dana@example.org"],
  ["דוד", "כהן", "david@example.co.il"],
  ["Иван", "Петров", "ivan@example.ru"],
  ["João", "Silva", "joao@example.com.br"],
  ["Lucía", "García", "lucia@example.es"],
];

/** 25 successes and 13 errors (every third of all monthly), oldest first, one minute apart. */
async function seed(store: Store): Promise<void> {
  const start = Date.UTC(2026, 10, 1, 9, 0, 0);
  for (let i = 0; i < 38; i++) {
    const [firstName, lastName, email] = NAMES[i % NAMES.length];
    const success = i < 25;
    const tx: Transaction = {
      id: newId(),
      kind: success ? "success" : "error",
      statusCode: success ? "000" : ["003", "004", "033"][i % 3],
      isMonthly: i % 3 === 0,
      createdAt: new Date(start + i * 60_000).toISOString(),
      donorId: newId(),
      user: { firstName, lastName, email },
      amount: 2000 + i,
      currency: i % 2 === 0 ? 1 : 2,
      resultData: success
        ? {
          CreditCardNumber: "458045******4580",
          CreditType: "1",
          DebitTotal: String(2000 + i),
          DebitCurrency: i % 2 === 0 ? 1 : 2,
        }
        : null,
      errorMessage: success ? null : "Declined by the card issuer",
      provider: "sandbox",
      providerTransactionId: `p-${i}`,
    };
    await store.transactions.record(tx);
  }
}

backendTest("api: transaction history", async (t, open) => {
  const app = await startTestApp({ store: await open() });
  try {
    await seed(app.store);
    const admin = await api(app.url, "POST", "/api/auth/admin/register", {
      email: "finance@museum.org",
      password: "ledger-and-ink-2026",
    });
    const auth = bearer(admin.body.accessToken);
    const get = (path: string) => api(app.url, "GET", path, undefined, auth);

    await t.step("success list: the spec's item shape, newest first, default limit 10", async () => {
      const res = await get(SUCCESS);
      assert.equal(res.status, 200);
      assert.deepEqual(Object.keys(res.body).sort(), ["data", "limit", "page", "total"]);
      assert.deepEqual([res.body.page, res.body.limit, res.body.total, res.body.data.length], [
        1,
        10,
        25,
        10,
      ]);
      const item = res.body.data[0];
      assert.deepEqual(item, {
        id: item.id,
        statusCode: "000",
        isMonthly: true, // i = 24
        createdAt: new Date(Date.UTC(2026, 10, 1, 9, 24)).toISOString(),
        resultData: {
          CreditCardNumber: "458045******4580",
          CreditType: "1",
          DebitTotal: "2024",
          DebitCurrency: 1,
        },
        user: { firstName: "Lucía", lastName: "García", email: "lucia@example.es" }, // NAMES[24 % 5]
        // Not issued yet: the link issues it (tests/api_backoffice_mail_test.ts).
        receipt: { number: null, url: `/api/transaction/${item.id}/receipt` },
        refund: null, // nothing refunded (tests/api_refunds_test.ts)
      });
      const times = res.body.data.map((d: { createdAt: string }) => d.createdAt);
      assert.deepEqual(times, [...times].sort().reverse());
    });

    await t.step("error list: its item shape with message and amount", async () => {
      const res = await get(`${ERRORS}?limit=5`);
      assert.deepEqual([res.body.total, res.body.data.length], [13, 5]);
      const item = res.body.data[0]; // i = 37
      assert.deepEqual(item, {
        id: item.id,
        statusCode: ["003", "004", "033"][37 % 3],
        isMonthly: false,
        createdAt: new Date(Date.UTC(2026, 10, 1, 9, 37)).toISOString(),
        errorMessage: "Declined by the card issuer",
        // The catalogue's text for the code, in English when no language is asked for (issue 26).
        statusText: translator("en")(`transactionError.errors.${["003", "004", "033"][37 % 3]}`),
        amount: 2037,
        currency: 2,
        user: { firstName: "Иван", lastName: "Петров", email: "ivan@example.ru" }, // NAMES[37 % 5]
      });
    });

    await t.step(
      "error list: the catalogue's text for each code in `lang`, the provider's message kept",
      async () => {
        for (const lang of ["he", "ru", "en"] as const) {
          const res = await get(`${ERRORS}?limit=3&lang=${lang}`);
          assert.equal(res.status, 200);
          for (const item of res.body.data) {
            assert.equal(item.statusText, translator(lang)(`transactionError.errors.${item.statusCode}`));
            assert.equal(item.errorMessage, "Declined by the card issuer");
          }
        }
        const he = (await get(`${ERRORS}?limit=3&lang=he`)).body.data;
        assert.deepEqual(he.map((d: { statusCode: string }) => d.statusCode), ["004", "003", "033"]);
        assert.equal(
          he[2].statusText,
          "הכרטיס אינו תקין, אנא בדקו את מספר הכרטיס ונסו שוב, או השתמשו בכרטיס אחר.",
        );
        assert.equal((await get(`${ERRORS}?lang=xx`)).status, 400);
      },
    );

    await t.step("paging: every page, the last partial one, and past the end", async () => {
      const seen = new Set<string>();
      for (const [page, size] of [[1, 10], [2, 10], [3, 5], [4, 0], [999999, 0]]) {
        const res = await get(`${SUCCESS}?page=${page}`);
        assert.equal(res.status, 200);
        assert.equal(res.body.page, page);
        assert.equal(res.body.total, 25);
        assert.equal(res.body.data.length, size, `page ${page}`);
        for (const d of res.body.data) seen.add(d.id);
      }
      assert.equal(seen.size, 25, "pages do not overlap");
      const one = await get(`${SUCCESS}?limit=1&page=25`);
      assert.equal(one.body.data[0].createdAt, new Date(Date.UTC(2026, 10, 1, 9, 0)).toISOString());
      assert.equal((await get(`${SUCCESS}?limit=100`)).body.data.length, 25);
    });

    await t.step("bad paging parameters answer 400 with a clear message", async () => {
      const cases: [string, RegExp][] = [
        ["page=0", /page must be a whole number from 1/],
        ["page=-1", /page must be a whole number/],
        ["page=abc", /page must be a whole number/],
        ["page=1.5", /page must be a whole number/],
        ["page=99999999999999999999", /page must be a whole number/],
        ["limit=0", /limit must be a whole number from 1 to 100/],
        ["limit=1000", /limit must be a whole number from 1 to 100/],
        ["isMonthly=yes", /isMonthly must be true or false/],
        ["page=1&page=2", /given more than once/],
        [`searchString=${"x".repeat(101)}`, /at most 100/],
      ];
      for (const [query, message] of cases) {
        const res = await get(`${SUCCESS}?${query}`);
        assert.equal(res.status, 400, query);
        assert.match(res.body.message, message, query);
      }
    });

    await t.step("isMonthly filters the success list", async () => {
      const monthly = await get(`${SUCCESS}?isMonthly=true&limit=100`);
      assert.equal(monthly.body.total, 9);
      assert.ok(monthly.body.data.every((d: { isMonthly: boolean }) => d.isMonthly));
      const oneTime = await get(`${SUCCESS}?isMonthly=false&limit=100`);
      assert.equal(oneTime.body.total, 16);
      assert.ok(oneTime.body.data.every((d: { isMonthly: boolean }) => !d.isMonthly));
    });

    await t.step("isMonthly filters the error list, with paging and search", async () => {
      const ids = async (query: string) => {
        const out: string[] = [];
        for (let page = 1;; page++) {
          const res = await get(`${ERRORS}?${query}&limit=3&page=${page}`);
          assert.equal(res.status, 200, query);
          out.push(...res.body.data.map((d: { createdAt: string }) => d.createdAt.slice(11, 16)));
          if (res.body.data.length < 3) return { total: res.body.total, times: out };
        }
      };
      // Errors are i = 25..37; monthly when i % 3 === 0; 09:i is when each was made.
      assert.deepEqual(await ids("isMonthly=true"), {
        total: 4,
        times: ["09:36", "09:33", "09:30", "09:27"],
      });
      const oneTime = await ids("isMonthly=false");
      assert.equal(oneTime.total, 9);
      assert.deepEqual(oneTime.times, [
        "09:37",
        "09:35",
        "09:34",
        "09:32",
        "09:31",
        "09:29",
        "09:28",
        "09:26",
        "09:25",
      ]);
      const all = await get(`${ERRORS}?isMonthly=true&limit=100`);
      assert.ok(all.body.data.every((d: { isMonthly: boolean }) => d.isMonthly));
      // Dana made errors 25, 30 and 35; only 30 is monthly.
      assert.deepEqual(await ids("isMonthly=true&searchString=DANA"), { total: 1, times: ["09:30"] });
      assert.deepEqual(await ids("isMonthly=false&searchString=dana"), {
        total: 2,
        times: ["09:35", "09:25"],
      });
      assert.deepEqual(await ids("isMonthly=true&searchString=lucia%40"), { total: 0, times: [] });
      for (const bad of ["isMonthly=yes", "isMonthly=", "isMonthly=TRUE", "isMonthly=true&isMonthly=false"]) {
        const res = await get(`${ERRORS}?${bad}`);
        assert.equal(res.status, 400, bad);
        assert.match(res.body.message, /isMonthly/, bad);
      }
    });

    await t.step("search matches email, first or last name, any case and script", async () => {
      const total = async (path: string, q: string) =>
        (await get(`${path}?searchString=${encodeURIComponent(q)}`)).body.total;
      assert.equal(await total(SUCCESS, "DANA"), 5);
      assert.equal(await total(SUCCESS, "example.co.il"), 5);
      assert.equal(await total(SUCCESS, "דוד"), 5);
      assert.equal(await total(SUCCESS, "иван"), 5, "Cyrillic, case-insensitive");
      assert.equal(await total(SUCCESS, "петров"), 5);
      assert.equal(await total(SUCCESS, "garc"), 5);
      assert.equal(await total(SUCCESS, "nobody"), 0);
      assert.equal(await total(SUCCESS, "%"), 0, "% is literal");
      assert.equal(await total(SUCCESS, "  "), 25, "blank search is no search");
      assert.equal(await total(ERRORS, "lucia@"), 2); // i = 29, 34
      const both = await get(`${SUCCESS}?searchString=dana&isMonthly=true`);
      assert.ok(
        both.body.data.every((d: { isMonthly: boolean; user: { firstName: string } }) =>
          d.isMonthly && d.user.firstName === "Dana"
        ),
      );
      assert.equal(both.body.total, 2); // i = 0, 15
    });
  } finally {
    await app.close();
  }
});
