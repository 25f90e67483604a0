/**
 * Member numbers: short and printable, read aloud at a front desk and typed from a card. Eight
 * characters of Crockford's base 32 (digits and capital letters without I, L, O and U, so none is
 * mistaken for another), shown as two groups of four (`7KQ3-9DXM`): seven random ones and a check
 * character that catches any one character mistyped. Not gapless, not guessable in order; unique
 * because storage refuses a number another membership has (the change draws again).
 *
 * @module
 */

const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/** Odd weights, each invertible modulo 32: a single wrong character always changes the check. */
const WEIGHTS = [1, 3, 5, 7, 9, 11, 13];

function check(values: number[]): string {
  return ALPHABET[values.reduce((sum, v, i) => sum + v * WEIGHTS[i], 0) % 32];
}

/**
 * A new member number.
 *
 * @example
 * ```ts
 * newMemberNumber(); // "7KQ3-9DXM"
 * ```
 */
export function newMemberNumber(): string {
  const values = Array.from(crypto.getRandomValues(new Uint8Array(7)), (b) => b % 32);
  const chars = values.map((v) => ALPHABET[v]).join("") + check(values);
  return `${chars.slice(0, 4)}-${chars.slice(4)}`;
}

/**
 * A member number as typed (any case, with or without its dash or spaces, O for 0 and I or L for
 * 1 as Crockford allows) in its printed form, or null when it is not one (its check fails).
 *
 * @example
 * ```ts
 * memberNumberOf("7kq3 9dxm"); // "7KQ3-9DXM" when its check holds
 * ```
 */
export function memberNumberOf(typed: string): string | null {
  const plain = typed.toUpperCase().replace(/[\s-]/g, "").replace(/O/g, "0").replace(/[IL]/g, "1");
  if (plain.length !== 8) return null;
  const values = [...plain].map((c) => ALPHABET.indexOf(c));
  if (values.some((v) => v < 0) || check(values.slice(0, 7)) !== plain[7]) return null;
  return `${plain.slice(0, 4)}-${plain.slice(4)}`;
}
