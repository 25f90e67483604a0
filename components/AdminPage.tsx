import type { ComponentChildren } from "preact";
import { Head } from "@/lib/framework/mod.ts";
import { textsUnder } from "@/lib/core/i18n.ts";
import { ADMIN_SHELL_TEXTS, sectionById, type SectionId } from "@/lib/shared/admin_sections.ts";
import type { TFunction } from "i18next";
import type { Lang } from "@/lib/shared/languages.ts";

/** What a back-office page reads of the request's state: its language and translations. */
type PageState = { t: TFunction; lang: Lang };

/**
 * A back-office page on the server (issue 26): its document title (the section's name unless
 * `title` says otherwise), kept out of search results unless `indexed`, the notice that the back
 * office needs JavaScript, and its island (`children`), which draws the shell and the heading.
 *
 * @example
 * ```tsx
 * <AdminPage state={state} section="kiosks"><AdminKiosks lang={lang} texts={texts} /></AdminPage>
 * ```
 */
export function AdminPage(
  props: {
    state: PageState;
    section: SectionId | null;
    title?: string;
    indexed?: boolean;
    children: ComponentChildren;
  },
) {
  const { t } = props.state;
  const title = props.title ?? t(sectionById(props.section!).label);
  return (
    <section class={`admin admin-page-${props.section ?? "account"}`}>
      <Head title={`${title} · ${t("meta.siteName")}`}>
        {!props.indexed && <meta name="robots" content="noindex" />}
      </Head>
      <noscript>
        <p class="form-alert">{t("login.noscript")}</p>
      </noscript>
      {props.children}
    </section>
  );
}

/**
 * The texts a back-office page gives its island: the shell's and the section's own prefixes.
 *
 * @example
 * ```ts
 * adminTexts(state, ["kiosk"]); // { "admin.logout": "Log out", …, "kiosk.devicesTitle": "Kiosk devices", … }
 * ```
 */
export function adminTexts(state: PageState, prefixes: string[]): Record<string, string> {
  return textsUnder(state.lang, [...ADMIN_SHELL_TEXTS, ...prefixes]);
}
