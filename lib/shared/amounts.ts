/**
 * The payment limits the donation form checks in the browser, apart from `money.ts` so that its
 * islands do not ship the money formatting they never run (issue 29: a shared chunk holds whole
 * modules). `money.ts` re-exports them for everything else.
 *
 * @module
 */

/** The smallest payment, in major units (spec section 9). */
export const MIN_AMOUNT = 1;
