import { decisionRoute } from "./_decision.ts";

/** `POST /api/auth/admin/{id}/approve` → the admin, approved (approved admins only). */
export const { docs, handler } = decisionRoute("approved");
