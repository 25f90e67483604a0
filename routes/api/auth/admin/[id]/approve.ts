import { decisionRoute } from "./_decision.ts";

export { roles } from "./_decision.ts";

/** `POST /api/auth/admin/{id}/approve` → the admin, approved (owners only). */
export const { docs, handler } = decisionRoute("approved");
