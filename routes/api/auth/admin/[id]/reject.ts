import { decisionRoute } from "./_decision.ts";

/** `POST /api/auth/admin/{id}/reject` → the admin, rejected (approved admins only). */
export const { docs, handler } = decisionRoute("rejected");
