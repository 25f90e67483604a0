/**
 * Each domain error's answer (status, body, headers), that no kind is left without one, and that
 * the domain (`lib/staff/`, `lib/donations/`) never imports the HTTP layer.
 */
import assert from "node:assert/strict";
import * as authErrors from "@/lib/staff/errors.ts";
import { DomainError } from "@/lib/core/errors.ts";
import * as kioskErrors from "@/lib/kiosk/errors.ts";
import * as paymentErrors from "@/lib/donations/errors.ts";
import * as receiptErrors from "@/lib/receipts/errors.ts";
import { OutboxCursorError } from "@/lib/outbox/outbox_view.ts";
import { SignatureError } from "@/lib/signing/signature_check.ts";
import { errorAnswer, errorResponse } from "./domain_errors.ts";
import { HttpError } from "./validation.ts";

/** One of each kind of domain error, with the status the API answers it with. */
const CASES: [DomainError, number][] = [
  [new authErrors.WeakPasswordError("The password must have at least 6 characters"), 400],
  [new authErrors.InvalidCredentialsError(), 401],
  [new authErrors.SignInRequiredError(), 401],
  [new authErrors.AccessTokenError("expired"), 401],
  [new authErrors.AccessTokenError("invalid"), 401],
  [new authErrors.RefreshTokenError("unknown"), 401],
  [new authErrors.RefreshTokenError("revoked"), 401],
  [new authErrors.RefreshTokenError("expired"), 401],
  [new authErrors.RefreshTokenError("reused"), 401],
  [new authErrors.RefreshTokenError("sessionTooOld"), 401],
  [new authErrors.AccountInactiveError(), 401],
  [new authErrors.AccountRejectedError(), 403],
  [new authErrors.RegistrationClosedError(), 403],
  [new authErrors.NotApprovedError(), 403],
  [new authErrors.NoSuchAdminError(), 404],
  [new authErrors.EmailRegisteredError(), 409],
  [new authErrors.OwnDecisionError(), 409],
  [new authErrors.AlreadyDecidedError("approved"), 409],
  [new authErrors.RoleRefusedError("viewer"), 403],
  [new authErrors.OwnRoleError(), 409],
  [new authErrors.LastOwnerRefusedError(), 409],
  [new authErrors.NotActiveAdminError("deactivated"), 409],
  [new authErrors.LoginThrottledError(600), 429],
  [new authErrors.PasswordsBusyError(3), 503],
  [
    new paymentErrors.InvalidDonationError("The amount must be at least 1", [{
      path: "amount",
      message: "too small",
    }]),
    400,
  ],
  [new paymentErrors.MonthlyUnavailableError(), 400],
  [new paymentErrors.UnknownDonorError(), 404],
  [new paymentErrors.TerminalBusyError(), 409],
  [new paymentErrors.ProviderUnavailableError("provider"), 503],
  [new paymentErrors.ProviderUnavailableError("terminal"), 503],
  [new paymentErrors.TerminalInUseError(), 409],
  [new kioskErrors.KioskDeviceRequiredError("not-paired"), 403],
  [new kioskErrors.KioskDeviceRequiredError("revoked"), 403],
  [new kioskErrors.KioskDeviceRequiredError("wrong-shop"), 403],
  [new kioskErrors.PairingCodeError(), 400],
  [new kioskErrors.NoTerminalForShopError("12"), 400],
  [new kioskErrors.NoSuchKioskDeviceError(), 404],
  [new kioskErrors.KioskDeviceRevokedError(), 409],
  [new receiptErrors.NoSuchTransactionError(), 404],
  [new receiptErrors.NotReceiptableError(), 409],
  [new receiptErrors.TooManyResendsError(), 409],
  [new OutboxCursorError(), 400],
  [new receiptErrors.ReceiptsNotConfiguredError(), 503],
  [new receiptErrors.ReceiptsBusyError(2), 503],
];

Deno.test("domain errors: each kind answers its status, with its message and fields", () => {
  for (const [error, status] of CASES) {
    const answer = errorAnswer(error);
    assert.ok(answer, error.name);
    assert.equal(answer.status, status, error.name);
    assert.equal(answer.message, error.message, error.name);
    assert.deepEqual(answer.errors, error.errors, error.name);
  }
});

Deno.test("domain errors: every error class the domain exports has a case (and so a status)", () => {
  const bases = new Set<unknown>([
    authErrors.AuthError,
    paymentErrors.PaymentError,
    kioskErrors.KioskError,
    receiptErrors.ReceiptError,
  ]);
  const classes = [
    ...Object.values(authErrors),
    ...Object.values(paymentErrors),
    ...Object.values(kioskErrors),
    ...Object.values(receiptErrors),
  ].filter((v) => typeof v === "function" && v.prototype instanceof DomainError && !bases.has(v));
  assert.ok(classes.length >= 19);
  for (const kind of classes) {
    assert.ok(CASES.some(([e]) => e.constructor === kind), `${(kind as { name: string }).name} has no case`);
  }
});

