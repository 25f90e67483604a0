import { AdminPage, adminTexts } from "@/components/AdminPage.tsx";
import AdminMember from "@/islands/AdminMember.tsx";
import AdminMembers, { type MemberFilters } from "@/islands/AdminMembers.tsx";
import type { PageProps } from "@/lib/framework/mod.ts";
import type { AppState } from "@/lib/app/state.ts";
import { MEMBERSHIP_STATES, type MembershipState } from "@/lib/shared/memberships.ts";

/**
 * `/{lang}/admin/members` (issue 27, item 8): the members list, filtered by `?state`, `?level`,
 * `?expiring` and `?search` (the island's GET form), or with `?number=` a member's page. The
 * session lives in the browser, so the server renders the frame and the island asks the API with
 * the admin's token. The query is read as given and bounded; the API validates what it is sent.
 */
export default function Page({ state, url }: PageProps<unknown, AppState>) {
  const q = url.searchParams;
  const level = Number(q.get("level"));
  const stateParam = q.get("state") as MembershipState | null;
  const filters: MemberFilters = {
    state: stateParam && MEMBERSHIP_STATES.includes(stateParam) ? stateParam : null,
    level: Number.isSafeInteger(level) && level > 0 ? level : null,
    expiring: q.has("expiring"),
    search: (q.get("search") ?? "").slice(0, 320),
  };
  // The `[lang]` middleware read the museum's settings for every page.
  const levels = state.museum?.levels ?? [];
  const texts = adminTexts(state, [
    "membersAdmin",
    "membershipAutoRenew.admin",
    "membershipAutoRenew.labels.status",
    // A member's visits (issue 28).
    "frontDesk.memberVisitsTitle",
    "frontDesk.memberNoVisits",
    "frontDesk.columns",
    "frontDesk.kinds",
    "frontDesk.reasonShown",
    "backofficeMail.kinds",
    "backofficeMail.states",
    "transactions.errorPrefix",
  ]);
  const number = q.get("number")?.trim().slice(0, 40);
  const timeZone = state.services.config.museumTimeZone;
  // A member's page and the list are islands of their own: each ships without the other's code.
  return (
    <AdminPage state={state} section="members">
      {number
        ? <AdminMember lang={state.lang} timeZone={timeZone} texts={texts} number={number} />
        : (
          <AdminMembers
            lang={state.lang}
            timeZone={timeZone}
            texts={texts}
            levels={levels.map((l) => ({ id: l.id, name: l.name[state.lang] }))}
            filters={filters}
          />
        )}
    </AdminPage>
  );
}
