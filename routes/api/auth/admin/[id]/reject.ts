import { decisionRoute } from "./_decision.ts";

export { roles } from "./_decision.ts";

/** `POST /api/auth/admin/{id}/reject` → the admin, rejected (owners only). */
export const { docs, handler } = decisionRoute("rejected");
