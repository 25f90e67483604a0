/**
 * The storage contract for admins' refresh tokens (`store.refreshTokens`): create and get (the
 * family's first sign-in kept with each token), a token used exactly once (also under a race), revoked families, and the retention sweeps that delete
 * expired tokens and old revocation markers (also two instances sweeping at once).
 *
 * @module
 */

import type { Store } from "@/lib/storage/types.ts";
import assert from "node:assert/strict";
import { at, tokenFixture, uid } from "./fixtures.ts";
import { type ContractOptions, withStore, withTwo } from "./support.ts";

/** The contract of `store.refreshTokens`; the sweeps delete by time, so they use fresh data. */
export async function refreshTokensContract(
  t: Deno.TestContext,
  { open, sharedData, fresh }: ContractOptions,
): Promise<void> {
  await t.step(
    "refreshTokens: create() then get(); unknown hash is null; a reused hash is refused",
    () =>
      withStore(open, async (store) => {
        const token = tokenFixture();
        await store.refreshTokens.create(token);
        assert.deepEqual(await store.refreshTokens.get(token.hash), token);
        assert.deepEqual(await store.refreshTokens.get(uid("hash")), null);
        await assert.rejects(() => store.refreshTokens.create(tokenFixture({ hash: token.hash })));
        assert.deepEqual(await store.refreshTokens.get(token.hash), token);
      }),
  );

  await t.step(
    "refreshTokens: every token of a family keeps the family's first sign-in, through markUsed()",
    () =>
      withStore(open, async (store) => {
        const family = uid("family");
        const first = tokenFixture({ familyId: family, familyStartedAt: at(0), createdAt: at(0) });
        const later = tokenFixture({ familyId: family, familyStartedAt: at(0), createdAt: at(86_400_000) });
        await store.refreshTokens.create(first);
        await store.refreshTokens.create(later);
        assert.equal((await store.refreshTokens.get(later.hash))?.familyStartedAt, at(0));
        assert.equal(await store.refreshTokens.markUsed(later.hash, at(86_500_000)), true);
        assert.deepEqual(await store.refreshTokens.get(later.hash), { ...later, usedAt: at(86_500_000) });
        // A family cannot start after its token was made.
        await assert.rejects(
          () => store.refreshTokens.create(tokenFixture({ familyStartedAt: at(1), createdAt: at(0) })),
          RangeError,
        );
      }),
  );

  await t.step(
    "refreshTokens: markUsed() is true once, false after and for unknown hashes",
    () =>
      withStore(open, async (store) => {
        const token = tokenFixture();
        await store.refreshTokens.create(token);
        assert.deepEqual(await store.refreshTokens.markUsed(token.hash, at(60_000)), true);
        assert.deepEqual(await store.refreshTokens.get(token.hash), { ...token, usedAt: at(60_000) });
        assert.deepEqual(await store.refreshTokens.markUsed(token.hash, at(61_000)), false);
        assert.deepEqual((await store.refreshTokens.get(token.hash))?.usedAt, at(60_000), "usedAt moved");
        assert.deepEqual(await store.refreshTokens.markUsed(uid("hash"), at(1)), false);
      }),
  );

  await t.step(
    "refreshTokens: 10 concurrent markUsed() calls, exactly one true",
    () =>
      withTwo(open, sharedData, async (a, b) => {
        for (let round = 0; round < 2; round++) {
          const token = tokenFixture();
          await a.refreshTokens.create(token);
          const results = await Promise.all(
            Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).refreshTokens.markUsed(token.hash, at(i))),
          );
          assert.deepEqual(results.filter(Boolean).length, 1, `results: ${results}`);
          assert.deepEqual((await b.refreshTokens.get(token.hash))?.usedAt, at(results.indexOf(true)));
        }
      }),
  );

  await t.step(
    "refreshTokens: revokeFamily() is idempotent and per family",
    () =>
      withStore(open, async (store) => {
        const family = uid("family");
        const other = uid("family");
        await store.refreshTokens.create(tokenFixture({ familyId: family }));
        assert.deepEqual(await store.refreshTokens.isFamilyRevoked(family), false);
        await store.refreshTokens.revokeFamily(family, at(1));
        assert.deepEqual(await store.refreshTokens.isFamilyRevoked(family), true);
        await store.refreshTokens.revokeFamily(family, at(2));
        await Promise.all([
          store.refreshTokens.revokeFamily(family, at(3)),
          store.refreshTokens.revokeFamily(family, at(4)),
        ]);
        assert.deepEqual(await store.refreshTokens.isFamilyRevoked(family), true);
        assert.deepEqual(await store.refreshTokens.isFamilyRevoked(other), false);
        // A family without stored tokens can be revoked too (a stolen token of a forgotten family).
        await store.refreshTokens.revokeFamily(other, at(5));
        assert.deepEqual(await store.refreshTokens.isFamilyRevoked(other), true);
      }),
  );

  // ---- retention ----

  await t.step(
    "refreshTokens: deleteExpired() deletes tokens expired before a time, used or not, a batch at a time",
    () =>
      withStore(fresh(), async (store) => {
        const token = async (ms: number, usedAt: string | null = null) => {
          const t = tokenFixture({ expiresAt: at(ms) });
          await store.refreshTokens.create(t);
          if (usedAt) assert.ok(await store.refreshTokens.markUsed(t.hash, usedAt));
          return (await store.refreshTokens.get(t.hash))!;
        };
        const unused = await token(1000);
        const used = await token(2000, at(500));
        const atCutoff = await token(3000);
        const live = await token(10_000, at(500));
        assert.deepEqual(await store.refreshTokens.deleteExpired(at(3000), 10), 2);
        assert.deepEqual(await store.refreshTokens.get(unused.hash), null);
        assert.deepEqual(await store.refreshTokens.get(used.hash), null);
        assert.deepEqual(await store.refreshTokens.markUsed(unused.hash, at(4000)), false);
        // Expiring exactly at `before` is not before it; a used token that has not expired stays.
        assert.deepEqual(await store.refreshTokens.get(atCutoff.hash), atCutoff);
        assert.deepEqual(await store.refreshTokens.get(live.hash), live);
        assert.deepEqual(await store.refreshTokens.deleteExpired(at(3000), 10), 0);

        for (let i = 0; i < 5; i++) await token(100 + i);
        const counts = [];
        for (let i = 0; i < 4; i++) counts.push(await store.refreshTokens.deleteExpired(at(3000), 2));
        assert.deepEqual(counts, [2, 2, 1, 0]);
        assert.deepEqual(await store.refreshTokens.get(atCutoff.hash), atCutoff);
        await assert.rejects(() => store.refreshTokens.deleteExpired(at(0), 0), RangeError);
        await assert.rejects(() => store.refreshTokens.deleteExpired("never", 1), RangeError);
      }),
  );

  await t.step(
    "refreshTokens: deleteRevokedBefore() deletes revoked-family markers revoked before a time",
    () =>
      withStore(fresh(), async (store) => {
        const [old, recent, other] = [uid("family"), uid("family"), uid("family")];
        await store.refreshTokens.revokeFamily(old, at(1000));
        await store.refreshTokens.revokeFamily(recent, at(5000));
        // A second revocation keeps the first time, so the marker goes by it.
        await store.refreshTokens.revokeFamily(old, at(9000));
        assert.deepEqual(await store.refreshTokens.deleteRevokedBefore(at(5000), 10), 1);
        assert.deepEqual(await store.refreshTokens.isFamilyRevoked(old), false);
        assert.deepEqual(await store.refreshTokens.isFamilyRevoked(recent), true);
        assert.deepEqual(await store.refreshTokens.isFamilyRevoked(other), false);
        // Revoked again later, it is a new marker with its own time.
        await store.refreshTokens.revokeFamily(old, at(7000));
        assert.deepEqual(await store.refreshTokens.deleteRevokedBefore(at(6000), 10), 1);
        assert.deepEqual(await store.refreshTokens.isFamilyRevoked(old), true);
        assert.deepEqual(await store.refreshTokens.isFamilyRevoked(recent), false);
      }),
  );

  await t.step(
    "refreshTokens: two instances sweeping the same expired tokens at once delete and count each once",
    () =>
      withTwo(fresh(), sharedData, async (a, b) => {
        const hashes: string[] = [];
        for (let i = 0; i < 130; i++) {
          const t = tokenFixture({ expiresAt: at(i) });
          hashes.push(t.hash);
          await a.refreshTokens.create(t);
        }
        const sweep = async (store: Store) => {
          let total = 0;
          for (;;) {
            const n = await store.refreshTokens.deleteExpired(at(1000), 40);
            total += n;
            if (n === 0) return total;
          }
        };
        const [x, y] = await Promise.all([sweep(a), sweep(b)]);
        assert.deepEqual(x + y, 130);
        for (const hash of hashes.slice(0, 5)) assert.deepEqual(await b.refreshTokens.get(hash), null);
      }),
  );
}
