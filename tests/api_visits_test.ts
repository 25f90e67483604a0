/**
 * The front desk's API (issue 28) on both backends: a member looked up by the card's scanned token
 * (a changed token refused, an expired genuine one still naming its member, the state read from
 * storage), by number and by a search of the name; a check-in recorded once per the desk's id (the
 * same id again stores nothing more), refused for a lapsed member or too many guests; allow anyway
 * only with a reason; both audited; the day's list, a member's visits and the report count them;
 * bad input answers 400 with JSON, never 5xx; the roles the desk calls are the desk's, admins' and
 * owners'.
 *
 * @module
 */
import assert from "node:assert/strict";
import { memberCardKey, signMemberCardToken } from "@/lib/memberships/mod.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { api, bearer } from "@/tests/helpers/http.ts";
import { MEMBERS, seedMembers } from "@/tests/helpers/members_data.ts";
import { tokensFor } from "@/tests/helpers/role_tokens.ts";
import { backendTest } from "@/tests/helpers/stores.ts";

const byName = (first: string) => MEMBERS.find((m) => m.firstName === first)!;

backendTest("api: the front desk looks members up and checks them in, once per id", async (t, open) => {
  const store = await open();
  const app = await startTestApp({ store });
  try {
    const now = new Date();
    await seedMembers(store, now);
    const tokens = await tokensFor(app, store);
    const desk = bearer(tokens.get("desk")!);
    const key = await memberCardKey(app.config.appSecret);
    const rotem = byName("רותם"); // level 3, two cardholders, active
    const boris = byName("Boris"); // lapsed 60 days ago
    const dana = byName("Dana"); // in grace (ended 5 days ago)

    await t.step("by the card's token: the second cardholder of an active member", async () => {
      const token = await signMemberCardToken(key, {
        number: rotem.number,
        levelId: 3,
        validUntil: new Date(now.getTime() + 300 * 86_400_000).toISOString(),
        holder: 1,
        name: "Yael Ben-Dvid",
      }, 30);
      const { status, body } = await api(
        app.url,
        "GET",
        `/api/visits/member?lang=en&token=${token}`,
        undefined,
        desk,
      );
      assert.equal(status, 200);
      assert.equal(body.state, "active");
      assert.equal(body.number, rotem.number);
      assert.deepEqual(body.cardholders, rotem.cardholders);
      assert.equal(body.holder, 1);
      assert.equal(body.levelId, 3);
      assert.equal(body.guests, 2, "the third default level admits two guests");
      assert.ok(body.levelName.length > 0);
    });

    await t.step("a tampered token is refused (400, JSON); another key's too", async () => {
      const token = await signMemberCardToken(key, {
        number: rotem.number,
        levelId: 3,
        validUntil: now.toISOString(),
        holder: 0,
        name: "x",
      }, 30);
      const [head, payload, signature] = token.split(".");
      const forged = JSON.parse(atob(payload.replace(/-/g, "+").replace(/_/g, "/")));
      forged.sub = boris.number;
      const changed = [
        head,
        btoa(JSON.stringify(forged)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_"),
        signature,
      ]
        .join(".");
      const other = await signMemberCardToken(await memberCardKey("another secret entirely"), {
        number: rotem.number,
        levelId: 3,
        validUntil: now.toISOString(),
        holder: 0,
        name: "x",
      }, 30);
      for (const bad of [changed, other, "not-a-token", token.slice(0, -3) + "AAA"]) {
        const { status, body } = await api(
          app.url,
          "GET",
          `/api/visits/member?token=${bad}`,
          undefined,
          desk,
        );
        assert.equal(status, 400, bad);
        assert.equal(body.statusCode, 400);
        assert.match(body.message, /not a valid member card/);
      }
    });

    await t.step(
      "a genuine card past its expiry still names its member; the state is storage's",
      async () => {
        const old = await signMemberCardToken(
          key,
          {
            number: rotem.number,
            levelId: 1,
            validUntil: "2020-01-01T00:00:00.000Z",
            holder: 0,
            name: "רותם בן-דוד",
          },
          30,
          new Date("2019-01-01T00:00:00Z"),
        );
        const { status, body } = await api(
          app.url,
          "GET",
          `/api/visits/member?token=${old}`,
          undefined,
          desk,
        );
        assert.equal(status, 200);
        assert.equal(body.state, "active", "renewed since the card was printed");
        assert.equal(body.levelId, 3);
      },
    );

    await t.step("by number: grace, lapsed, unknown; bad input 400", async () => {
      const grace = await api(app.url, "GET", `/api/visits/member?number=${dana.number}`, undefined, desk);
      assert.equal(grace.body.state, "grace");
      const lapsed = await api(
        app.url,
        "GET",
        `/api/visits/member?number=${boris.number.toLowerCase()}`,
        undefined,
        desk,
      );
      assert.equal(lapsed.body.state, "lapsed");
      const unknown = await api(app.url, "GET", `/api/visits/member?number=PT4A-8XH2`, undefined, desk);
      assert.equal(unknown.status, 200);
      assert.equal(unknown.body.state, "unknown");
      for (const q of ["number=12", "", `number=${rotem.number}&token=abc`, "number=" + "9".repeat(50)]) {
        const { status, body } = await api(app.url, "GET", `/api/visits/member?${q}`, undefined, desk);
        assert.equal(status, 400, q);
        assert.equal(body.statusCode, 400);
      }
    });

    await t.step("search by name (bounded), by address", async () => {
      const { status, body } = await api(
        app.url,
        "GET",
        `/api/visits/search?q=levi&lang=he`,
        undefined,
        desk,
      );
      assert.equal(status, 200);
      assert.deepEqual(body.data.map((m: { number: string }) => m.number), [byName("Ada").number]);
      const mail = await api(app.url, "GET", `/api/visits/search?q=boris.ivanov@`, undefined, desk);
      assert.equal(mail.body.data[0].state, "lapsed");
      const short = await api(app.url, "GET", `/api/visits/search?q=a`, undefined, desk);
      assert.equal(short.status, 400);
    });

    const id = crypto.randomUUID();
    await t.step("check in: once per id, audited once; the same id again answers the first", async () => {
      const body = { id, kind: "check-in", number: rotem.number, holder: 1, guests: 2 };
      const first = await api(app.url, "POST", "/api/visits?lang=en", body, desk);
      assert.equal(first.status, 201, JSON.stringify(first.body));
      assert.equal(first.body.repeated, false);
      assert.equal(first.body.visit.cardholder, "Yael Ben-Dvid");
      assert.equal(first.body.visit.guests, 2);
      const again = await api(app.url, "POST", "/api/visits", { ...body, guests: 0 }, desk);
      assert.equal(again.status, 200);
      assert.equal(again.body.repeated, true);
      assert.deepEqual(again.body.visit.guests, 2);
      assert.equal((await store.visits.listByNumber(rotem.number, 10)).length, 1);
      const audit = await store.audit.list({ action: "member-checked-in" }, 10);
      assert.equal(audit.length, 1);
      assert.equal(audit[0].target, rotem.number);
    });

    await t.step(
      "check in refused: lapsed, unknown, too many guests (409); a grace member gets in",
      async () => {
        const lapsed = await api(app.url, "POST", "/api/visits", {
          id: crypto.randomUUID(),
          kind: "check-in",
          number: boris.number,
          guests: 0,
        }, desk);
        assert.equal(lapsed.status, 409);
        assert.equal(lapsed.body.statusCode, 409);
        const many = await api(app.url, "POST", "/api/visits", {
          id: crypto.randomUUID(),
          kind: "check-in",
          number: rotem.number,
          guests: 3,
        }, desk);
        assert.equal(many.status, 409);
        const grace = await api(app.url, "POST", "/api/visits", {
          id: crypto.randomUUID(),
          kind: "check-in",
          number: dana.number,
          guests: 0,
        }, desk);
        assert.equal(grace.status, 201);
      },
    );

    await t.step("allow anyway needs a reason; with one it is recorded and audited", async () => {
      const none = await api(app.url, "POST", "/api/visits", {
        id: crypto.randomUUID(),
        kind: "override",
        number: boris.number,
        guests: 0,
      }, desk);
      assert.equal(none.status, 400);
      assert.match(none.body.message, /reason/);
      const blank = await api(app.url, "POST", "/api/visits", {
        id: crypto.randomUUID(),
        kind: "override",
        number: boris.number,
        guests: 0,
        reason: "   ",
      }, desk);
      assert.equal(blank.status, 400);
      const ok = await api(app.url, "POST", "/api/visits", {
        id: crypto.randomUUID(),
        kind: "override",
        number: boris.number,
        guests: 1,
        reason: "Renewing at the desk today",
      }, desk);
      assert.equal(ok.status, 201);
      assert.equal(ok.body.visit.kind, "override");
      assert.equal(ok.body.visit.reason, "Renewing at the desk today");
      const stranger = await api(app.url, "POST", "/api/visits", {
        id: crypto.randomUUID(),
        kind: "override",
        number: null,
        name: "A visiting curator",
        guests: 0,
        reason: "Guest of the director",
      }, desk);
      assert.equal(stranger.status, 201);
      assert.equal(stranger.body.visit.cardholder, "A visiting curator");
      const audit = await store.audit.list({ action: "member-check-in-override" }, 10);
      assert.equal(audit.length, 2);
      assert.equal(
        audit.find((e) => e.target === boris.number)?.changes.reason,
        "Renewing at the desk today",
      );
    });

    await t.step("bad bodies: 400 with JSON, never 5xx", async () => {
      const bodies = [
        {},
        { id: "short", kind: "check-in", number: rotem.number, guests: 0 },
        { id: crypto.randomUUID(), kind: "enter", number: rotem.number, guests: 0 },
        { id: crypto.randomUUID(), kind: "check-in", number: rotem.number, guests: -1 },
        { id: crypto.randomUUID(), kind: "check-in", number: rotem.number, guests: 1.5 },
        { id: crypto.randomUUID(), kind: "check-in", number: null, guests: 0 },
        { id: crypto.randomUUID(), kind: "check-in", number: "nope", guests: 0 },
        { id: crypto.randomUUID(), kind: "check-in", number: rotem.number, guests: 0, extra: 1 },
        "not json",
      ];
      for (const b of bodies) {
        const { status, body } = await api(app.url, "POST", "/api/visits", b, desk);
        assert.equal(status, 400, JSON.stringify(b));
        assert.equal(body.statusCode, 400);
        assert.equal(typeof body.message, "string");
      }
    });

    await t.step("the day's list, a member's visits, the report", async () => {
      const day = await api(app.url, "GET", "/api/visits?lang=en", undefined, desk);
      assert.equal(day.status, 200);
      assert.equal(day.body.data.length, 4);
      const owner = bearer(tokens.get("owner")!);
      const mine = await api(app.url, "GET", `/api/memberships/${rotem.number}/visits`, undefined, owner);
      assert.equal(mine.status, 200);
      assert.deepEqual(mine.body.data.map((v: { id: string }) => v.id), [id]);
      const report = await api(app.url, "GET", "/api/visits/report?lang=en", undefined, owner);
      assert.equal(report.status, 200);
      const today = report.body.perDay.at(-1);
      assert.deepEqual([today.visits, today.guests, today.overrides], [4, 3, 2]);
      assert.equal(report.body.perLevel.find((l: { levelId: number }) => l.levelId === 3).visits, 1);
      const bad = await api(app.url, "GET", "/api/visits?day=2026-13-45", undefined, desk);
      assert.equal(bad.status, 400);
      const cursor = await api(app.url, "GET", "/api/visits?cursor=nonsense", undefined, desk);
      assert.equal(cursor.status, 400);
    });

    await t.step("the desk role: its own calls only", async () => {
      for (
        const path of ["/api/memberships", "/api/overview", "/api/transaction/get-all-success-transactions"]
      ) {
        const { status } = await api(app.url, "GET", path, undefined, desk);
        assert.equal(status, 403, path);
      }
      const viewer = bearer(tokens.get("viewer")!);
      assert.equal((await api(app.url, "GET", "/api/visits/search?q=levi", undefined, viewer)).status, 403);
      assert.equal((await api(app.url, "GET", "/api/visits/report", undefined, desk)).status, 403);
    });
  } finally {
    await app.close();
  }
});
