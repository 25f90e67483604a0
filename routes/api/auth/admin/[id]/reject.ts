import { decisionHandler } from "./_decision.ts";

export { rejectAdminDocs as docs } from "@/lib/staff/api_docs.ts";
export { roles } from "./_decision.ts";

/** `POST /api/auth/admin/{id}/reject` → the admin, rejected (owners only). */
export const handler = decisionHandler("rejected");
