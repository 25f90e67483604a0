/**
 * Kiosk devices on Deno KV: the card-terminal kiosks admins paired (issue 13).
 *
 * | key                                       | value       | written by                       |
 * |-------------------------------------------|-------------|----------------------------------|
 * | `["kiosk_devices", id]`                   | KioskDevice | every write                      |
 * | `["kiosk_devices_by_credential", hash]`   | device id   | pair (the old one deleted)       |
 * | `["kiosk_pairing_codes", hash]`           | device id   | setPairingCode; pair, revoke del |
 *
 * Both secrets are looked up by their hash (a sale by its cookie's credential, a pairing by its
 * code), so each has an index key; a device has at most one of each, and every write that replaces
 * one deletes the old key in the same atomic commit. `pair` checks the code's index entry and the
 * device under their versionstamps: of two uses of one code, exactly one commits. Expiry is decided
 * by the callers' `now` (no `expireIn`: KV collects on the real clock); an expired code's key stays
 * until the device gets a new code, is paired or revoked (one key per device at most).
 *
 * @module
 */

import { commit, RETRY, retryWhileLocked, untilCommitted } from "./atomic.ts";
import type { KvContext } from "./context.ts";
import { addAudit } from "./audit.ts";
import { auditEntries } from "@/lib/storage/audit_records.ts";
import { MAX_AUDIT_PER_CAUSE } from "@/lib/storage/audit_types.ts";
import { canonicalKioskDevice, checkInteger, isoInstant } from "@/lib/storage/records.ts";
import type { KioskDevice, KioskDeviceRepository } from "@/lib/storage/types.ts";

/** The first key part of every device, by id. */
const DEVICES = "kiosk_devices";
/** Device credentials' hashes, to their device's id. */
const BY_CREDENTIAL = "kiosk_devices_by_credential";
/** Pairing codes' hashes, to their device's id. */
const PAIRING_CODES = "kiosk_pairing_codes";

/** The {@link KioskDeviceRepository} of the store on `ctx`. */
export function kvKioskDevices({ kv }: KvContext): KioskDeviceRepository {
  const read = async (id: string) => await retryWhileLocked(() => kv.get<KioskDevice>([DEVICES, id]));

  return {
    async create(input) {
      const device = canonicalKioskDevice(input);
      const key = [DEVICES, device.id];
      const ok = await commit(() => {
        const op = kv.atomic().check({ key, versionstamp: null }).set(key, device);
        if (device.pairingCodeHash) op.set([PAIRING_CODES, device.pairingCodeHash], device.id);
        if (device.credentialHash) op.set([BY_CREDENTIAL, device.credentialHash], device.id);
        return op;
      });
      if (!ok) throw new Error("a kiosk device with this id exists");
    },

    async get(id) {
      return (await read(id)).value;
    },

    async list() {
      const devices: KioskDevice[] = [];
      for await (const entry of kv.list<KioskDevice>({ prefix: [DEVICES] }, { limit: 1000 })) {
        devices.push(entry.value);
      }
      return devices.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id));
    },

    async setPairingCode(id, codeHash, expiresAt, options = {}) {
      const until = isoInstant(expiresAt, "expiresAt");
      const audit = auditEntries(options.audit, options.at ?? new Date().toISOString(), MAX_AUDIT_PER_CAUSE);
      return await untilCommitted(async () => {
        const entry = await read(id);
        if (entry.value === null || entry.value.revokedAt !== null) return null;
        const device: KioskDevice = { ...entry.value, pairingCodeHash: codeHash, pairingExpiresAt: until };
        const old = entry.value.pairingCodeHash;
        const ok = await commit(() => {
          const op = kv.atomic().check(entry).set([DEVICES, id], device);
          if (old && old !== codeHash) op.delete([PAIRING_CODES, old]);
          return addAudit(op.set([PAIRING_CODES, codeHash], id), audit);
        });
        return ok ? device : RETRY;
      });
    },

    async pair(codeHash, credentialHash, now) {
      const at = isoInstant(now, "now");
      return await untilCommitted(async () => {
        const code = await retryWhileLocked(() => kv.get<string>([PAIRING_CODES, codeHash]));
        if (code.value === null) return null;
        const entry = await read(code.value);
        const found = entry.value;
        if (
          found === null || found.revokedAt !== null || found.pairingCodeHash !== codeHash ||
          found.pairingExpiresAt === null || Date.parse(found.pairingExpiresAt) <= Date.parse(at)
        ) return null;
        const device: KioskDevice = {
          ...found,
          pairingCodeHash: null,
          pairingExpiresAt: null,
          credentialHash,
          pairedAt: at,
          lastUsedAt: at,
        };
        const ok = await commit(() => {
          const op = kv.atomic().check(code, entry)
            .set([DEVICES, device.id], device)
            .delete([PAIRING_CODES, codeHash]);
          if (found.credentialHash) op.delete([BY_CREDENTIAL, found.credentialHash]);
          return op.set([BY_CREDENTIAL, credentialHash], device.id);
        });
        return ok ? device : RETRY;
      });
    },

    async byCredential(credentialHash) {
      const id = await retryWhileLocked(() => kv.get<string>([BY_CREDENTIAL, credentialHash]));
      if (id.value === null) return null;
      const device = (await read(id.value)).value;
      return device?.credentialHash === credentialHash ? device : null;
    },

    async touch(id, at, minIntervalMs) {
      const when = isoInstant(at, "at");
      checkInteger(minIntervalMs, "minIntervalMs", 0);
      await untilCommitted(async () => {
        const entry = await read(id);
        const last = entry.value?.lastUsedAt;
        if (!entry.value || (last && Date.parse(last) > Date.parse(when) - minIntervalMs)) return;
        const device: KioskDevice = { ...entry.value, lastUsedAt: when };
        return (await commit(() => kv.atomic().check(entry).set([DEVICES, id], device))) ? undefined : RETRY;
      });
    },

    async revoke(id, at, options = {}) {
      const when = isoInstant(at, "at");
      const audit = auditEntries(options.audit, when, MAX_AUDIT_PER_CAUSE);
      return await untilCommitted(async () => {
        const entry = await read(id);
        if (entry.value === null) return null;
        if (entry.value.revokedAt !== null) return entry.value;
        // The credential's index key stays, so a revoked kiosk is told it was revoked (not "unknown").
        const device: KioskDevice = {
          ...entry.value,
          revokedAt: when,
          pairingCodeHash: null,
          pairingExpiresAt: null,
        };
        const code = entry.value.pairingCodeHash;
        const ok = await commit(() => {
          const op = addAudit(kv.atomic().check(entry).set([DEVICES, id], device), audit);
          return code ? op.delete([PAIRING_CODES, code]) : op;
        });
        return ok ? device : RETRY;
      });
    },
  };
}
