import { sectionHref, type SectionId, sectionsFor } from "@/lib/shared/admin_sections.ts";
import { Approvals } from "./Approvals.tsx";
import type { SectionView } from "./AdminShell.tsx";

/**
 * The overview's content (`/{lang}/admin`): for owners the registrations waiting for approval, and
 * for everyone a link to each section the role may see. A first, plain version: "what needs me
 * today" (issue 26, item 2) takes its place.
 */
export function Overview(props: SectionView) {
  const { api, t, lang, ready, role } = props;
  return (
    <div class="overview">
      {role === "owner" && <Approvals api={api} t={t} ready={ready} />}
      <section aria-labelledby="overview-sections-title">
        <h2 id="overview-sections-title">{t("adminNav.overviewTitle")}</h2>
        <ul class="overview-links">
          {sectionsFor(role).filter((s) => s.id !== "overview").map((s) => (
            <li key={s.id}>
              <a href={sectionHref(lang, s.id as SectionId)}>{t(s.label)}</a>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
