/**
 * Admin sign-in and sessions under races and over time (issue 13, items 4 and 5), on both
 * backends: a parallel burst of wrong passwords gets at most 5 hashes and 5 counted failures; a
 * session (a refresh-token family) ends 30 days after its sign-in however often it is refreshed;
 * two decisions on one pending admin at once: one wins, the other is told 409.
 */
import assert from "node:assert/strict";
import { hashRefreshToken, newRefreshToken, REFRESH_FAMILY_MAX_DAYS } from "@/lib/staff/tokens.ts";
import { startTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { api, bearer } from "@/tests/helpers/http.ts";
import { backendTest } from "@/tests/helpers/stores.ts";

const PASSWORD = "a-long-museum-passphrase";
const DAY = 86_400_000;

const register = (app: TestApp, email: string) =>
  api(app.url, "POST", "/api/auth/admin/register", { email, password: PASSWORD });

backendTest(
  "api: a parallel burst of wrong passwords counts at most 5 failures and hashes at most 5",
  async (t, open) => {
    const app = await startTestApp({ store: await open(), env: { TRUST_PROXY: "1" } });
    try {
      await register(app, "keeper@museum.org");
      const hashesBefore = app.services.passwords.stats.accepted;
      // From 20 addresses, so that only the email's limit applies.
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          api(app.url, "POST", "/api/auth/admin/login", {
            email: "keeper@museum.org",
            password: `wrong-guess-${i}`,
          }, { "x-forwarded-for": `198.51.100.${i + 1}` })),
      );
      const statuses = answers.map((a) => a.status);

      await t.step("at most 5 guesses were checked; the rest were refused with 429 and Retry-After", () => {
        assert.equal(statuses.filter((s) => s === 401).length, 5, `statuses ${statuses}`);
        assert.equal(statuses.filter((s) => s === 429).length, 15, `statuses ${statuses}`);
        for (const a of answers.filter((a) => a.status === 429)) {
          assert.ok(Number(a.headers.get("retry-after")) > 0);
        }
      });

      await t.step("5 failures are stored and 5 hashes were spent", async () => {
        const failures = await app.store.throttle.recent(
          "login:email:keeper@museum.org",
          Date.now(),
          900_000,
        );
        assert.equal(failures.length, 5);
        assert.equal(app.services.passwords.stats.accepted - hashesBefore, 5);
      });

      await t.step("the email stays locked, even with the right password", async () => {
        const res = await api(app.url, "POST", "/api/auth/admin/login", {
          email: "keeper@museum.org",
          password: PASSWORD,
        }, { "x-forwarded-for": "198.51.100.200" });
        assert.equal(res.status, 429);
      });

      await t.step("a success gives its address's slot back", async () => {
        await register(app, "guide@museum.org");
        for (let i = 0; i < 6; i++) {
          const res = await api(app.url, "POST", "/api/auth/admin/login", {
            email: "guide@museum.org",
            password: PASSWORD,
          }, { "x-forwarded-for": "192.0.2.7" });
          assert.equal(res.status, 200, `sign-in ${i + 1}`);
        }
        assert.deepEqual(await app.store.throttle.recent("login:addr:192.0.2.7", Date.now(), 900_000), []);
      });
    } finally {
      await app.close();
    }
  },
);

backendTest(
  "api: a session ends 30 days after its sign-in, however often it was refreshed",
  async (t, open) => {
    const app = await startTestApp({ store: await open() });
    try {
      const admin = (await register(app, "curator@museum.org")).body;
      const now = Date.now();
      const iso = (ms: number) => new Date(ms).toISOString();
      /** A token of a family that signed in `ageDays` ago, made a day ago, expiring in 13 days. */
      const tokenOfFamilyAged = async (ageDays: number) => {
        const { token, hash } = await newRefreshToken();
        await app.store.refreshTokens.create({
          hash,
          adminId: admin.id,
          familyId: `family-${ageDays}`,
          familyStartedAt: iso(now - ageDays * DAY),
          createdAt: iso(now - DAY),
          expiresAt: iso(now + 13 * DAY),
          usedAt: null,
        });
        return token;
      };
      const refresh = (refreshToken: string) =>
        api(app.url, "POST", "/api/auth/admin/refresh", { refreshToken });

      await t.step("a family 31 days old is refused with 401, its token still unexpired", async () => {
        const res = await refresh(await tokenOfFamilyAged(REFRESH_FAMILY_MAX_DAYS + 1));
        assert.equal(res.status, 401);
        assert.match(res.body.message, /30-day limit; sign in again/);
      });

      await t.step(
        "a family 29 days old is refreshed, into a token that expires when the family ends",
        async () => {
          const res = await refresh(await tokenOfFamilyAged(REFRESH_FAMILY_MAX_DAYS - 1));
          assert.equal(res.status, 200);
          const next = await app.store.refreshTokens.get(await hashRefreshToken(res.body.data.refreshToken));
          assert.ok(next);
          assert.equal(next.familyStartedAt, iso(now - (REFRESH_FAMILY_MAX_DAYS - 1) * DAY));
          assert.equal(next.expiresAt, iso(now + DAY), "not 14 days: the family ends in one");
          const me = await api(
            app.url,
            "GET",
            "/api/auth/admin/me",
            undefined,
            bearer(res.body.data.accessToken),
          );
          assert.equal(me.status, 200);
        },
      );

      await t.step("a new sign-in starts a family now, carried through a refresh", async () => {
        const session = (await api(app.url, "POST", "/api/auth/admin/login", {
          email: "curator@museum.org",
          password: PASSWORD,
        })).body;
        const first = await app.store.refreshTokens.get(await hashRefreshToken(session.refreshToken));
        const res = await refresh(session.refreshToken);
        assert.equal(res.status, 200);
        const second = await app.store.refreshTokens.get(await hashRefreshToken(res.body.data.refreshToken));
        assert.ok(first && second);
        assert.equal(second.familyStartedAt, first.familyStartedAt);
        assert.equal(first.familyStartedAt, first.createdAt);
      });
    } finally {
      await app.close();
    }
  },
);

backendTest(
  "api: two decisions on one pending admin at once: one wins, the other gets 409",
  async (t, open) => {
    const app = await startTestApp({ store: await open() });
    try {
      const approver = (await register(app, "director@museum.org")).body;
      assert.equal(approver.status, "approved");
      for (let round = 0; round < 4; round++) {
        await t.step(`round ${round + 1}`, async () => {
          const pending = (await register(app, `applicant${round}@museum.org`)).body;
          assert.equal(pending.status, "pending");
          const decide = (verb: "approve" | "reject") =>
            api(
              app.url,
              "POST",
              `/api/auth/admin/${pending.id}/${verb}`,
              undefined,
              bearer(approver.accessToken),
            );
          const [approve, reject] = await Promise.all([decide("approve"), decide("reject")]);
          const statuses = [approve.status, reject.status].sort();
          assert.deepEqual(statuses, [200, 409], `approve ${approve.status}, reject ${reject.status}`);
          const [winner, loser] = approve.status === 200 ? [approve, reject] : [reject, approve];
          assert.match(loser.body.message, new RegExp(`^This admin is already ${winner.body.status}$`));
          const stored = await app.store.admins.get(pending.id);
          assert.equal(stored?.status, winner.body.status, "what is stored is what the winner was told");
        });
      }
    } finally {
      await app.close();
    }
  },
);
