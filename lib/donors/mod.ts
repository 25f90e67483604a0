/**
 * Donors: the records the donation form creates, every record of one address, and the back office's donor view.
 *
 * What other folders of `lib/` may import from this concept (`lib/README.md`); the rest is its own.
 *
 * @module
 */
export { createDonor, stopMonthlyPayments } from "./donors.ts";
export { addressRecords, allDonorIds, donorIdPages, isDonorOf, listAcross, recordsOf } from "./records.ts";
