import { PageTitle } from "@/components/PageTitle.tsx";
import AdminAudit, { type AuditFilters } from "@/islands/AdminAudit.tsx";
import { Head, type PageProps } from "@/lib/framework/mod.ts";
import { textsUnder } from "@/lib/core/i18n.ts";
import { AUDIT_ACTIONS } from "@/lib/storage/audit_types.ts";
import type { AppState } from "@/lib/app/state.ts";

/**
 * `/{lang}/admin/audit?actor&action&from&to`: the audit log (issue 16; owners and admins: the API
 * refuses other roles). The filters come from the query as given (cut to a sane length); the API
 * validates them and says what is wrong.
 */
export default function Page({ state, url }: PageProps<unknown, AppState>) {
  const { t, lang } = state;
  const read = (name: string) => url.searchParams.get(name)?.trim().slice(0, 200) ?? "";
  const filters: AuditFilters = {
    actor: read("actor"),
    action: read("action"),
    from: read("from"),
    to: read("to"),
  };
  const texts = textsUnder(lang, ["staffAdmin", "transactions", "apiErrors", "common.notAvailable"]);
  return (
    <section class="admin admin-audit">
      <Head>
        <meta name="robots" content="noindex" />
      </Head>
      <PageTitle title={t("staffAdmin.auditTitle")} siteName={t("meta.siteName")} />
      <noscript>
        <p class="form-alert">{t("login.noscript")}</p>
      </noscript>
      <AdminAudit
        lang={lang}
        filters={filters}
        actions={AUDIT_ACTIONS}
        texts={texts}
        timeZone={state.services.config.museumTimeZone}
      />
    </section>
  );
}
