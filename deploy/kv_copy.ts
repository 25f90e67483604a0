/**
 * Copies every entry of one Deno KV database into another, empty one: a backup of the app's KV
 * (also the hosted one of Deno Deploy), or a restore of such a backup.
 *
 * ```sh
 * deno run -A deploy/kv_copy.ts <from> <to>
 * # a Deno Deploy database to a local file (a token of the organization in DENO_KV_ACCESS_TOKEN):
 * deno run -A deploy/kv_copy.ts https://api.deno.com/v2/databases/<id>/connect kv-backup-2026-11-22.sqlite3
 * ```
 *
 * `<from>` and `<to>` are each a file path or a KV Connect URL. The destination must be empty.
 * Entries that expire by themselves (`throttle`, `nonces`: login throttling and request-signature
 * nonces) are left out; they would come back without their expiry.
 *
 * Deno KV has no snapshot read across the whole database: entries written while the copy runs
 * may be in it or not, so run it when the site is quiet. For the app's own KV file on one machine,
 * SQLite's online backup (`sqlite3 data/kv.sqlite3 ".backup backup.sqlite3"`) is a consistent
 * snapshot and is preferable.
 *
 * @module
 */

/** First key parts of entries that expire by themselves; not copied. */
const EPHEMERAL = new Set(["throttle", "nonces"]);
/** Entries per atomic write; Deno KV allows 1,000 mutations and 800 KiB in one. */
const BATCH = 10;

const isUrl = (s: string) => /^https?:\/\//.test(s);

async function open(where: string, create: boolean): Promise<Deno.Kv> {
  if (!isUrl(where)) {
    const exists = await Deno.stat(where).then(() => true, () => false);
    if (!exists && !create) throw new Error(`${where} does not exist`);
    const folder = where.replace(/\/[^/]*$/, "");
    if (create && folder !== where && folder !== "") await Deno.mkdir(folder, { recursive: true });
  }
  return await Deno.openKv(where);
}

async function write(to: Deno.Kv, entries: Deno.KvEntry<unknown>[]): Promise<void> {
  const atomic = to.atomic();
  for (const entry of entries) {
    atomic.check({ key: entry.key, versionstamp: null }).set(entry.key, entry.value);
  }
  try {
    if ((await atomic.commit()).ok) return;
  } catch (e) {
    // Too large for one write (values up to 64 KiB each): one entry at a time.
    if (entries.length === 1) throw e;
    for (const entry of entries) await write(to, [entry]);
    return;
  }
  throw new Error(`the destination changed while copying (at ${Deno.inspect(entries[0].key)})`);
}

if (import.meta.main) {
  const [from, to] = Deno.args;
  if (!from || !to || Deno.args.length !== 2) {
    console.error("usage: deno run -A deploy/kv_copy.ts <from: path or KV Connect URL> <to: path or URL>");
    Deno.exit(2);
  }
  try {
    await copy(from, to);
  } catch (e) {
    console.error(`kv_copy: ${(e as Error).message}`);
    Deno.exit(1);
  }
}

async function copy(from: string, to: string): Promise<void> {
  const source = await open(from, false);
  const target = await open(to, true);
  try {
    for await (const _ of target.list({ prefix: [] }, { limit: 1 })) {
      throw new Error(`${to} is not empty; copy into a new file or an empty database`);
    }
    const copied = new Map<string, number>();
    let skipped = 0;
    let batch: Deno.KvEntry<unknown>[] = [];
    for await (const entry of source.list({ prefix: [] }, { batchSize: 500 })) {
      const part = String(entry.key[0]);
      if (EPHEMERAL.has(part)) {
        skipped++;
        continue;
      }
      copied.set(part, (copied.get(part) ?? 0) + 1);
      batch.push(entry);
      if (batch.length === BATCH) {
        await write(target, batch);
        batch = [];
      }
    }
    if (batch.length > 0) await write(target, batch);
    const total = [...copied.values()].reduce((a, b) => a + b, 0);
    console.log(
      JSON.stringify({ copied: total, byKey: Object.fromEntries(copied), skippedEphemeral: skipped }),
    );
  } finally {
    source.close();
    target.close();
  }
}
