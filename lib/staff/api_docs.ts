/**
 * The staff accounts' (sign-in, approval, roles, two-factor) API operations as the OpenAPI document
 * describes them: one export per route, which the route re-exports as its `docs` (`lib/app/openapi.ts`
 * builds the document from them).
 *
 * @module
 */
import { z } from "zod";
import {
  AdminLoginSchema,
  AdminRegisterSchema,
  AdminRoleSchema,
  AdminSchema,
  AdminSessionSchema,
  RefreshSchema,
  TokenPairSchema,
} from "./schemas.ts";
import {
  EnrolmentSchema,
  RecoveryCodesSchema,
  SecondFactorChallengeSchema,
  TwoFactorCodeSchema,
  TwoFactorRequiredSchema,
  TwoFactorStatusSchema,
  TwoFactorVerifySchema,
} from "./two_factor_schemas.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";

/** `POST /api/auth/admin/login`. */
export const loginDocs: RouteDocs = {
  POST: {
    summary: "Sign an admin in",
    description: "More than 5 failures within 15 minutes, per email or per client address, answer 429; " +
      "attempts in progress count, so a parallel burst gets at most 5 checked. When too many passwords " +
      "wait to be checked, 503 with Retry-After. An admin with two-factor gets `{ secondFactor, " +
      "pendingToken }` instead of a session: send a code to `two-factor/verify`. With two-factor required " +
      "and not set up, the session has `twoFactorEnrolmentDue: true` and opens only the enrolment.",
    tags: ["admins"],
    body: AdminLoginSchema,
    responses: {
      200: {
        description: "The profile and a session, or the code step's challenge",
        schema: z.union([AdminSessionSchema, SecondFactorChallengeSchema]),
      },
      401: { description: "Invalid credentials" },
      403: { description: "The account was rejected" },
      429: { description: "Too many failed attempts; see Retry-After" },
      503: { description: "Too many passwords being checked at once; see Retry-After" },
    },
  },
};

/** `POST /api/auth/admin/logout`. */
export const logoutDocs: RouteDocs = {
  POST: {
    summary: "Sign out",
    description: "Revokes the session of the refresh token (every token rotated from it). Idempotent.",
    tags: ["admins"],
    body: RefreshSchema,
    responses: { 204: { description: "Signed out" } },
  },
};

/** `GET /api/auth/admin/me`. */
export const meDocs: RouteDocs = {
  GET: {
    summary: "The signed-in admin",
    description: "Answers for pending admins too, so the back office can show them their status. " +
      "`twoFactorEnrolmentDue`: two-factor is required and not set up (only enrolment is open).",
    tags: ["admins"],
    auth: "bearer",
    responses: {
      200: {
        description: "The profile",
        schema: AdminSchema.extend({ twoFactorEnrolmentDue: z.boolean() }),
      },
    },
  },
};

/** `GET /api/auth/admin/pending`. */
export const pendingAdminsDocs: RouteDocs = {
  GET: {
    summary: "Admins waiting for approval",
    tags: ["admins"],
    auth: "bearer",
    responses: {
      200: { description: "Pending admins, oldest first", schema: z.array(AdminSchema) },
      403: { description: "The caller is not approved" },
    },
  },
};

/** `POST /api/auth/admin/refresh`. */
export const refreshDocs: RouteDocs = {
  POST: {
    summary: "Exchange a refresh token for a new pair",
    description: "Each refresh token works once; using a spent one again revokes the whole session. A " +
      "session ends 30 days after its sign-in, however often it is refreshed.",
    tags: ["admins"],
    body: RefreshSchema,
    responses: {
      200: { description: "New tokens, inside `data`", schema: TokenPairSchema },
      401: { description: "Unknown, expired, spent or revoked refresh token, or a session past 30 days" },
    },
  },
};

/** `POST /api/auth/admin/register`. */
export const registerDocs: RouteDocs = {
  POST: {
    summary: "Register an admin",
    description: "Under ADMIN_REGISTRATION=approval the first admin is approved at once and later ones are " +
      "pending until an approved admin approves them; `closed` answers 403.",
    tags: ["admins"],
    body: AdminRegisterSchema,
    responses: {
      201: { description: "The profile and a session", schema: AdminSessionSchema },
      403: { description: "Registration is closed" },
      409: { description: "The email is already registered" },
      503: { description: "Too many passwords being checked at once; see Retry-After" },
      429: { description: "Too many registrations from this address, or from everyone; see Retry-After" },
    },
  },
};

