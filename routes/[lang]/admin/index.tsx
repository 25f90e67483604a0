import { AdminPage, adminTexts } from "@/components/AdminPage.tsx";
import AdminOverview from "@/islands/AdminOverview.tsx";
import type { Handlers, PageProps } from "@/lib/framework/mod.ts";
import type { AppState } from "@/lib/app/state.ts";

/** The transaction history's view in a query (`lib/shared/transaction_filters.ts`). */
const HISTORY_VIEW = ["type", "payment", "search", "from", "to", "refund", "page"];

/**
 * `/{lang}/admin` with a history view (`?type=error&page=2`, bookmarked when the history was on
 * this page) goes to the transactions section with the same query (issue 26).
 */
export const handler: Handlers<unknown, AppState> = {
  GET(_req, ctx) {
    if (HISTORY_VIEW.some((name) => ctx.url.searchParams.has(name))) {
      return new Response(null, {
        status: 302,
        headers: { location: `/${ctx.state.lang}/admin/transactions${ctx.url.search}` },
      });
    }
    return ctx.render(null);
  },
};

/**
 * `/{lang}/admin`: the back office's overview, where signing in lands (issue 26): what needs the
 * signed-in role today (`islands/admin/Overview.tsx`, from `GET /api/overview`). The session lives
 * in the browser (spec section 3), so the server renders the shell with its waiting states and the
 * island does the rest.
 */
export default function Page({ state }: PageProps<unknown, AppState>) {
  const texts = adminTexts(state, ["overview", "staffAdmin.approveRole"]);
  return (
    <AdminPage state={state} section="overview" title={state.t("pages.admin")} indexed>
      <AdminOverview lang={state.lang} timeZone={state.services.config.museumTimeZone} texts={texts} />
    </AdminPage>
  );
}
