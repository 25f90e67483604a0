/**
 * Fakes for tests of the back office's browser session (islands/shared/admin_session.ts).
 *
 * @module
 */
import type { AdminProfile, SessionStorage } from "@/islands/shared/admin_session.ts";

/**
 * Local storage over a Map, which a test can look into.
 *
 * @example
 * ```ts
 * const storage = memoryStorage({ accessToken: "a1" });
 * storage.map.get("accessToken"); // "a1"
 * ```
 */
export function memoryStorage(
  initial: Record<string, string> = {},
): SessionStorage & { map: Map<string, string> } {
  const map = new Map(Object.entries(initial));
  return {
    map,
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, String(value)),
    removeItem: (key) => void map.delete(key),
  };
}

/** An approved admin's profile. */
export const ADMIN: AdminProfile = {
  id: "adm_1",
  email: "ana@museum.org",
  name: "Ana Curator",
  createdAt: "2025-01-02T03:04:05.000Z",
  status: "approved",
};
