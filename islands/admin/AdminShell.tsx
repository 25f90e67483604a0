import type { ComponentChildren } from "preact";
import { useMemo, useState } from "preact/hooks";
import type { AdminRole } from "@/lib/shared/admin_roles.ts";
import {
  maySee,
  sectionById,
  sectionHref,
  type SectionId,
  sectionsFor,
} from "@/lib/shared/admin_sections.ts";
import { listFailure, type Message } from "@/islands/shared/account_forms.ts";
import type { ApiClient } from "@/islands/shared/admin_api.ts";
import { AdminGuard, useAdminFrame } from "@/islands/shared/AdminFrame.tsx";
import { DatesZone } from "@/islands/shared/dates_context.tsx";
import { type AdminProfile, readSession, saveProfile, SESSION_KEYS } from "@/islands/shared/admin_session.ts";
import { messageText, type Translate } from "@/islands/shared/texts.ts";
import { AdminHeader } from "./AdminHeader.tsx";
import { AdminNav } from "./AdminNav.tsx";

/** What a section's content gets from the shell. */
export interface SectionView {
  api: ApiClient;
  t: Translate;
  lang: string;
  /** The server has confirmed an approved admin whose role may see this page: load its data. */
  ready: boolean;
  /**
   * The admin's role as known now: the stored profile's, then the server's; `admin` before the
   * session is read (the server's render shows what most staff see, as the dashboard did).
   */
  role: AdminRole;
  /** The signed-in admin (stored, then confirmed); null before the session is read. */
  admin: AdminProfile | null;
}

/** A back-office page's shell: its language, the museum's time zone, section, heading, texts and content. */
export interface AdminShellProps {
  lang: string;
  /** The museum's time zone (`config.museumTimeZone`): the content's times are on its clock, with its offset. */
  timeZone: string;
  /**
   * The section the page is (`lib/shared/admin_sections.ts`), or null for the admin's own page
   * (two-factor): open to every role, and to a session whose two-factor set-up is due.
   */
  section: SectionId | null;
  /** The page's heading; a section's name by default. */
  title?: string;
  /** The page's texts, {@link ADMIN_SHELL_TEXTS} of `admin_sections.ts` among them. */
  texts: Record<string, string>;
  /** The section's content, rendered once the admin may see it (and by the server, waiting). */
  children: (view: SectionView) => ComponentChildren;
}

/**
 * Every back-office page's frame (issue 26), inside its island: the header (who is signed in, the
 * two-factor link, sign out), the navigation, the heading, and the section's content; the
 * session's states around it. Guarded: without a stored session it replaces the page with
 * `/{lang}/login`. With one it shows the header and the navigation from the stored profile at once
 * and asks the server who the admin is now (`/me`, through the refreshing client): a pending admin
 * sees the waiting screen, a role the section is not for a notice with a link to the overview (the
 * server refuses its calls anyway), an approved admin of the right role the content, which loads
 * its data once `ready`. A session two-factor must first be set up for goes to that page; a
 * session ended here or in another tab goes to sign in.
 *
 * The content's dates (`islands/shared/dates.tsx`) are in the page's language on the museum's clock.
 *
 * The server renders the same frame with the content in its waiting state and the navigation's
 * room empty (the role is known only in the browser): nothing moves when the session is read. The
 * content stays while `/me` answers for a profile stored as approved (the usual case).
 *
 * @example
 * ```tsx
 * <AdminShell lang={lang} timeZone={timeZone} section="kiosks" texts={texts}>
 *   {(view) => <KioskDevices api={view.api} t={view.t} lang={lang} ready={view.ready} />}
 * </AdminShell>
 * ```
 */
