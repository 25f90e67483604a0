import { decisionHandler } from "./_decision.ts";

export { approveAdminDocs as docs } from "@/lib/staff/api_docs.ts";
export { roles } from "./_decision.ts";

/** `POST /api/auth/admin/{id}/approve` → the admin, approved (owners only). */
export const handler = decisionHandler("approved");