/** `GET /api/auth/admin/staff`. */
export const staffListDocs: RouteDocs = {
  GET: {
    summary: "The museum's staff: active and deactivated admins with their roles",
    tags: ["admins"],
    auth: "bearer",
    responses: {
      200: { description: "Active admins oldest first, then deactivated ones", schema: z.array(AdminSchema) },
      403: { description: "The caller is not an owner" },
    },
  },
};

/** `GET /api/auth/admin/two-factor`. */
export const twoFactorStatusDocs: RouteDocs = {
  GET: {
    summary: "The signed-in admin's two-factor state",
    description:
      "Open while enrolment is due (two-factor required and not set up), like the enrolment calls.",
    tags: ["two-factor"],
    auth: "bearer",
    responses: {
      200: { description: "The state", schema: TwoFactorStatusSchema },
      403: { description: "The account is waiting for approval" },
    },
  },
};

/** `POST /api/auth/admin/two-factor/confirm`. */
export const twoFactorConfirmDocs: RouteDocs = {
  POST: {
    summary: "Confirm two-factor sign-in with a first code",
    description: "Audited (`two-factor-enrolled`). Answers 10 recovery codes, this once: only their keyed " +
      "hashes are kept. From now on, signing in asks for a code after the password.",
    tags: ["two-factor"],
    auth: "bearer",
    body: TwoFactorCodeSchema,
    responses: {
      200: { description: "The recovery codes", schema: RecoveryCodesSchema },
      400: { description: "The code does not match the secret being set up" },
      409: { description: "No set-up in progress, or two-factor is already set up" },
      403: { description: "The account is waiting for approval" },
    },
  },
};

/** `POST /api/auth/admin/two-factor/disable`. */
export const twoFactorDisableDocs: RouteDocs = {
  POST: {
    summary: "Turn off my two-factor sign-in",
    description: "With a current code from the authenticator app: the password alone signs in again. " +
      "Refused while an owner requires two-factor for everyone. Audited (`two-factor-disabled`). Wrong " +
      "codes count toward the login throttle.",
    tags: ["two-factor"],
    auth: "bearer",
    body: TwoFactorCodeSchema,
    responses: {
      204: { description: "Two-factor sign-in is off for this account" },
      400: { description: "Not the current code from the app (or one already used)" },
      409: { description: "Two-factor is required for everyone, or not set up for this account" },
      403: { description: "The account is waiting for approval" },
      429: { description: "Too many wrong codes and passwords: try again later" },
    },
  },
};

/** `POST /api/auth/admin/two-factor/enrol`. */
export const twoFactorEnrolDocs: RouteDocs = {
  POST: {
    summary: "Start setting up two-factor sign-in",
    description: "A new TOTP secret (as a QR code, an otpauth URI and text) for an authenticator app; " +
      "calling it again replaces one not yet confirmed. Confirm with a first code at `two-factor/confirm`.",
    tags: ["two-factor"],
    auth: "bearer",
    responses: {
      200: { description: "The secret to add to the app", schema: EnrolmentSchema },
      409: { description: "Two-factor is already set up (an owner resets it)" },
      403: { description: "The account is waiting for approval" },
    },
  },
};

/** `POST /api/auth/admin/two-factor/recovery-codes`. */
export const recoveryCodesDocs: RouteDocs = {
  POST: {
    summary: "Replace my recovery codes",
    description: "With a current code from the authenticator app (not a recovery code): answers 10 new " +
      "recovery codes, this once; the old ones stop working. The code is spent. Audited " +
      "(`two-factor-recovery-codes`). Wrong codes count toward the login throttle.",
    tags: ["two-factor"],
    auth: "bearer",
    body: TwoFactorCodeSchema,
    responses: {
      200: { description: "The new recovery codes", schema: RecoveryCodesSchema },
      400: { description: "Not the current code from the app (or one already used)" },
      409: { description: "Two-factor sign-in is not set up for this account" },
      403: { description: "The account is waiting for approval" },
      429: { description: "Too many wrong codes and passwords: try again later" },
    },
  },
};

