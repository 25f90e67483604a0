/**
 * Every zod schema of the API, from the concepts that hold them (one file until issue 25):
 * for the tests that run all of them (`lib/app/input_patterns_test.ts`).
 *
 * @module
 */
import * as fields from "@/lib/core/schema_fields.ts";
import * as donorSchemas from "@/lib/donors/schemas.ts";
import * as staffSchemas from "@/lib/staff/schemas.ts";
import * as donationSchemas from "@/lib/donations/schemas.ts";
import * as transactionSchemas from "@/lib/reports/transaction_schemas.ts";
import * as receiptSchemas from "@/lib/receipts/schemas.ts";
import * as mailSchemas from "@/lib/outbox/schemas.ts";
import * as errorSchemas from "@/lib/http/schemas.ts";
import * as settingsSchemas from "@/lib/settings/schemas.ts";

/** The schemas and field helpers, by their exported names. */
export const apiSchemas = {
  ...fields,
  ...donorSchemas,
  ...staffSchemas,
  ...donationSchemas,
  ...transactionSchemas,
  ...receiptSchemas,
  ...mailSchemas,
  ...errorSchemas,
  ...settingsSchemas,
};
