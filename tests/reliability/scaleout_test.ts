/**
 * Scale-out (issue 7, item 9): two app processes on different ports and one PostgreSQL database.
 * What must hold across instances holds, because it lives in storage: each of these steps would
 * pass with one process and fail if that state were kept in a process's memory.
 * - login throttling: failures on A and B count together (per email and per client address);
 * - nonce replay protection: a signed request accepted by one is refused by the other;
 * - refresh-token reuse detection: a token rotated on A and reused on B revokes the session;
 * - a payment started on A is paid and returned on B, and recorded once;
 * - billing: two passes started at once (two processes) charge each due subscription once.
 */
import assert from "node:assert/strict";
import postgres from "postgres";
import { signPayload } from "@/lib/shared/signing.ts";
import { openPostgresStore } from "@/lib/storage/postgres/mod.ts";
import { billedExactlyOnce, sandboxCharges, seedDueSubscriptions } from "./billing_support.ts";
import { APPROVED_CARD } from "./donor_flows.ts";
import {
  type AppProcess,
  freshDatabase,
  requirePostgres,
  runScript,
  SIZE,
  sized,
  spawnApp,
} from "./process_support.ts";

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body),
});

async function post(app: AppProcess, path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(app.url + path, json(body, headers));
  return { status: res.status, headers: res.headers, body: await res.json() };
}

