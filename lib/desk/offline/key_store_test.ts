/** The desk's kept card key: a network answer is a sync; a failure or the worker's offline copy is not. */
import assert from "node:assert/strict";
import { CARD_KEY_STORAGE, storedCardKey, syncCardKey } from "./key_store.ts";

const JWK = { kty: "OKP", crv: "Ed25519", x: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo", kid: "k1" };

function memoryStorage(): Storage {
  const map = new Map<string, string>();
  return {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
    clear: () => map.clear(),
    key: (i: number) => [...map.keys()][i] ?? null,
    get length() {
      return map.size;
    },
  };
}

Deno.test("a sync keeps the key and its time; offline the kept key and time stay", async () => {
  const storage = memoryStorage();
  assert.equal(storedCardKey(storage), null);
  const first = new Date("2026-11-29T08:00:00.000Z");
  const kept = await syncCardKey(
    () => Promise.resolve(Response.json({ ...JWK, alg: "EdDSA" })),
    storage,
    () => first,
  );
  assert.deepEqual(kept, { jwk: JWK, syncedAt: first.toISOString() });
  const later = () => new Date("2026-11-29T09:00:00.000Z");
  // The network down, the worker's cached copy, a 500, something that is not a key: no sync.
  assert.deepEqual(await syncCardKey(() => Promise.reject(new TypeError("offline")), storage, later), kept);
  const cached = Response.json(JWK, { headers: { "x-desk-offline": "1" } });
  assert.deepEqual(await syncCardKey(() => Promise.resolve(cached), storage, later), kept);
  assert.deepEqual(
    await syncCardKey(() => Promise.resolve(new Response("", { status: 500 })), storage, later),
    kept,
  );
  assert.deepEqual(
    await syncCardKey(() => Promise.resolve(Response.json({ kty: "RSA" })), storage, later),
    kept,
  );
  storage.setItem(CARD_KEY_STORAGE, "{not json");
  assert.equal(storedCardKey(storage), null);
});