Deno.test("domain errors: the JSON answer is the API's, with Retry-After when throttled", async () => {
  const throttled = errorResponse(errorAnswer(new authErrors.LoginThrottledError(61))!);
  assert.equal(throttled.status, 429);
  assert.equal(throttled.headers.get("retry-after"), "61");
  const busy = errorResponse(errorAnswer(new receiptErrors.ReceiptsBusyError(3))!);
  assert.deepEqual([busy.status, busy.headers.get("retry-after")], [503, "3"]);
  await busy.body?.cancel();
  assert.equal(
    await throttled.text(),
    '{"message":"Too many failed sign-in attempts; try again in 2 minute(s)","statusCode":429}',
  );
  const taken = errorResponse(errorAnswer(new authErrors.EmailRegisteredError())!);
  assert.deepEqual(await taken.json(), {
    message: "An account with this email already exists",
    statusCode: 409,
    errors: [{ path: "email", message: "already registered" }],
  });
  assert.equal(taken.headers.get("retry-after"), null);
});

Deno.test("domain errors: a full password queue answers 503 with Retry-After", async () => {
  const busy = errorResponse(errorAnswer(new authErrors.PasswordsBusyError(3))!);
  assert.equal(busy.status, 503);
  assert.equal(busy.headers.get("retry-after"), "3");
  assert.deepEqual(await busy.json(), {
    message: "The server is busy checking other passwords; try again in 3 second(s)",
    statusCode: 503,
  });
});

Deno.test("domain errors: the HTTP layer's own errors and signatures; anything else is not known", () => {
  assert.deepEqual(errorAnswer(new HttpError(415, "JSON please", undefined, { "x-a": "1" })), {
    status: 415,
    message: "JSON please",
    errors: undefined,
    headers: { "x-a": "1" },
  });
  assert.deepEqual(errorAnswer(new SignatureError("The signature is not valid")), {
    status: 401,
    message: "The signature is not valid",
  });
  assert.equal(errorAnswer(new Error("boom")), null);
  assert.equal(errorAnswer(new DomainError("a kind nobody mapped")), null);
  assert.equal(errorAnswer("not even an error"), null);
});

Deno.test("domain errors: the status comes from the error's kind, so a new error needs no entry here", () => {
  const statuses = {
    invalid: 400,
    unauthorized: 401,
    forbidden: 403,
    not_found: 404,
    conflict: 409,
    too_large: 413,
    rate_limited: 429,
    unavailable: 503,
  } as const;
  for (const [kind, status] of Object.entries(statuses)) {
    class NewConceptError extends DomainError {
      override readonly kind = kind as keyof typeof statuses;
    }
    const answer = errorAnswer(new NewConceptError("a new concept's refusal"));
    assert.deepEqual(answer, {
      status,
      message: "a new concept's refusal",
      errors: undefined,
      headers: undefined,
    });
  }
  // Each case's kind is the one its status says.
  for (const [error, status] of CASES) assert.equal(statuses[error.kind!], status, error.name);
});

/** The modules a source file imports (static, type-only, re-exports and dynamic). */
function importsOf(source: string): string[] {
  const found: string[] = [];
  const patterns = [
    /\b(?:import|export)\s+(?:type\s+)?[^"';]*?\bfrom\s*["']([^"']+)["']/g,
    /\bimport\s*["']([^"']+)["']/g,
    /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
  ];
  for (const pattern of patterns) for (const m of source.matchAll(pattern)) found.push(m[1]);
  return found;
}

const ROOT = new URL("../../", import.meta.url);

/** Every `.ts`/`.tsx` file under a folder of the project. */
async function sourcesUnder(folder: string): Promise<URL[]> {
  const out: URL[] = [];
  const dir = new URL(folder, ROOT);
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isDirectory) out.push(...await sourcesUnder(`${folder}${entry.name}/`));
    else if (/\.tsx?$/.test(entry.name)) out.push(new URL(entry.name, dir));
  }
  return out;
}

Deno.test("layers: no module of lib/staff/, lib/donations/ or lib/kiosk/ imports lib/http/", async () => {
  assert.deepEqual(
    importsOf(
      'import type { A } from "../http/x.ts";\nexport { b } from "@/lib/http/y.ts";\nawait import("./z.ts");',
    ),
    ["../http/x.ts", "@/lib/http/y.ts", "./z.ts"],
  );
  const http = new URL("lib/http/", ROOT).href;
  const offending: string[] = [];
  const files = [
    ...await sourcesUnder("lib/staff/"),
    ...await sourcesUnder("lib/donations/"),
    ...await sourcesUnder("lib/kiosk/"),
  ];
  assert.ok(files.length >= 10);
  for (const file of files) {
    for (const specifier of importsOf(await Deno.readTextFile(file))) {
      const target = specifier.startsWith("@/")
        ? new URL(specifier.slice(2), ROOT)
        : specifier.startsWith(".")
        ? new URL(specifier, file)
        : null;
      if (target?.href.startsWith(http)) {
        offending.push(`${file.href.slice(ROOT.href.length)} → ${specifier}`);
      }
    }
  }
  assert.deepEqual(offending, []);
});
