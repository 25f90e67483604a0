/**
 * The admin API's payloads (`/api/auth/admin/…`): registration, sign-in, sessions and roles.
 *
 * @module
 */
import { z } from "zod";
import { atMost, email, required, text } from "@/lib/core/schema_fields.ts";
import { ADMIN_ROLES } from "@/lib/storage/types.ts";

/** Passwords are checked for policy by the server (length, common passwords), not here. */
const password = () =>
  z.string({ error: "password must be a string" }).min(1, required("password"))
    .max(1024, atMost("password", 1024, "password is too long"));

/** `POST /api/auth/admin/register`: the spec sends email and password; `name` is accepted too. */
export const AdminRegisterSchema = z.object({
  email: email(),
  password: password(),
  name: text("name", 100).refine((s) => [...s].length >= 2, "name must be at least 2 characters").optional(),
}).meta({ id: "AdminRegister" });

/** `POST /api/auth/admin/login`. */
export const AdminLoginSchema = z.object({ email: email(), password: password() }).meta({ id: "AdminLogin" });

/** `POST /api/auth/admin/refresh` and `POST /api/auth/admin/logout`. */
export const RefreshSchema = z.object({
  refreshToken: z.string({ error: "refreshToken must be a string" }).min(1, required("refreshToken"))
    .max(200, atMost("refreshToken", 200, "refreshToken is too long")),
}).meta({ id: "RefreshRequest" });

export const AdminSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  createdAt: z.string(),
  status: z.enum(["approved", "pending", "rejected", "deactivated"]),
  role: z.enum(ADMIN_ROLES).nullable().describe(
    "owner, admin, finance or viewer (approved and deactivated admins); null while pending or rejected",
  ),
}).meta({ id: "Admin" });

/** `POST /api/auth/admin/{id}/approve` (optional body) and `POST /api/auth/admin/{id}/role`. */
export const AdminRoleSchema = z.strictObject({
  role: z.enum(ADMIN_ROLES).describe("What the admin may do: owner, admin, finance or viewer"),
}).meta({ id: "AdminRole" });

export const AdminSessionSchema = AdminSchema.extend({
  accessToken: z.string(),
  refreshToken: z.string(),
}).meta({ id: "AdminSession" });

export const TokenPairSchema = z.object({
  data: z.object({ accessToken: z.string(), refreshToken: z.string() }),
}).meta({ id: "TokenPair" });
