import { sectionById, sectionHref, type SectionId, sectionsFor } from "@/lib/shared/admin_sections.ts";
import type { AdminRole } from "@/lib/shared/admin_roles.ts";
import type { Translate } from "@/islands/shared/texts.ts";

/**
 * The back office's navigation (issue 26): the sections `role` may see, in the list's order, the
 * page's own marked `aria-current="page"`, in one labelled landmark. Two renderings of the same
 * links, of which the style sheet shows one: on a phone a disclosure (`<details>`, which opens
 * without any script) whose summary names the current section; on a laptop a sidebar at the inline
 * start. The other is `display: none`, so neither a screen reader nor the keyboard meets the links
 * twice. Without a role yet (the server's render, a pending admin) the lists are empty and the
 * landmark keeps its room.
 */
export function AdminNav(
  props: { lang: string; t: Translate; section: SectionId | null; role: AdminRole | null },
) {
  const { lang, t, section } = props;
  const sections = sectionsFor(props.role);
  const links = (variant: string) => (
    <ul class={`admin-nav-links ${variant}`}>
      {sections.map((s) => (
        <li key={s.id}>
          <a href={sectionHref(lang, s.id as SectionId)} aria-current={s.id === section ? "page" : undefined}>
            {t(s.label)}
          </a>
        </li>
      ))}
    </ul>
  );
  return (
    <nav class="admin-nav" aria-label={t("adminNav.label")}>
      <details class="admin-menu">
        <summary>
          {section ? t("adminNav.menuAt", { section: t(sectionById(section).label) }) : t("adminNav.menu")}
        </summary>
        {links("admin-menu-links")}
      </details>
      {links("admin-side-links")}
    </nav>
  );
}
