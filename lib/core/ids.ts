/**
 * Ids: 144 random bits, base64url (24 characters). Donor ids double as capabilities (the cancel
 * link carries one), so they must be unguessable, not merely unique.
 *
 * @module
 */

/**
 * A new random id.
 *
 * @example
 * ```ts
 * newId(); // "q2V0bUoHx3f1k8Zr0aTQ9w_L"
 * ```
 */
export function newId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_");
}
