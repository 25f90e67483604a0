import { useMemo, useState } from "preact/hooks";
import { listFailure, type Message } from "@/islands/shared/account_forms.ts";
import { AdminHeader } from "@/islands/admin/AdminHeader.tsx";
import { Approvals } from "@/islands/admin/Approvals.tsx";
import { CancelReasons } from "@/islands/admin/CancelReasons.tsx";
import { DailyTotalsPanel } from "@/islands/admin/DailyTotals.tsx";
import { KioskDevices } from "@/islands/admin/KioskDevices.tsx";
import { OutboxMessages } from "@/islands/admin/OutboxMessages.tsx";
import { Overview } from "@/islands/admin/Overview.tsx";
import { TransactionHistory } from "@/islands/admin/TransactionHistory.tsx";
import { AdminGuard, useAdminFrame } from "@/islands/shared/AdminFrame.tsx";
import { DatesProvider } from "@/islands/shared/dates.tsx";
import { dateFormats } from "@/lib/shared/dates.ts";
import { type AdminProfile, readSession, saveProfile, SESSION_KEYS } from "@/islands/shared/admin_session.ts";
import { Deferred } from "@/islands/shared/Deferred.tsx";
import { messageText } from "@/islands/shared/texts.ts";

/**
 * The page's language, its own path and query (the history's view lives in the query) and the
 * translated texts.
 */
export interface AdminDashboardProps {
  lang: string;
  /** The museum's time zone (`config.museumTimeZone`): times are shown on its clock, with its offset. */
  timeZone: string;
  path: string;
  search: string;
  texts: Record<string, string>;
}

/**
 * The back office (spec sections 2, 4 and 6). Guarded: without a stored session it replaces the
 * page with `/{lang}/login`. With one, it shows the header from the stored profile at once and
 * asks the server who the admin is now (`/me`, through the refreshing client): a pending admin
 * sees the waiting screen, an approved one the approvals, the daily totals, the transaction
 * history (with each gift's receipt), the kiosk devices and the outgoing email. A session the server ends, here or in another tab, sends the
 * admin to sign in.
 *
 * The server renders the dashboard's frame (the header waiting for the session, the sections with
 * their waiting states) and the browser hydrates that same frame: the page paints its final layout
 * at once and nothing moves when the session and the data arrive. The frame stays while `/me` is
 * asked if the stored profile was approved (the usual case); the sections load their data once
 * the server has confirmed it.
 */
export default function AdminDashboard(props: AdminDashboardProps) {
  const { lang } = props;
  const dates = useMemo(() => dateFormats(lang, props.timeZone), [lang, props.timeZone]);
  const admin = useAdminFrame(lang, props.texts, (stored) => {
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
  const { t, api, session, loginHref } = admin;
  const [current, setCurrent] = useState<AdminProfile | null>(null);
  const [failure, setFailure] = useState<Message | null>(null);

  async function verify() {
    setFailure(null);
    try {
      const me = await api.request<AdminProfile>("/api/auth/admin/me");
      // Two-factor is required and this account has none: nothing else is open to it.
      if (me.twoFactorEnrolmentDue) return location.replace(`/${lang}/admin/two-factor`);
      saveProfile(me);
      setCurrent(me);
    } catch (error) {
      setFailure(listFailure(error));
    }
  }

  async function logout() {
    await api.signOut();
    location.replace(loginHref);
  }

  // The frame: before the session is read (the server's render and hydration), then while `/me`
  // answers for a profile stored as approved, then for good once the server says approved.
  const status = current?.status ?? (session === undefined ? "approved" : session?.admin.status);
  const frame = !failure && status === "approved";
  const ready = current?.status === "approved";
  // Sections by role (the server refuses the rest anyway: `lib/staff/roles.ts`). A profile stored
  // before roles existed shows what its admin could do then until `/me` answers.
  const role = (current ?? session?.admin)?.role ?? "admin";
  const manages = role === "owner" || role === "admin";
  // The same element while `frame` and `ready` hold: the header's renders (session read, profile
  // confirmed) leave the sections alone, and Preact skips an unchanged element without a diff. The
  // sections hydrate after the header, the history in a task of its own.
  const sections = useMemo(() =>
    frame && (
      <>
        {role !== "viewer" && (
          <nav class="admin-nav" aria-label={t("staffAdmin.navLabel")}>
            {role === "owner" && <a href={`/${lang}/admin/staff`}>{t("staffAdmin.navStaff")}</a>}{" "}
            {manages && <a href={`/${lang}/admin/audit`}>{t("staffAdmin.navAudit")}</a>}{" "}
            <a href={`/${lang}/admin/reports`}>{t("reports.link")}</a>
          </nav>
        )}
        {/* Issue 26: the overview, here until the sections' shell renders it on its own page. */}
        <Deferred class="admin-sections">
          <Overview api={api} t={t} lang={lang} ready={ready} role={role} />
        </Deferred>
        <Deferred class="admin-sections">
          {role === "owner" && <Approvals api={api} t={t} ready={ready} />}
          <DailyTotalsPanel api={api} t={t} lang={lang} ready={ready} />
        </Deferred>
        <Deferred class="admin-sections">
          <TransactionHistory
            api={api}
            t={t}
            lang={lang}
            path={props.path}
            search={props.search}
            ready={ready}
            personalData={role !== "viewer"}
          />
        </Deferred>
        {manages && (
          <Deferred class="admin-sections">
            <KioskDevices api={api} t={t} lang={lang} ready={ready} />
          </Deferred>
        )}
        {manages && (
          <Deferred class="admin-sections">
            <OutboxMessages api={api} t={t} ready={ready} />
          </Deferred>
        )}
        <Deferred class="admin-sections">
          <CancelReasons api={api} t={t} ready={ready} />
        </Deferred>
      </>
    ), [frame, ready, role]);
  const body = (
    <>
      <AdminHeader admin={current ?? session?.admin ?? null} onLogout={logout} t={t} lang={lang} />
      {failure && (
        <div class="form-alert" role="alert">
          <p>{t("transactions.errorPrefix")}{messageText(t, failure)}</p>
          <button type="button" class="button button-outline" onClick={verify}>
            {t("admin.checkAgain")}
          </button>
        </div>
      )}
      {!current && !failure && !frame && (
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
      {sections}
    </>
  );

  return (
    <DatesProvider dates={dates}>
      <AdminGuard frame={admin}>{body}</AdminGuard>
    </DatesProvider>
  );
}
