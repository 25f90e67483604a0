import { AdminPage, adminTexts } from "@/components/AdminPage.tsx";
import AdminAudit, { type AuditFilters } from "@/islands/AdminAudit.tsx";
import type { PageProps } from "@/lib/framework/mod.ts";
import { AUDIT_ACTIONS } from "@/lib/storage/audit_types.ts";
import type { AppState } from "@/lib/app/state.ts";

/**
 * `/{lang}/admin/audit?actor&action&from&to`: the audit log section (issues 16 and 26; owners and
 * admins: the API refuses other roles). The filters come from the query as given (cut to a sane
 * length); the API validates them and says what is wrong.
 */
export default function Page({ state, url }: PageProps<unknown, AppState>) {
  const read = (name: string) => url.searchParams.get(name)?.trim().slice(0, 200) ?? "";
  const filters: AuditFilters = {
    actor: read("actor"),
    action: read("action"),
    from: read("from"),
    to: read("to"),
  };
  const texts = adminTexts(state, ["staffAdmin", "transactions", "common.notAvailable"]);
  return (
    <AdminPage state={state} section="audit">
      <AdminAudit
        lang={state.lang}
        timeZone={state.services.config.museumTimeZone}
        filters={filters}
        actions={AUDIT_ACTIONS}
        texts={texts}
      />
    </AdminPage>
  );
}