Deno.test({
  name:
    `scale-out: two app processes on one PostgreSQL share throttling, nonces, sessions, billing (${SIZE})`,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    if (!await requirePostgres("scale-out test")) return;
    const db = await freshDatabase("scaleout");
    const env = { DATABASE_URL: db.url, TRUST_PROXY: "1" };
    const apps: AppProcess[] = [];
    try {
      // Both start at once against the empty database: one migrates, the other waits for it.
      apps.push(
        ...await Promise.all([spawnApp(env, { label: "app A" }), spawnApp(env, { label: "app B" })]),
      );
      const [a, b] = apps;
      assert.notEqual(a.url, b.url);
      const admin = { email: "finance@museum.org", password: "ledger-and-ink-2026" };
      const registered = await post(a, "/api/auth/admin/register", admin);
      assert.equal(registered.status, 201, JSON.stringify(registered.body));

      await t.step(
        "refresh-token reuse: rotated on A, reused on B: the whole session is revoked",
        async () => {
          const login = await post(a, "/api/auth/admin/login", admin, { "x-forwarded-for": "198.51.100.1" });
          assert.equal(login.status, 200);
          const first = login.body.refreshToken;
          const rotated = await post(a, "/api/auth/admin/refresh", { refreshToken: first });
          assert.equal(rotated.status, 200);
          const second = rotated.body.data.refreshToken;
          const reused = await post(b, "/api/auth/admin/refresh", { refreshToken: first });
          assert.equal(reused.status, 401);
          assert.match(reused.body.message, /already used; the session is revoked/);
          for (const app of [a, b]) {
            const revoked = await post(app, "/api/auth/admin/refresh", { refreshToken: second });
            assert.equal(revoked.status, 401, "the token rotated on A went with its family");
          }
        },
      );

      await t.step("login throttling: failures on A and B count together", async () => {
        const from = { "x-forwarded-for": "198.51.100.2" };
        const wrong = { ...admin, password: "not-the-password-1" };
        for (const app of [a, b, a, b, a]) {
          assert.equal((await post(app, "/api/auth/admin/login", wrong, from)).status, 401);
        }
        for (const app of [b, a]) {
          const res = await post(app, "/api/auth/admin/login", admin, from);
          assert.equal(res.status, 429, "even the right password waits, on either instance");
          assert.ok(Number(res.headers.get("retry-after")) > 0);
        }
        // Per client address: five unknown emails, alternating instances, then a sixth is refused.
        const address = { "x-forwarded-for": "198.51.100.3" };
        for (let i = 0; i < 5; i++) {
          const app = i % 2 ? b : a;
          const res = await post(app, "/api/auth/admin/login", {
            email: `x${i}@example.org`,
            password: "guess-1",
          }, address);
          assert.equal(res.status, 401);
        }
        assert.equal(
          (await post(b, "/api/auth/admin/login", { email: "y@example.org", password: "guess-2" }, address))
            .status,
          429,
        );
      });

      await t.step(
        "nonce replay: a signed request accepted by one instance is refused by the other",
        async () => {
          const donor = await post(a, "/api/user", {
            firstName: "Dana",
            lastName: "Levi",
            email: "dana@example.org",
            country: "Israel",
          });
          // A page from A carries a key; B verifies it too (both derive it from APP_SECRET).
          const key = await (await fetch(`${a.url}/api/signing-key`)).json();
          for (const [first, second, amount] of [[a, b, 100], [b, a, 200]] as const) {
            const body = await signPayload(
              { amount, currency: "nis", userId: donor.body.id, isMonthly: false, language: "en" },
              key,
            );
            const accepted = await post(first, "/api/payment/create", body);
            assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
            const replayed = await post(second, "/api/payment/create", body);
            assert.equal(replayed.status, 401);
            assert.match(replayed.body.message, /already received/);
          }
        },
      );

      await t.step("a payment started on A is paid and returned on B, and recorded once", async () => {
        const donor = await post(a, "/api/user", {
          firstName: "Noa",
          lastName: "Cohen",
          email: "noa@example.org",
          country: "Israel",
        });
        const key = await (await fetch(`${a.url}/api/signing-key`)).json();
        const created = await post(
          a,
          "/api/payment/create",
          await signPayload(
            { amount: 50, currency: "dollars", userId: donor.body.id, isMonthly: false, language: "he" },
            key,
          ),
        );
        const pagePath = new URL(created.body.url).pathname;
        const form = new URLSearchParams({
          cardNumber: APPROVED_CARD,
          expiry: "12/30",
          cvv: "123",
          idNumber: "123456789",
        });
        const page = await fetch(b.url + pagePath, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: form,
        });
        const html = await page.text();
        const href = html.match(/href="([^"]*\/payments\/return\/[^"]+)"/)?.[1]?.replaceAll("&amp;", "&");
        assert.ok(href, "the card page on B links back to our return route");
        const returnPath = new URL(href).pathname + new URL(href).search;
        const landed: string[] = [];
        for (const app of [b, a, b]) {
          const back = await fetch(app.url + returnPath, { redirect: "manual" });
          await back.body?.cancel();
          landed.push(new URL(back.headers.get("location")!, app.url).pathname);
        }
        assert.deepEqual(landed, ["/he/success", "/he/success", "/he/success"]);
        const token = registered.body.accessToken;
        const list = await fetch(`${b.url}/api/transaction/get-all-success-transactions?searchString=noa`, {
          headers: { authorization: `Bearer ${token}` },
        });
        assert.equal((await list.json()).total, 1);
      });

      await t.step(
        "billing: two passes started at once charge each due subscription exactly once",
        async () => {
          const store = await openPostgresStore(db.url, { max: 4 });
          const sql = postgres(db.url, { max: 1, onnotice: () => {} });
          try {
            const count = sized(200, 2000);
            const subs = await seedDueSubscriptions(store, count, new Date(Date.now() - 60_000));
            const runs = await Promise.all([
              runScript("scripts/billing.ts", env),
              runScript("scripts/billing.ts", env),
            ]);
            for (const run of runs) assert.equal(run.code, 0, run.output.join("\n"));
            const skipped = runs.filter((r) =>
              r.output.some((l) => l.includes("another runner holds"))
            ).length;
            // A second round, both at once again: nothing is due any more.
            await Promise.all([runScript("scripts/billing.ts", env), runScript("scripts/billing.ts", env)]);
            const charges = await sandboxCharges(sql);
            console.log(
              `billing: ${count} due subscriptions, two passes at once: ${charges} charges ` +
                `(${skipped} of the two found the lease taken)`,
            );
            assert.equal(charges, count);
            assert.deepEqual((await billedExactlyOnce(sql, subs)).slice(0, 10), []);
          } finally {
            await store.close();
            await sql.end({ timeout: 1 });
          }
        },
      );

      for (const app of apps) assert.deepEqual(app.errors.slice(0, 3), [], `${app.label} logged no errors`);
    } finally {
      await Promise.all(apps.map((app) => app.stop()));
      await db.drop();
    }
  },
});
