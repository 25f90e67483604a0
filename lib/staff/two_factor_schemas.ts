/**
 * The request and answer shapes of the staff's two-factor API (`routes/api/auth/admin/two-factor/`),
 * beside `schemas.ts` (kept apart so the second factor's shapes read together).
 *
 * @module
 */
import { z } from "zod";

const code = () =>
  z.string({ error: "code must be a string" }).trim().min(1, { error: "code is required", abort: true })
    .max(20, "code must be at most 20 characters").describe(
      "The 6-digit code of the authenticator app, or (at sign-in) a recovery code such as 7K2QM-ZP4XA",
    );

/** `POST /api/auth/admin/two-factor/confirm`. */
export const TwoFactorCodeSchema = z.strictObject({ code: code() }).meta({ id: "TwoFactorCode" });

/** `POST /api/auth/admin/two-factor/verify`. */
export const TwoFactorVerifySchema = z.strictObject({
  pendingToken: z.string({ error: "pendingToken must be a string" }).min(1, {
    error: "pendingToken is required",
    abort: true,
  }).max(1000, "pendingToken is too long").describe("What the password step answered"),
  code: code(),
}).meta({ id: "TwoFactorVerify" });

/** `POST /api/auth/admin/two-factor/required`. */
export const TwoFactorRequiredSchema = z.strictObject({
  required: z.boolean({ error: "required must be true or false" }),
}).meta({ id: "TwoFactorRequired" });

/** The password step's answer for an admin with two-factor. */
export const SecondFactorChallengeSchema = z.object({
  secondFactor: z.literal("totp"),
  pendingToken: z.string(),
  expiresAt: z.string().describe("When the pending token expires (5 minutes)"),
}).meta({ id: "SecondFactorChallenge" });

/** `GET /api/auth/admin/two-factor`. */
export const TwoFactorStatusSchema = z.object({
  enrolled: z.boolean(),
  required: z.boolean().describe("An owner requires two-factor for everyone"),
  enrolmentDue: z.boolean().describe("Required and not set up: only enrolment is open to this session"),
  recoveryCodesLeft: z.number(),
}).meta({ id: "TwoFactorStatus" });

/** `POST /api/auth/admin/two-factor/enrol`. */
export const EnrolmentSchema = z.object({
  secret: z.string().describe("The secret in base32, to type into the app instead of scanning"),
  otpauthUri: z.string(),
  qrSvg: z.string().describe("The otpauth URI as a QR code (SVG)"),
}).meta({ id: "TwoFactorEnrolment" });

/** `POST /api/auth/admin/two-factor/confirm`. */
export const RecoveryCodesSchema = z.object({
  recoveryCodes: z.array(z.string()).describe("10 one-time codes, shown this once"),
}).meta({ id: "RecoveryCodes" });
