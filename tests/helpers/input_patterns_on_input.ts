/**
 * The regular expressions in the code that run on what a client sends (a body, a query, a path, a
 * header, what a person typed), by file, for the input-pattern audit
 * (`lib/app/input_patterns_test.ts`), which times each against adversarial strings.
 *
 * @module
 */
/**
 * The patterns run on input, by file, as written there. `reads` says what they read.
 */
export const ON_INPUT: Record<string, { reads: string; patterns: string[] }> = {
  "lib/shared/colours.ts": {
    reads: "a brand colour an owner typed",
    patterns: [String.raw`/^#[0-9a-f]{6}$/`],
  },
  "lib/storage/museum_records.ts": {
    reads: "a brand colour an owner sent, checked before storing",
    patterns: [String.raw`/^[0-9a-f]{64}$/`, String.raw`/^#[0-9a-f]{6}$/`],
  },
  "lib/memberships/member_list.ts": {
    reads: "the members list's search words",
    patterns: [String.raw`/\s+/`],
  },
  "lib/memberships/renewal_page.ts": {
    reads: "the donation page's ?level=",
    patterns: [String.raw`/^\d{1,3}$/`],
  },
  "lib/memberships/schemas.ts": {
    reads: "the members list's numbers (query)",
    patterns: [String.raw`/^\d{1,4}$/`],
  },
  "lib/donor_portal/membership.ts": {
    reads: "cardholders' names a member typed",
    patterns: [String.raw`/[\u0000-\u001f\u007f]/`],
  },
  "routes/api/(admin)/memberships/[number]/resend-card.ts": {
    reads: "a member number in the path",
    patterns: [String.raw`/^[0-9A-Z]{4}-[0-9A-Z]{4}$/`],
  },
  "islands/admin/museum_form.ts": {
    reads: "amounts and counts an owner typed in the museum editor",
    patterns: [String.raw`/^(\d{1,12})(?:[.,](\d+))?$/`],
  },
  "islands/admin/museum_faults.ts": {
    reads: "a refused field's path in the server's answer to the museum editor",
    patterns: [String.raw`/^\d+$/`],
  },
  "components/TransactionResult.tsx": {
    reads: "the result page's query (transaction id, status code)",
    patterns: [String.raw`/^[A-Za-z0-9_-]{1,100}$/`, String.raw`/^\d{3}$/`],
  },
  "lib/core/zoned_time.ts": {
    reads: "MUSEUM_TIME_ZONE (configuration) and a YYYY-MM-DD day (a report's or the chart's query)",
    patterns: [String.raw`/^(\d{4})-(\d{2})-(\d{2})$/`, String.raw`/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/`],
  },
  "lib/app/app.ts": {
    reads: "the path (terminal sales), text put into an error page",
    patterns: [
      String.raw`/^\/[a-z]{2}\/desk\/?$/`,
      String.raw`/^\/api\/settings\/museum\/[\w-]+$/`,
      String.raw`/[&<>"']/g`,
      String.raw`/^\/(api\/payment\/pay-emv|[a-z]{2}\/terminal-payment(\/[^/]*)?)\/?$/`,
    ],
  },
  "lib/staff/accounts.ts": {
    reads: "the Authorization header",
    patterns: [String.raw`/^Bearer\s+([A-Za-z0-9._~+/-]+=*)$/i`],
  },
  "lib/framework/assets.ts": { reads: "If-None-Match", patterns: [String.raw`/^W\//`] },
  "lib/staff/two_factor_secrets.ts": {
    reads: "a two-factor code typed at sign-in or enrolment (at most 20 characters by the schema)",
    patterns: [String.raw`/\s/g`, String.raw`/^\d{6}$/`, String.raw`/[\s-]/g`],
  },
  "lib/donor_portal/gift_actions.ts": {
    reads: "a monthly gift's form (other amount, pause months) and the gift id in the path",
    patterns: [
      String.raw`/^\d{1,12}(?:[.,]\d{1,12})?$/`,
      String.raw`/^[A-Za-z0-9_-]{1,100}$/`,
      String.raw`/^\d$/`,
    ],
  },
  "lib/donor_portal/sign_in.ts": {
    reads: "the sign-in link's `t` (query or form) and the donor session cookie",
    patterns: [
      String.raw`/^s1\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/`,
      String.raw`/^[A-Za-z0-9_-]{43}$/`,
    ],
  },
  "lib/donor_portal/manage_link.ts": {
    reads: "what the cancel page's `token` (at most 200 characters) unseals to, a donor id",
    patterns: [String.raw`/^(\d{1,12}):([A-Za-z0-9_-]{16,64})$/`],
  },
  "lib/http/pipeline.ts": { reads: "X-Request-Id", patterns: [String.raw`/[^\w\-=]/`] },
  "lib/outbox/outbox_view.ts": {
    reads: "the back office's outbox cursor (query)",
    patterns: [String.raw`/^[A-Za-z0-9_-]{1,2000}$/`],
  },
  "lib/audit/schemas.ts": {
    reads: "the audit log's `limit` (query)",
    patterns: [String.raw`/^\d{1,3}$/`],
  },
  "lib/audit/audit_log.ts": {
    reads: "the audit log's cursor (at most 200 characters, base64url-decoded)",
    patterns: [String.raw`/^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)\|([0-9a-f]{28})$/`],
  },
  "lib/http/validation.ts": {
    reads: "Content-Type, ids in the path",
    patterns: [String.raw`/^[A-Za-z0-9_-]{16,64}$/`, String.raw`/^application\/([\w.+-]+\+)?json\s*(;|$)/i`],
  },
  "lib/kiosk/devices.ts": {
    reads: "a typed pairing code (refused over 64 characters first), the device cookie",
    patterns: [String.raw`/[\s-]/g`, String.raw`/[IL]/g`, String.raw`/^[0-9a-f]{64}$/`],
  },
  "lib/kiosk/schemas.ts": {
    reads: "a kiosk device's shop in the admin API",
    patterns: [String.raw`/^[A-Za-z0-9_-]{1,32}$/`],
  },
  "lib/core/log.ts": {
    reads: "the request log line's fields (a path, a header's value) and their keys",
    patterns: [String.raw`/["\\\u0000-\u001f\ud800-\udfff]/`, String.raw`/^(time|level|msg|\d+)$/`],
  },
  "lib/core/log_redact.ts": {
    reads: "paths and error text written to the log",
    patterns: [
      String.raw`/\/(?:(?=[a-z-]*[A-Z0-9_])[A-Za-z0-9_-]{16,}|[0-9]{8,})(?=\/|$)/g`,
      String.raw`/\b([a-z][a-z0-9+.-]{0,15}:\/\/[^\s/?#"'<>()]*)([^\s?#"'<>()]*)(?:[?#][^\s"'<>()]*)?/gi`,
    ],
  },
  "lib/rate_limits/rate_limits.ts": {
    reads: "the client address (X-Forwarded-For behind a proxy)",
    patterns: [String.raw`/^\[|\]$/g`, String.raw`/^(.*:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/`],
  },
  "lib/providers/pelecard/hosted.ts": {
    reads: "the provider's notification, which anyone can post",
    patterns: [String.raw`/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i`],
  },
  "lib/providers/pelecard/protocol.ts": {
    reads: "the provider's answers and notifications (status codes, amounts, card numbers in log text)",
    patterns: [
      String.raw`/[\s-]/g`,
      String.raw`/\d{13,19}/g`,
      String.raw`/^-?\d+$/`,
      String.raw`/^\d{13,19}$/`,
      String.raw`/^\d{3}$/`,
    ],
  },
  "lib/providers/sandbox/sandbox.ts": {
    reads: "the sandbox card form and its references",
    patterns: [String.raw`/\D/g`, String.raw`/^[A-Za-z0-9_-]{16,64}$/`, String.raw`/^\d{3}$/`],
  },
  "islands/admin/RefundForm.tsx": {
    reads: "the refund form's amount, typed by staff",
    patterns: [String.raw`/^(\d{1,12})(?:[.,](\d{1,2}))?$/`],
  },
  "lib/refunds/schemas.ts": {
    reads: "a refund's note (tab and line breaks allowed, other control characters refused)",
    patterns: [String.raw`/[\n\r\t]/g`],
  },
  "lib/providers/sandbox/cards.ts": {
    reads: "the sandbox card form's fields",
    patterns: [
      String.raw`/[\s-]/g`,
      String.raw`/\D/g`,
      String.raw`/^(\d{2})\s*(?:\/\s*)?(\d{2})$/`,
      String.raw`/^4000000000000\d{3}$/`,
      String.raw`/^\d{13,19}$/`,
      String.raw`/^\d{3,4}$/`,
      String.raw`/^\d{5,9}$/`,
    ],
  },
  "lib/core/schema_fields.ts": {
    reads: "every API body and query",
    patterns: [
      String.raw`/(?:^|[^\ud800-\udbff])[\udc00-\udfff]|[\ud800-\udbff](?![\udc00-\udfff])/`,
      String.raw`/[\u0000-\u001f\u007f-\u009f]/`,
    ],
  },
  "lib/donations/schemas.ts": {
    reads: "the payment calls' bodies",
    patterns: [String.raw`/^[A-Za-z0-9_-]{1,32}$/`, String.raw`/^[A-Za-z0-9_-]{16,64}$/`],
  },
  "lib/reports/transaction_schemas.ts": {
    reads: "the transaction lists' queries",
    patterns: [String.raw`/^\d{1,2}$/`, String.raw`/^\d{1,4}$/`, String.raw`/^\d{1,7}$/`],
  },
  "lib/outbox/schemas.ts": { reads: "the outbox list's query", patterns: [String.raw`/^\d{1,3}$/`] },
  "lib/memberships/numbers.ts": {
    reads: "a member number as typed (a front desk's search, a card's number)",
    patterns: [String.raw`/[\s-]/g`, String.raw`/O/g`, String.raw`/[IL]/g`],
  },
  "lib/reports/monthly.ts": {
    reads: "the monthly report's months (query)",
    patterns: [String.raw`/^(\d{4})-(0[1-9]|1[0-2])$/`],
  },
  "lib/reports/schemas.ts": {
    reads: "the monthly report's months and its chart's width (query)",
    patterns: [String.raw`/^\d{4}-(0[1-9]|1[0-2])$/`, String.raw`/^\d{3,4}$/`],
  },
  "lib/storage/membership_records.ts": {
    reads: "cardholders' names as a member or staff typed them",
    patterns: [String.raw`/[\u0000-\u001f\u007f]/`],
  },
  "lib/shared/donation.ts": {
    reads: "the donor form (island and no-JavaScript POST)",
    patterns: [String.raw`/^tier-(\d{1,3})$/`],
  },
  "lib/shared/email.ts": {
    reads: "the donor form (island and no-JavaScript POST), sign-in and register forms",
    patterns: [String.raw`/^[^\s@]+@[^\s@][^\s@.]*\.[^\s@]+$/`],
  },
  "lib/shared/format.ts": {
    reads: "amounts from queries and stored records, masked card numbers",
    patterns: [String.raw`/^-?\d+$/`, String.raw`/\D/g`],
  },
  "lib/shared/dates.ts": {
    reads: "days and months (YYYY-MM-DD, YYYY-MM) of the chart's and the report's answers, in the page",
    patterns: [
      String.raw`/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/`,
      String.raw`/^\d{4}-(0[1-9]|1[0-2])$/`,
    ],
  },
  "lib/shared/languages.ts": {
    reads: "the path's first segment",
    patterns: [String.raw`/^[a-z]{2,3}(-[a-z0-9]{1,8})*$/i`],
  },
  "lib/shared/transaction_filters.ts": {
    reads: "the back office's query string (and the lists' and the outbox's `from`, `to`, `failingSince`)",
    patterns: [
      String.raw`/[\u0000-\u001f\u007f]/g`,
      String.raw`/^\d{1,7}$/`,
    ],
  },
  "lib/shared/calendar_day.ts": {
    reads: "a YYYY-MM-DD day in the back office's query string (the history's and the outbox's days)",
    patterns: [String.raw`/^(\d{4})-(\d{2})-(\d{2})$/`],
  },
  "lib/signing/signature_check.ts": {
    reads: "signed bodies (signature, nonce, key id)",
    patterns: [
      String.raw`/^[0-9a-f]{64}$/i`,
      String.raw`/^[A-Za-z0-9_-]{16,128}$/`,
      String.raw`/^v1\.(\d{13})\.[0-9a-f]{32}$/`,
    ],
  },
  "lib/storage/postgres/transaction_lists.ts": {
    reads: "the search string",
    patterns: [String.raw`/[\\%_]/g`],
  },
  "lib/storage/queries.ts": { reads: "the list cursor", patterns: [String.raw`/^[1-9][0-9]{0,14}$/`] },
  "lib/core/csv.ts": {
    reads: "stored names and emails (what donors typed)",
    patterns: [String.raw`/[",\r\n]/`, String.raw`/^[=+\-@\t\r]/`],
  },
  "lib/reports/transactions_export.ts": {
    reads: "stored amounts",
    patterns: [String.raw`/^-?\d{1,15}$/`],
  },
  "routes/[lang]/_middleware.ts": {
    reads: "the path",
    patterns: [String.raw`/^\/[^/]+\/cancel-subscription$/`],
  },
  "routes/[lang]/admin/reports.tsx": {
    reads: "the report page's months (query)",
    patterns: [String.raw`/^\d{4}-\d{2}$/`],
  },
  "routes/[lang]/cancel-subscription.tsx": {
    reads: "the donor id query",
    patterns: [String.raw`/^[A-Za-z0-9_-]{16,64}$/`],
  },
  "routes/[lang]/terminal-payment/[[shopNumber]].tsx": {
    reads: "the path",
    patterns: [String.raw`/^[A-Za-z0-9_-]{1,32}$/`],
  },
  "routes/[lang]/account/card/[subscriptionId].tsx": {
    reads: "the path",
    patterns: [String.raw`/^[A-Za-z0-9_.:-]{1,128}$/`],
  },
  "routes/payments/card/[attemptId].ts": {
    reads: "the path",
    patterns: [String.raw`/^[A-Za-z0-9_-]{16,64}$/`],
  },
  "routes/payments/return/[paymentId].ts": {
    reads: "the path",
    patterns: [String.raw`/^[A-Za-z0-9_-]{16,64}$/`],
  },
  "routes/sandbox/terminal/[terminalId].tsx": {
    reads: "the path and the form",
    patterns: [String.raw`/^[A-Za-z0-9_-]{1,64}$/`, String.raw`/^\d{3}$/`],
  },
  "lib/shared/gift_membership.ts": {
    reads: "a gift's delivery day and message the giver typed",
    patterns: [
      String.raw`/^(\d{4})-(\d{2})-(\d{2})$/`,
      String.raw`/[\u0000-\u0009\u000B\u000C\u000E-\u001F\u007F]/`,
    ],
  },
  "lib/desk/offline/card_check.ts": {
    reads: "a scanned card's token (the camera reads whatever is held up to it)",
    patterns: [String.raw`/^[A-Za-z0-9_-]*$/`, String.raw`/^\d{4}-\d{2}-\d{2}$/`],
  },
  "lib/storage/museum_image_types.ts": {
    reads: "an image's hash, from the path or the settings",
    patterns: [String.raw`/^[0-9a-f]{64}$/`],
  },
  "lib/storage/postgres/museum_images.ts": {
    reads: "an image's hash from the path",
    patterns: [String.raw`/^[0-9a-f]{64}$/`],
  },
  "lib/storage/kv/museum_images.ts": {
    reads: "an image's hash from the path",
    patterns: [String.raw`/^[0-9a-f]{64}$/`],
  },
  "lib/storage/visit_records.ts": {
    reads: "a visit's id the desk sent",
    patterns: [String.raw`/^[A-Za-z0-9_-]{16,64}$/`],
  },
  "lib/storage/gift_records.ts": {
    reads: "a gift's ids, checked before storing",
    patterns: [String.raw`/^[\w-]{1,100}$/`],
  },
  "lib/museum/svg.ts": {
    reads: "an uploaded SVG's attributes and text",
    patterns: [
      String.raw`/url\s*\(\s*['"]?([^'")]*)/gi`,
      String.raw`/^\s*(javascript|data|vbscript):/i`,
      String.raw`/[\s,]+/`,
      String.raw`/<!DOCTYPE|<!ENTITY/i`,
    ],
  },
  "lib/museum/images.ts": {
    reads: "an upload's declared type",
    patterns: [String.raw`/svg/`, String.raw`/png|jpe?g|webp/`],
  },
  "lib/visits/schemas.ts": {
    reads: "the desk API's query (a day, a count)",
    patterns: [String.raw`/^\d{4}-\d{2}-\d{2}$/`, String.raw`/^\d{1,3}$/`],
  },
  "routes/museum-images/[file].ts": {
    reads: "the image's file name in the path",
    patterns: [String.raw`/^([0-9a-f]{64})\.(svg|png|jpg|webp)$/`],
  },
  "routes/api/(admin)/settings/museum/[image].ts": {
    reads: "the version in the query",
    patterns: [String.raw`/^\d{1,9}$/`],
  },
  "routes/api/(admin)/memberships/[number]/visits.ts": {
    reads: "a member number in the path",
    patterns: [String.raw`/^[0-9A-Z]{4}-[0-9A-Z]{4}$/`],
  },
};