export function AdminShell(props: AdminShellProps) {
  const { lang, section } = props;
  const frame = useAdminFrame(lang, props.texts, (stored) => {
    // Signed out in another tab: this one follows.
    const follow = (e: StorageEvent) => {
      if ((e.key === null || (SESSION_KEYS as readonly string[]).includes(e.key)) && !readSession()) {
        location.replace(loginHref);
      }
    };
    // Each in a task of its own, after the header's render: a page's first `fetch` and its first
    // `storage` listener (the browser then opens session storage too) cost several ms each.
    const asking = stored ? setTimeout(verify) : undefined;
    const listening = setTimeout(() => {
      addEventListener("storage", follow);
      if (stored && !readSession()) location.replace(loginHref);
    });
    return () => {
      clearTimeout(asking);
      clearTimeout(listening);
      removeEventListener("storage", follow);
    };
  });
  // `session`: undefined until the browser has read local storage (and always on the server).
  const { t, api, session, loginHref } = frame;
  const [current, setCurrent] = useState<AdminProfile | null>(null);
  const [failure, setFailure] = useState<Message | null>(null);

  async function verify() {
    setFailure(null);
    try {
      const me = await api.request<AdminProfile>("/api/auth/admin/me");
      // Two-factor is required and this account has none: nothing else is open to it.
      if (me.twoFactorEnrolmentDue && section !== null) return location.replace(`/${lang}/admin/two-factor`);
      saveProfile(me);
      // A role without the overview (the front desk) lands on its first section instead.
      const home = sectionsFor(me.role)[0];
      if (section === "overview" && me.status === "approved" && !maySee(me.role, "overview") && home) {
        return location.replace(sectionHref(lang, home.id as SectionId));
      }
      setCurrent(me);
    } catch (error) {
      // The front desk offline (issue 28): its stored session serves until the network returns,
      // then the server is asked again; every other section shows the failure as before.
      if (section === "desk" && (error as { kind?: string }).kind === "network") {
        return addEventListener("online", () => void verify(), { once: true });
      }
      setFailure(listFailure(error));
    }
  }

  async function logout() {
    await api.signOut();
    location.replace(loginHref);
  }

  const admin = current ?? session?.admin ?? null;
  // The frame: before the session is read (the server's render and hydration), then while `/me`
  // answers for a profile stored as approved, then for good once the server says approved.
  const status = current?.status ?? (session === undefined ? "approved" : session?.admin.status);
  const shown = !failure && status === "approved";
  // A profile stored before roles existed counts as what its admin could do then until `/me` answers.
  const role: AdminRole | null = admin ? (admin.role === undefined ? "admin" : admin.role) : null;
  // Before the session is read the content waits in its frame, whatever the role will be.
  const allowed = section === null || (admin ? maySee(role, section) : true);
  const ready = current?.status === "approved" && allowed;
  // Two-factor to set up first: the navigation would lead only back here.
  const navRole = shown && !current?.twoFactorEnrolmentDue ? role : null;
  // The same element while nothing it shows changes: the header's renders (session read, profile
  // confirmed) leave the content alone, and Preact skips an unchanged element without a diff.
  const content = useMemo(
    () => shown && allowed && props.children({ api, t, lang, ready, role: role ?? "admin", admin }),
    [shown, allowed, ready, role, admin?.id],
  );

  const body = (
    <div class="admin-shell" data-ready={current ? "" : undefined}>
      <AdminHeader admin={admin} onLogout={logout} t={t} lang={lang} here={section === null} />
      <div class="admin-layout">
        <AdminNav lang={lang} t={t} section={section} role={navRole} />
        <div class="admin-content">
          <h1>{props.title ?? t(sectionById(section!).label)}</h1>
          {failure && (
            <div class="form-alert" role="alert">
              <p>{t("transactions.errorPrefix")}{messageText(t, failure)}</p>
              <button type="button" class="button button-outline" onClick={verify}>
                {t("admin.checkAgain")}
              </button>
            </div>
          )}
          {!current && !failure && !shown && (
            <div class="loading" role="status">
              <span class="spinner" aria-hidden="true" />
              <span>{t("admin.checking")}</span>
            </div>
          )}
          {current?.status === "pending" && (
            <section class="pending" aria-labelledby="pending-title">
              <h2 id="pending-title">{t("admin.pendingTitle")}</h2>
              <p>{t("admin.pendingMessage")}</p>
              <button type="button" class="button button-primary" onClick={verify}>
                {t("admin.checkAgain")}
              </button>
            </section>
          )}
          {shown && !allowed && (
            <section class="role-notice" aria-labelledby="role-notice-title">
              <h2 id="role-notice-title">{t("adminNav.notForRoleTitle")}</h2>
              <p>{t("adminNav.notForRole", { role: t(`staffAdmin.roles.${role}`) })}</p>
              <p>
                <a href={sectionHref(lang, (sectionsFor(role)[0]?.id ?? "overview") as SectionId)}>
                  {t("adminNav.toOverview")}
                </a>
              </p>
            </section>
          )}
          {content && <div class="admin-section" data-section={section ?? "account"}>{content}</div>}
        </div>
      </div>
    </div>
  );

  return (
    <DatesZone lang={lang} timeZone={props.timeZone}>
      <AdminGuard frame={frame}>{body}</AdminGuard>
    </DatesZone>
  );
}
