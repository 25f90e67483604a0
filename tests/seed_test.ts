/** `deno task seed`: an approved demo admin and realistic transactions, idempotent. */
import assert from "node:assert/strict";
import { verifyPassword } from "@/lib/staff/passwords.ts";
import { openKvStore } from "@/lib/storage/kv/mod.ts";
import { ROOT } from "@/tests/helpers/app.ts";

Deno.test("seed fills a store with an approved admin and transactions, once", async () => {
  const dir = await Deno.makeTempDir();
  const env = {
    KV_PATH: `${dir}/kv.sqlite3`,
    APP_SECRET: "x".repeat(40),
    SEED_COUNT: "60",
    SEED_ADMIN_EMAIL: "Demo@Museum.test",
    SEED_ADMIN_PASSWORD: "quiet-gallery-hours",
    NO_COLOR: "1",
  };
  const run = () =>
    new Deno.Command(Deno.execPath(), { args: ["run", "-A", `${ROOT}/scripts/seed.ts`], env, clearEnv: true })
      .output();
  try {
    const first = await run();
    assert.equal(first.code, 0, new TextDecoder().decode(first.stderr));
    assert.match(new TextDecoder().decode(first.stdout), /transactions: 60 recorded/);
    const second = await run();
    assert.match(new TextDecoder().decode(second.stdout), /transactions: 0 recorded \(60 already there\)/);

    const store = await openKvStore(env.KV_PATH);
    try {
      const admin = await store.admins.getByEmail("demo@museum.test");
      assert.equal(admin?.status, "approved");
      assert.ok(await verifyPassword("quiet-gallery-hours", admin!.passwordHash));
      const ok = await store.transactions.listSuccess({ page: 1, limit: 100 });
      const errors = await store.transactions.listErrors({ page: 1, limit: 100 });
      assert.equal(ok.total + errors.total, 60);
      assert.ok(ok.total > errors.total, "mostly successes");
      const names = [...ok.data, ...errors.data].map((t) => t.user.firstName + t.user.lastName).join(" ");
      assert.match(names, /[\u0590-\u05FF]/, "Hebrew names");
      assert.match(names, /[\u0400-\u04FF]/, "Cyrillic names");
      const donor = await store.donors.get(ok.data[0].donorId);
      assert.equal(donor?.email, ok.data[0].user.email);
    } finally {
      await store.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
