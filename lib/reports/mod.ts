/**
 * Reports: the back office's transaction lists, CSV exports, the daily totals and the accountant's monthly report.
 *
 * What other folders of `lib/` may import from this concept (`lib/README.md`); the rest is its own.
 *
 * @module
 */