/** `POST /api/auth/admin/two-factor/required`. */
export const twoFactorRequiredDocs: RouteDocs = {
  POST: {
    summary: "Require two-factor sign-in for everyone (or stop)",
    description: "Owners only; audited (`two-factor-required`) when it changes. Takes effect at every " +
      "account's next request: one without two-factor can then only set it up.",
    tags: ["two-factor"],
    auth: "bearer",
    body: TwoFactorRequiredSchema,
    responses: {
      200: { description: "The setting now", schema: TwoFactorRequiredSchema },
      403: { description: "The caller is not an owner" },
    },
  },
};

/** `POST /api/auth/admin/two-factor/verify`. */
export const twoFactorVerifyDocs: RouteDocs = {
  POST: {
    summary: "Sign in: the code step",
    description:
      "Trades the password step's `pendingToken` (5 minutes) and a code of the authenticator app, " +
      "or a recovery code, for a session. Each code works once. Wrong codes count with wrong passwords: more " +
      "than 5 within 15 minutes, per email or per client address, answer 429.",
    tags: ["two-factor"],
    body: TwoFactorVerifySchema,
    responses: {
      200: { description: "The profile and a session", schema: AdminSessionSchema },
      401: { description: "A wrong or spent code, or an expired or changed pending token" },
      429: { description: "Too many failed attempts; see Retry-After" },
    },
  },
};

/** `POST /api/auth/admin/{id}/approve` and `…/reject`: an owner decides on a pending admin. */
function decisionDocs(status: "approved" | "rejected"): RouteDocs {
  const verb = status === "approved" ? "Approve" : "Reject";
  return {
    POST: {
      summary: `${verb} a pending admin`,
      tags: ["admins"],
      auth: "bearer",
      ...(status === "approved"
        ? {
          description: "An optional JSON body `{ role }` names the role; without one the admin is a viewer.",
        }
        : {}),
      responses: {
        200: { description: `The admin, now ${status}`, schema: AdminSchema },
        403: { description: "The caller is not an owner" },
        409: {
          description: "The admin is not pending (also when another decision landed first), or is the caller",
        },
      },
    },
  };
}

/** `POST /api/auth/admin/{id}/approve`. */
export const approveAdminDocs: RouteDocs = decisionDocs("approved");

/** `POST /api/auth/admin/{id}/reject`. */
export const rejectAdminDocs: RouteDocs = decisionDocs("rejected");

/** `POST /api/auth/admin/{id}/deactivate`. */
export const deactivateAdminDocs: RouteDocs = {
  POST: {
    summary: "Deactivate another admin",
    description: "Audited. Every session of the account ends at once: its access and refresh tokens are " +
      "refused from its next request on. The last active owner cannot be deactivated.",
    tags: ["admins"],
    auth: "bearer",
    responses: {
      200: { description: "The admin, deactivated", schema: AdminSchema },
      403: { description: "The caller is not an owner" },
      404: { description: "No admin has this id" },
      409: { description: "The admin is not active, is the caller, or is the last owner" },
    },
  },
};

/** `POST /api/auth/admin/{id}/role`. */
export const adminRoleDocs: RouteDocs = {
  POST: {
    summary: "Change another admin's role",
    description:
      "Audited. The museum always keeps at least one active owner; an owner cannot change their own role.",
    tags: ["admins"],
    auth: "bearer",
    body: AdminRoleSchema,
    responses: {
      200: { description: "The admin with the new role", schema: AdminSchema },
      403: { description: "The caller is not an owner" },
      404: { description: "No admin has this id" },
      409: { description: "The admin is not active, is the caller, or is the last owner" },
    },
  },
};

/** `POST /api/auth/admin/{id}/two-factor-reset`. */
export const twoFactorResetDocs: RouteDocs = {
  POST: {
    summary: "Reset an admin's two-factor sign-in",
    description: "Owners only; audited (`two-factor-reset`). For a lost phone without recovery codes: the " +
      "admin signs in with the password alone, or sets two-factor up again at once when it is required.",
    tags: ["two-factor"],
    auth: "bearer",
    responses: {
      204: { description: "Reset" },
      403: { description: "The caller is not an owner" },
      404: { description: "No admin has this id" },
      409: { description: "The admin has no two-factor sign-in" },
    },
  },
};
