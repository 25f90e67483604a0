/**
 * The back office's members API on both backends (issue 27, item 8): `GET /api/memberships` lists
 * memberships by end, filtered by state (worked out, a monthly member in grace while billing
 * retries included), level and "ending within N days", searched by number, address (exact or its
 * start) or name, paged by cursor; `GET /api/memberships/{number}` shows one with its terms, its
 * cardholders and the emails sent to the member; `PUT …/cardholders` corrects the names (at most
 * the level's, audited with before and after); `GET /api/memberships/export` is the list as CSV.
 * Finance and up only; every bad input a 400, an unknown member a 404.
 */
import assert from "node:assert/strict";
import { startTestApp } from "@/tests/helpers/app.ts";
import { api, bearer } from "@/tests/helpers/http.ts";
import { backendTest } from "@/tests/helpers/stores.ts";
import { seedMembers } from "@/tests/helpers/members_data.ts";

const LIST = "/api/memberships";
type Row = { number: string; name: string; state: string; levelName: string };

backendTest("api: the back office's members list, a member, cardholders and the CSV", async (t, open) => {
  const app = await startTestApp({ store: await open() });
  try {
    await seedMembers(app.store, new Date());
    const owner = await api(app.url, "POST", "/api/auth/admin/register", {
      email: "curator@museum.org",
      password: "a-long-museum-passphrase",
    });
    const pending = await api(app.url, "POST", "/api/auth/admin/register", {
      email: "guide@museum.org",
      password: "a-long-museum-passphrase",
    });
    const auth = bearer(owner.body.accessToken);
    const get = (path: string) => api(app.url, "GET", path, undefined, auth);
    const numbers = async (query: string) => {
      const res = await get(`${LIST}?${query}`);
      assert.equal(res.status, 200, `${query}: ${JSON.stringify(res.body)}`);
      return res.body.data.map((r: Row) => r.number);
    };

    await t.step("without a token 401, for a pending admin 403", async () => {
      for (const path of [LIST, `${LIST}/1000-001E`, `${LIST}/export`]) {
        assert.equal((await api(app.url, "GET", path)).status, 401, path);
        assert.equal(
          (await api(app.url, "GET", path, undefined, bearer(pending.body.accessToken))).status,
          403,
        );
      }
    });

    await t.step("by end; filtered by state, level and ending within days", async () => {
      assert.deepEqual(await numbers(""), [
        "1000-004N",
        "1000-0052",
        "1000-007W",
        "1000-002V",
        "1000-006F",
        "1000-001E",
        "1000-0038",
      ]);
      assert.deepEqual(await numbers("state=active"), ["1000-002V", "1000-006F", "1000-001E", "1000-0038"]);
      // A one-time term 5 days ended, and a monthly one whose declined charge billing retries.
      assert.deepEqual(await numbers("state=grace"), ["1000-0052", "1000-007W"]);
      assert.deepEqual(await numbers("state=lapsed"), ["1000-004N"]);
      assert.deepEqual(await numbers("level=2"), ["1000-0052", "1000-007W", "1000-001E"]);
      assert.deepEqual(await numbers("level=2&state=active"), ["1000-001E"]);
      assert.deepEqual(await numbers("expiring=30"), ["1000-002V", "1000-006F"]);
      assert.deepEqual(await numbers("expiring=30&level=1"), ["1000-002V"]);
      const res = await get(`${LIST}?state=active&lang=he`);
      const rotem = res.body.data.find((r: Row) => r.number === "1000-0038");
      assert.deepEqual([rotem.name, rotem.state, rotem.levelName], ["רותם בן-דוד", "active", "משפחה"]);
    });

    await t.step("search by number, address (exact or start) and name", async () => {
      assert.deepEqual(await numbers("search=1000-0038"), ["1000-0038"]);
      assert.deepEqual(await numbers("search=10000038"), ["1000-0038"]);
      assert.deepEqual(await numbers(`search=${encodeURIComponent("Noam.Cohen@Example.org")}`), [
        "1000-002V",
      ]);
      assert.deepEqual(await numbers("search=rotem.ben"), ["1000-0038"]);
      assert.deepEqual(await numbers(`search=${encodeURIComponent("בן-דוד")}`), ["1000-0038"]);
      assert.deepEqual(await numbers("search=levi"), ["1000-001E"]);
      assert.deepEqual(await numbers("search=levi&state=lapsed"), []);
      assert.deepEqual(await numbers("search=nobody"), []);
    });

    await t.step("pages by cursor: every member once", async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const res: { status: number; body: { data: Row[]; next: string | null } } = await get(
          `${LIST}?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
        );
        assert.equal(res.status, 200);
        assert.ok(res.body.data.length <= 2);
        seen.push(...res.body.data.map((r) => r.number));
        cursor = res.body.next;
      } while (cursor);
      assert.deepEqual(seen, await numbers(""));
    });

    await t.step("bad filters, cursors and limits are 400s naming the field", async () => {
      for (
        const [query, field] of [
          ["state=sleeping", "state"],
          ["level=0", "level"],
          ["level=x", "level"],
          ["expiring=0", "expiring"],
          ["expiring=400", "expiring"],
          ["limit=1000", "limit"],
          ["cursor=not-a-cursor", "cursor"],
          [`search=${"x".repeat(400)}`, "search"],
        ]
      ) {
        const res = await get(`${LIST}?${query}`);
        assert.equal(res.status, 400, query);
        assert.equal(res.body.statusCode, 400);
        assert.equal(res.body.errors?.[0]?.path ?? field, field, query);
      }
    });

    await t.step("a member: terms newest first with level names, cardholders, emails sent", async () => {
      const res = await get(`${LIST}/1000-0038?lang=he`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("cache-control"), "no-store");
      const m = res.body;
      assert.equal(m.email, "rotem.ben-david@example.org");
      assert.equal(m.name, "רותם בן-דוד");
      assert.equal(m.state, "active");
      assert.equal(m.maxCardholders, 4);
      assert.deepEqual(m.cardholders, ["רותם בן-דוד", "Yael Ben-Dvid"]);
      assert.deepEqual(m.terms.map((x: { kind: string; levelName: string }) => [x.kind, x.levelName]), [
        ["upgrade", "משפחה"],
        ["join", "תומך"],
      ]);
      const ada = (await get(`${LIST}/1000-001e`)).body;
      assert.deepEqual(ada.emails.map((e: { kind: string }) => e.kind), ["receipt"]);
      assert.equal((await get(`${LIST}/1000-0089`)).status, 404);
      const bad = await get(`${LIST}/not-a-number`);
      assert.equal(bad.status, 400);
      assert.match(bad.body.message, /member number/);
    });

    await t.step(
      "staff correct a cardholder's name: audited before and after; the level's limit",
      async () => {
        const put = (number: string, body: unknown) =>
          api(app.url, "PUT", `${LIST}/${number}/cardholders`, body, auth);
        const ok = await put("1000-0038", { cardholders: [" Rotem Ben-David ", "Yael Ben-David"] });
        assert.equal(ok.status, 200, JSON.stringify(ok.body));
        assert.deepEqual(ok.body.cardholders, ["Rotem Ben-David", "Yael Ben-David"]);
        assert.deepEqual((await get(`${LIST}/1000-0038`)).body.cardholders, [
          "Rotem Ben-David",
          "Yael Ben-David",
        ]);
        const [entry] = await app.store.audit.list({ action: "membership-cardholders-changed" }, 10);
        assert.equal(entry.target, "1000-0038");
        assert.equal(entry.actorEmail, "curator@museum.org");
        assert.deepEqual(entry.changes, {
          before: ["רותם בן-דוד", "Yael Ben-Dvid"],
          after: ["Rotem Ben-David", "Yael Ben-David"],
        });
        const five = await put("1000-0038", { cardholders: ["A", "B", "C", "D", "E"] });
        assert.equal(five.status, 400);
        assert.match(five.body.message, /at most 4/);
        assert.equal((await put("1000-002V", { cardholders: ["Noam", "Gal"] })).status, 400);
        for (
          const body of [{}, { cardholders: "Noam" }, { cardholders: [""] }, { cardholders: ["a\u0000b"] }]
        ) {
          assert.equal((await put("1000-002V", body)).status, 400, JSON.stringify(body));
        }
        assert.equal((await put("1000-0089", { cardholders: [] })).status, 404);
        assert.equal(
          (await app.store.audit.list({ action: "membership-cardholders-changed" }, 10)).length,
          1,
        );
      },
    );

    await t.step(
      "the CSV: a byte order mark, the header in the page's language, formulas defused",
      async () => {
        await api(
          app.url,
          "PUT",
          `${LIST}/1000-006F/cardholders`,
          { cardholders: ['=HYPERLINK("x")'] },
          auth,
        );
        const res = await fetch(`${app.url}${LIST}/export?lang=he&state=active`, { headers: auth });
        assert.equal(res.status, 200);
        assert.match(res.headers.get("content-type")!, /^text\/csv/);
        assert.match(res.headers.get("content-disposition")!, /attachment; filename="members-/);
        const bytes = new Uint8Array(await res.arrayBuffer());
        assert.deepEqual([...bytes.slice(0, 3)], [0xef, 0xbb, 0xbf]);
        const lines = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes).slice(1).trimEnd().split(
          "\r\n",
        );
        assert.equal(lines.length, 5);
        assert.match(lines[0], /מספר חבר/);
        assert.ok(lines.some((l) => l.includes("'=HYPERLINK")), lines.join("\n"));
        assert.ok(lines.some((l) => l.startsWith("1000-0038,רותם בן-דוד,")));
        const [entry] = await app.store.audit.list({ action: "export" }, 10);
        assert.equal(entry.changes.kind, "memberships");
      },
    );
    await t.step("reports: active members per level now, the renewal rate per month", async () => {
      const res = await get("/api/reports/memberships?months=24&lang=he");
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(
        res.body.perLevel.map((l: { levelName: string; count: number }) => [l.levelName, l.count]),
        [["ידיד", 1], ["תומך", 1], ["משפחה", 1], ["פטרון", 1]],
      );
      assert.equal(res.body.total, 4);
      assert.equal(res.body.months.length, 24);
      type Month = { ended: number; renewed: number; pending: number; rate: number | null };
      const sum = (k: "ended" | "renewed" | "pending") =>
        res.body.months.reduce((n: number, m: Month) => n + m[k], 0);
      // Seven joins renewed at once; one last term lapsed (60 days ago), two still in grace.
      assert.deepEqual([sum("ended"), sum("renewed"), sum("pending")], [10, 7, 2]);
      const lapsedMonth = res.body.months.find((m: Month) => m.ended > m.renewed + m.pending);
      assert.ok(lapsedMonth && lapsedMonth.rate !== null && lapsedMonth.rate < 1);
      for (const query of ["months=0", "months=37", "months=x"]) {
        assert.equal((await get(`/api/reports/memberships?${query}`)).status, 400, query);
      }
    });
  } finally {
    await app.close();
  }
});
