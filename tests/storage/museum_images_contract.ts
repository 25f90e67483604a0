/**
 * The storage contract for the museum's images (`store.museumImages`): an image put under its hash
 * is read back byte for byte (one larger than a Deno KV value too); a second put of it changes
 * nothing; an unknown or malformed hash reads null; what no backend may store is refused; images
 * the settings no longer name are deleted on request. And the settings naming a logo and a hero
 * (texts per language, an image) are stored canonical on both backends.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { MuseumSettingsInput, StoredMuseumImage } from "@/lib/storage/types.ts";
import { at } from "./fixtures.ts";
import { museumFixture } from "./museum_contract.ts";
import { type ContractOptions, withStore } from "./support.ts";

/** An image of `length` bytes whose hash is `digit` repeated (the store trusts the caller's hash). */
function imageFixture(digit: string, length: number, type: StoredMuseumImage["type"] = "image/png") {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = (i * 31 + digit.charCodeAt(0)) & 0xff;
  return { hash: digit.repeat(64), type, bytes };
}

const every = <T>(value: (lang: string) => T) =>
  Object.fromEntries(["en", "he", "ru", "pt", "es"].map((lang) => [lang, value(lang)])) as Record<
    "en" | "he" | "ru" | "pt" | "es",
    T
  >;

/** The contract of `store.museumImages`, and of the settings naming images. */
export async function museumImagesContract(t: Deno.TestContext, { fresh }: ContractOptions): Promise<void> {
  await t.step("museum images: put, read back byte for byte, put again, deleted when unnamed", async () => {
    await withStore(fresh(), async (store) => {
      const big = imageFixture("a", 200 * 1024 + 17);
      const small = imageFixture("b", 300, "image/svg+xml");
      assert.equal(await store.museumImages.get(big.hash), null);
      await store.museumImages.put(big);
      await store.museumImages.put(big);
      await store.museumImages.put(small);
      assert.deepEqual(await store.museumImages.get(big.hash), big);
      assert.deepEqual(await store.museumImages.get(small.hash), small);
      assert.equal(await store.museumImages.get("../" + "c".repeat(61)), null);
      await assert.rejects(() => store.museumImages.put({ ...small, hash: "not-a-hash" }), RangeError);
      await assert.rejects(() => store.museumImages.put(imageFixture("c", 300 * 1024)), RangeError);
      await assert.rejects(() => store.museumImages.put({ ...small, bytes: new Uint8Array() }), RangeError);
      assert.equal(await store.museumImages.deleteExcept([small.hash]), 1);
      assert.equal(await store.museumImages.get(big.hash), null);
      assert.deepEqual(await store.museumImages.get(small.hash), small);
    });
  });

  await t.step("museum: settings naming a logo and a hero are stored canonical", async () => {
    await withStore(fresh(), async (store) => {
      const image = { hash: "d".repeat(64), type: "image/png" as const, width: 120, height: 40 };
      const base = museumFixture();
      const input: MuseumSettingsInput = {
        identity: { ...base.identity, logo: { ...image, type: "image/svg+xml" } },
        hero: {
          title: every((lang) => `Open late (${lang})`),
          text: every((lang) => `${"A long text. ".repeat(25)}(${lang})`),
          imageAlt: every((lang) => `The hall (${lang})`),
          image,
        },
        levels: base.levels,
        lastLevelId: base.lastLevelId,
      };
      const saved = await store.museum.save(input, 0, at(5), "owner@museum.example");
      assert.deepEqual(saved, { version: 1, ...input, updatedAt: at(5), updatedBy: "owner@museum.example" });
      assert.deepEqual(await store.museum.get(), saved);
      const bad = structuredClone(input);
      bad.identity.logo!.hash = "../etc";
      await assert.rejects(() => store.museum.save(bad, 1, at(6), "owner@museum.example"), RangeError);
    });
  });
}
