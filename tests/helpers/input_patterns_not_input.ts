/**
 * The regular expressions in the code that never run on what a client sends, with why, for the
 * input-pattern audit (`lib/app/input_patterns_test.ts`), which fails on a pattern listed nowhere.
 *
 * @module
 */
/** Patterns that never see a client's input, by file, with why. Not timed. */
export const NOT_INPUT: Record<string, { why: string; patterns: string[] }> = {
  "lib/memberships/config.ts": {
    why: "MEMBERSHIP_REMINDER_DAYS, the operator's configuration read at start-up",
    patterns: [String.raw`/^\d{1,3}$/`],
  },
  "islands/admin/MemberView.tsx": {
    why: "our own API's error messages",
    patterns: [String.raw`/member number/`, String.raw`/at most/`],
  },
  "islands/admin/museum_form.ts": {
    why: "an amount we formatted",
    patterns: [String.raw`/\.00$/`],
  },
  "islands/admin/museum_faults.ts": {
    why: "the server's own refusal messages for an image, read to pick the translated one",
    patterns: [
      String.raw`/larger than/`,
      String.raw`/contains a script/`,
      String.raw`/DOCTYPE|entities/`,
      String.raw`/well-formed SVG/`,
      String.raw`/pixels/`,
      String.raw`/not a (readable )?PNG|not a readable/`,
      String.raw`/must be/`,
    ],
  },
  "components/ApiReference.tsx": { why: "route paths", patterns: [String.raw`/[^A-Za-z0-9]+/g`] },
  "components/DonationSection.tsx": { why: "amounts we formatted", patterns: [String.raw`/[.,]00(?=\D*$)/`] },
  "islands/admin/download.ts": {
    patterns: [String.raw`/filename="?([^";]+)"?/`],
    why: "the Content-Disposition our own download routes answer (exports, receipts, reports, audit log)",
  },
  "lib/reports/chart.ts": {
    patterns: [String.raw`/[&<>"']/g`],
    why: "the chart's words: locale texts, formatted money and month names",
  },
  "islands/admin/daily_totals_chart.ts": {
    why: "amounts we formatted",
    patterns: [String.raw`/[.,]00(?=\D*$)/`],
  },
  "islands/shared/texts.ts": { why: "locale texts", patterns: [String.raw`/\{\{\s*(\w+)\s*\}\}/g`] },
  "lib/donor_portal/manage_link.ts": { why: "base64 we encoded", patterns: [String.raw`/=+$/`] },
  "lib/donor_portal/sign_in.ts": { why: "base64 we encoded", patterns: [String.raw`/=+$/`] },
  "lib/audit/audit_log.ts": {
    why: "base64 we encoded (the cursor written)",
    patterns: [String.raw`/=+$/`],
  },
  "lib/storage/membership_records.ts": {
    why:
      "member numbers, ids and a kept card's last four digits the server made (a change's draft), checked before storing",
    patterns: [String.raw`/^[0-9A-Z-]{4,20}$/`, String.raw`/^[\w:.-]{1,100}$/`, String.raw`/^\d{4}$/`],
  },
  "lib/storage/donor_session_records.ts": {
    why: "hashes we computed; an address the form checked with isEmail (at most 254 characters) first",
    patterns: [String.raw`/^[0-9a-f]{64}$/`, String.raw`/^[^\s@A-Z]{1,64}@[^\s@A-Z]{1,255}$/`],
  },
  "lib/storage/two_factor_records.ts": {
    why: "recovery-code hashes we computed (HMAC hex)",
    patterns: [String.raw`/^[0-9a-f]{64}$/`],
  },
  "lib/storage/card_update_records.ts": {
    why: "ids we made, the provider's references (checked by the provider first), the route's language",
    patterns: [String.raw`/^[A-Za-z0-9_.:-]{1,128}$/`, String.raw`/^[a-z]{2}$/`],
  },
  "lib/outbox/outbox_view.ts": {
    why: "base64 we encoded; the sender's stored failure reasons (at most 1,000 characters)",
    patterns: [String.raw`/=+$/`, String.raw`/(\s+)/`],
  },
  "lib/staff/passwords.ts": {
    why: "hashes we made and stored",
    patterns: [
      String.raw`/=+$/`,
      String
        .raw`/^\$argon2id\$v=19\$m=(\d{1,7}),t=(\d{1,3}),p=(\d{1,3})\$([A-Za-z0-9+/]{11,88})\$([A-Za-z0-9+/]{22,88})$/`,
    ],
  },
  "lib/staff/tokens.ts": { why: "base64 of random bytes", patterns: [String.raw`/=+$/`] },
  "lib/app/config.ts": {
    why: "the environment, read once at start",
    patterns: [
      String.raw`/\/+$/`,
      String.raw`/^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/`,
      String.raw`/^127\.\d+\.\d+\.\d+$/`,
      String.raw`/^[0-9A-Fa-f:.]{2,45}$/`,
      String.raw`/^\[|\]$/g`,
      String.raw`/^\d{1,5}$/`,
      String.raw`/^\d{1,9}$/`,
      String.raw`/^https:\/\/[^\s/]+\.[^\s]+$/`,
    ],
  },
  "lib/providers/config.ts": {
    why: "the environment, read once at start",
    patterns: [
      String.raw`/\/+$/`,
      String.raw`/^([A-Za-z0-9_-]{1,32}):([A-Za-z0-9_-]{1,64})$/`,
      String.raw`/^(manual|approve|timeout|decline:\d{3})$/`,
      String.raw`/^[A-Za-z0-9_-]{1,32}$/`,
      String.raw`/^\d{1,5}$/`,
      String.raw`/^\d{1,9}$/`,
      String.raw`/^https?:\/\/[^\s/]+$/`,
    ],
  },
  "lib/core/config_values.ts": {
    why: "the environment, read once at start",
    patterns: [String.raw`/^\d{1,6}$/`],
  },
  "lib/framework/build.ts": {
    why: "the build: source file names",
    patterns: [
      String.raw`/(?:^|\/)node_modules\/(?:\.deno\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)\//`,
      String.raw`/.*/`,
      String.raw`/\.(js|css|svg|json|txt|map|ico)$/`,
      String.raw`/_test\.tsx?$/`,
    ],
  },
  "lib/framework/manifest.ts": {
    why: "the build: route and island file names",
    patterns: [
      String.raw`/\.(tsx|jsx|ts)$/`,
      String.raw`/^[A-Z][A-Za-z0-9]*$/`,
      String.raw`/_test\.|\.test\./`,
    ],
  },
  "lib/framework/page_cache.ts": {
    why: "our own rendered pages and slot values (the `new RegExp` is built from our markers)",
    patterns: [String.raw`/^[A-Za-z0-9._:+/=-]*$/`, String.raw`/^[A-Za-z][A-Za-z0-9]*$/`, "new RegExp"],
  },
  "lib/framework/page_weight.ts": {
    why: "our own pages (size reports)",
    patterns: [
      String.raw`/<script\b([^>]*)>([\s\S]*?)<\/script>/gi`,
      String.raw`/\bsrc="([^"]+)"/`,
      String.raw`/from\s*"([^"]+)"/g`,
    ],
  },
  "lib/framework/render.ts": { why: "the nonce we made", patterns: [String.raw`/[^A-Za-z0-9+/=_-]/g`] },
  "lib/framework/router.ts": {
    why: "route file names at start",
    patterns: [
      String.raw`/^\([A-Za-z0-9_-]+\)$/`,
      String.raw`/(_test|\.test)\.(tsx?|jsx?)$/`,
      String.raw`/\.(tsx|ts|jsx|js)$/`,
      String.raw`/^[A-Za-z0-9._~-]+$/`,
      String.raw`/^\[([A-Za-z_][A-Za-z0-9_]*)\]$/`,
      String.raw`/^\[\.\.\.([A-Za-z_][A-Za-z0-9_]*)\]$/`,
      String.raw`/^\[\[([A-Za-z_][A-Za-z0-9_]*)\]\]$/`,
      String.raw`/^\([A-Za-z0-9_-]+\)$/`,
    ],
  },
  "lib/app/openapi.ts": {
    why: "route paths",
    patterns: [String.raw`/:(\w+)\??/g`, String.raw`/\{(\w+)\}/g`],
  },
  "lib/providers/pelecard/protocol.ts": { why: "the configured base URL", patterns: [String.raw`/\/+$/`] },
  "lib/providers/sandbox/sandbox.ts": {
    why: "references we stored",
    patterns: [String.raw`/^([^:]+):(.+):(\d+)$/`],
  },
  "lib/shared/axis_labels.ts": {
    why: "one character at a time of a chart label or heading we formatted (dates, months, amounts)",
    patterns: [
      String.raw`/[\u200e\u200f\u2066-\u2069]/`,
      String.raw`/[\u2066-\u2068]/`,
      String.raw`/\s/`,
      String.raw`/\d/`,
      String.raw`/[\p{Ll}\p{Lo}]/u`,
      String.raw`/\p{Lu}/u`,
      String.raw`/[.,:;'’׳״!|()[\]\-ilIjtfr1]/`,
      String.raw`/[mwMWшщжюмыШЩЖЮМЫ]/`,
    ],
  },
  "lib/shared/money.ts": {
    why: "digits of a number we format (at most ~310; quadratic on long digit strings, so never input)",
    patterns: [String.raw`/\B(?=(\d{3})+$)/g`],
  },
  "lib/shared/signing.ts": { why: "keys we derived", patterns: [String.raw`/^(?:[0-9a-f]{2})*$/i`] },
  "lib/signing/signature_check.ts": {
    why: "SIGNING_KEYS, at start",
    patterns: [String.raw`/^([0-9a-f]{2}){32,}$/i`, String.raw`/^[A-Za-z0-9_-]{1,64}$/`],
  },
  "lib/storage/kv/atomic.ts": {
    why: "Deno KV's error messages",
    patterns: [String.raw`/database is locked|SQLITE_BUSY/i`],
  },
  "lib/storage/kv/mod.ts": { why: "KV_PATH", patterns: [String.raw`/^https?:\/\//`] },
  "lib/storage/postgres/availability.ts": {
    why: "PostgreSQL's error codes",
    patterns: [String.raw`/^(08|57P0[123]$|53300$)/`],
  },
  "lib/storage/postgres/mod.ts": {
    why: "the schema name setting",
    patterns: [String.raw`/^[a-z_][a-z0-9_]{0,62}$/`],
  },
  "routes/sandbox/pay/[ref].tsx": { why: "a URL we built, as JSON", patterns: [String.raw`/</g`] },
  "lib/outbox/config.ts": {
    why: "the environment, read once at start",
    patterns: [String.raw`/^(?:[^<>\r\n"]+ <[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/`],
  },
  "lib/desk/offline/key_store.ts": {
    why: "the museum's public key, as our own server serves it",
    patterns: [String.raw`/^[A-Za-z0-9_-]{43}$/`],
  },
  "lib/memberships/config_wallet.ts": {
    why: "the operator's wallet configuration, read at start-up",
    patterns: [String.raw`/^pass\.[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/`, String.raw`/^[A-Z0-9]{10}$/`],
  },
  "lib/visits/desk_worker.ts": {
    why: "the desk page's own HTML and scope, as our server answers them",
    patterns: [String.raw`/\/$/`, String.raw`/(?:href|src)="(\/(?:_app\/|museum\.css)[^"]*)"/g`],
  },
  "islands/Desk.tsx": {
    why: "our own API's error messages",
    patterns: [String.raw`/member card/`, String.raw`/member number/`],
  },
  "lib/framework/umd_as_esm.ts": {
    why: "the build's own package names and the files it resolves",
    patterns: ["/[.*+?^${}()|[\\]\\\\/]/g", "new RegExp"],
  },
};
