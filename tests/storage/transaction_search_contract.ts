/**
 * The storage contract for searching transactions (`search` of `listSuccess()`, `listErrors()` and
 * `scan()`): email, first or last name, in any case and script, `%`, `_` and `\` taken literally,
 * and searches that match many donors (or two fields of one) counting and paging each match once.
 *
 * @module
 */

import type { Transaction } from "@/lib/storage/types.ts";
import assert from "node:assert/strict";
import { at, txFixture } from "./fixtures.ts";
import { allPages, type ContractOptions, scanAll, withStore } from "./support.ts";

/** The contract of transaction searches; each step has fresh data of its own. */
export async function transactionSearchContract(
  t: Deno.TestContext,
  { fresh }: ContractOptions,
): Promise<void> {
  await t.step(
    "transactions: searches matching many donors, or two fields of one, count and page each match once",
    () =>
      withStore(fresh(), async (store) => {
        // 230 donors: every email contains "bulk", every tenth first name too ("Bulky").
        const txs = Array.from({ length: 230 }, (_, i) =>
          txFixture({
            kind: i % 4 === 3 ? "error" : "success",
            isMonthly: i % 3 === 0,
            createdAt: at(i * 1000),
            user: {
              firstName: i % 10 === 0 ? "Bulky" : "Ann",
              lastName: "Smith",
              email: `bulk${i}@example.net`,
            },
          }));
        assert.deepEqual(await store.transactions.import(txs.slice(0, 200)), 200);
        for (const tx of txs.slice(200)) await store.transactions.record(tx);
        const expect = (term: string, kind: Transaction["kind"], isMonthly?: boolean) =>
          txs.filter((tx) =>
            tx.kind === kind && (isMonthly === undefined || tx.isMonthly === isMonthly) &&
            [tx.user.email, tx.user.firstName, tx.user.lastName].some((f) => f.toLowerCase().includes(term))
          ).map((tx) => tx.id).reverse();
        // "bulk": 230 distinct emails and a first name; "ulk1": 111 emails; "bulky": one first name;
        // "smith" one last name on every transaction.
        for (const term of ["bulk", "ulk1", "bulky", "smith", "k2", "@"]) {
          for (const isMonthly of [undefined, true, false]) {
            const ids = expect(term, "success", isMonthly);
            const pages = await allPages(
              (q) => store.transactions.listSuccess({ ...q, isMonthly, search: term.toUpperCase() }),
              25,
              ids.length,
            );
            assert.deepEqual(pages.ids, ids, `success ${term} ${isMonthly}`);
          }
          for (const isMonthly of [undefined, true, false]) {
            const ids = expect(term, "error", isMonthly);
            const errors = await allPages(
              (q) => store.transactions.listErrors({ ...q, isMonthly, search: term }),
              9,
              ids.length,
            );
            assert.deepEqual(errors.ids, ids, `errors ${term} ${isMonthly}`);
          }
          // scan() reads the same, in batches.
          for (const kind of ["success", "error"] as const) {
            for (const isMonthly of [undefined, true, false]) {
              const { ids } = await scanAll(store, { kind, isMonthly, search: term.toUpperCase() }, 13);
              assert.deepEqual(ids, expect(term, kind, isMonthly), `scan ${kind} ${term} ${isMonthly}`);
            }
          }
        }
      }),
  );

  await t.step(
    "transactions: a search of names only never matches an email, however many names match",
    () =>
      withStore(fresh(), async (store) => {
        // 230 first names containing "name" (past the narrow search's 200 values), 5 donors whose
        // email alone contains it, and one whose last name is an address.
        const txs = [
          ...Array.from({ length: 230 }, (_, i) =>
            txFixture({
              kind: i % 4 === 3 ? "error" : "success",
              isMonthly: i % 3 === 0,
              createdAt: at(i * 1000),
              user: { firstName: `Name${i}`, lastName: "Smith", email: `d${i}@example.net` },
            })),
          ...Array.from({ length: 5 }, (_, i) =>
            txFixture({
              kind: i % 2 === 0 ? "success" : "error",
              createdAt: at(300_000 + i),
              user: { firstName: "Other", lastName: "Person", email: `name.only${i}@example.net` },
            })),
          txFixture({
            createdAt: at(400_000),
            user: { firstName: "Odd", lastName: "odd@name.example", email: "odd@example.net" },
          }),
        ];
        assert.deepEqual(await store.transactions.import(txs.slice(0, 200)), 200);
        for (const tx of txs.slice(200)) await store.transactions.record(tx);
        const expect = (term: string, kind: Transaction["kind"], isMonthly?: boolean) =>
          txs.filter((tx) =>
            tx.kind === kind && (isMonthly === undefined || tx.isMonthly === isMonthly) &&
            [tx.user.firstName, tx.user.lastName].some((f) =>
              !f.includes("@") && f.toLowerCase().includes(term)
            )
          ).map((tx) => tx.id).reverse();
        // "name": 230 first names (the wide path) and 6 addresses; "name1": 41 names; "only",
        // "example" and "@": addresses (and a name that is one) alone.
        for (const term of ["name", "name1", "name229", "only", "example", "@", "smith"]) {
          for (const isMonthly of [undefined, true, false]) {
            for (const kind of ["success", "error"] as const) {
              const ids = expect(term, kind, isMonthly);
              const query = { isMonthly, search: term.toUpperCase(), searchScope: "names" } as const;
              const pages = await allPages(
                (q) =>
                  kind === "success"
                    ? store.transactions.listSuccess({ ...q, ...query })
                    : store.transactions.listErrors({ ...q, ...query }),
                25,
                ids.length,
              );
              assert.deepEqual(pages.ids, ids, `${kind} ${term} ${isMonthly}`);
            }
          }
        }
      }),
  );

  await t.step(
    "transactions: search matches email, first or last name; any case, any script; % and _ literally",
    () =>
      withStore(fresh(), async (store) => {
        const people = [
          { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", isMonthly: true },
          { firstName: "דוד", lastName: "כהן", email: "david@example.org", isMonthly: false },
          { firstName: "Иван", lastName: "Петров", email: "ivan@example.ru", isMonthly: true },
          { firstName: "Per", lastName: "Cent", email: "a%b@example.com", isMonthly: false },
          { firstName: "Decoy", lastName: "Percent", email: "axxb@example.com", isMonthly: true },
          { firstName: "Under", lastName: "Score", email: "first_last@example.com", isMonthly: false },
          { firstName: "Decoy", lastName: "Underscore", email: "firstalast@example.com", isMonthly: true },
          { firstName: "Back", lastName: "Slash\\", email: "back\\slash@example.com", isMonthly: false },
        ];
        const byName: Record<string, Transaction> = {};
        for (const [i, p] of people.entries()) {
          const tx = txFixture({
            isMonthly: p.isMonthly,
            user: { firstName: p.firstName, lastName: p.lastName, email: p.email },
            createdAt: at(i),
          });
          await store.transactions.record(tx);
          byName[p.email] = tx;
        }
        const error = txFixture({
          kind: "error",
          user: { firstName: "Ada", lastName: "Byron", email: "ada@example.com" },
        });
        await store.transactions.record(error);

        const search = async (term: string, isMonthly?: boolean) => {
          const page = await store.transactions.listSuccess({ page: 1, limit: 50, search: term, isMonthly });
          assert.deepEqual(page.total, page.data.length);
          return page.data.map((tx) => tx.user.email);
        };
        assert.deepEqual(await search("LOVELACE"), ["ada@example.com"]);
        assert.deepEqual(await search("lovel"), ["ada@example.com"]);
        assert.deepEqual(await search("EXAMPLE.ORG"), ["david@example.org"]);
        assert.deepEqual(await search("דוד"), ["david@example.org"]);
        assert.deepEqual(await search("כה"), ["david@example.org"]);
        assert.deepEqual(await search("Иван"), ["ivan@example.ru"]);
        assert.deepEqual(await search("иван"), ["ivan@example.ru"]);
        assert.deepEqual(await search("ПЕТРОВ"), ["ivan@example.ru"]);
        assert.deepEqual(await search("  ivan@ "), ["ivan@example.ru"], "the term is trimmed");
        assert.deepEqual(await search("a%b"), ["a%b@example.com"]);
        assert.deepEqual(await search("%"), ["a%b@example.com"]);
        assert.deepEqual(await search("t_l"), ["first_last@example.com"]);
        assert.deepEqual(await search("_"), ["first_last@example.com"]);
        assert.deepEqual(await search("\\"), ["back\\slash@example.com"]);
        assert.deepEqual(await search("k\\s"), ["back\\slash@example.com"]);
        assert.deepEqual(await search("nobody"), []);
        assert.deepEqual(await search("decoy", true), ["firstalast@example.com", "axxb@example.com"]);
        assert.deepEqual(await search("decoy", false), []);
        assert.deepEqual(await search("a", true), [
          "firstalast@example.com",
          "axxb@example.com",
          "ivan@example.ru",
          "ada@example.com",
        ]);

        // Newest first, paged, with the total of the matches.
        const everyone = people.map((p) => p.email).reverse();
        const pages = await allPages(
          (q) => store.transactions.listSuccess({ ...q, search: "EXAMPLE" }),
          3,
          8,
        );
        assert.deepEqual(pages.sizes, [3, 3, 2, 0]);
        assert.deepEqual(pages.ids, everyone.map((email) => byName[email].id));
        assert.deepEqual(
          await store.transactions.listSuccess({ page: 3, limit: 2, search: "example", isMonthly: true }),
          { data: [], total: 4 },
        );
        assert.deepEqual(await store.transactions.listSuccess({ page: 2, limit: 2, search: "nobody" }), {
          data: [],
          total: 0,
        });
        // A blank search is no search.
        assert.deepEqual(
          (await store.transactions.listSuccess({ page: 1, limit: 1, search: "  " })).total,
          8,
        );

        assert.deepEqual(await store.transactions.listErrors({ page: 1, limit: 10, search: "BYRON" }), {
          data: [error],
          total: 1,
        });
        assert.deepEqual(await store.transactions.listErrors({ page: 1, limit: 10, search: "lovelace" }), {
          data: [],
          total: 0,
        });
        // The payment filter applies to a search of errors too (the error is one-time).
        assert.deepEqual(
          await store.transactions.listErrors({ page: 1, limit: 10, search: "byron", isMonthly: false }),
          { data: [error], total: 1 },
        );
        assert.deepEqual(
          await store.transactions.listErrors({ page: 1, limit: 10, search: "byron", isMonthly: true }),
          { data: [], total: 0 },
        );
        assert.deepEqual(await store.transactions.scan({ kind: "error", search: "BYRON", limit: 5 }), {
          data: [error],
          next: null,
        });
      }),
  );
}
