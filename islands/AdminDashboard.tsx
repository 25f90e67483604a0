import { useEffect, useMemo, useState } from "react";
import { listFailure, type Message } from "../lib/account_forms.ts";
import { AdminHeader } from "./admin/AdminHeader.tsx";
import { Approvals } from "./admin/Approvals.tsx";
import { DailyTotalsPanel } from "./admin/DailyTotals.tsx";
import { TransactionHistory } from "./admin/TransactionHistory.tsx";
import { createApiClient } from "./shared/admin_api.ts";
import {
  type AdminProfile,
  readSession,
  saveProfile,
  type Session,
  SESSION_KEYS,
} from "./shared/admin_session.ts";
import { Guard } from "./shared/Guard.tsx";
import { messageText, translator } from "./shared/texts.ts";

/** The page's language, its own path (for the history's URLs) and the translated texts. */
export interface AdminDashboardProps {
  lang: string;
  path: string;
  texts: Record<string, string>;
}

/**
 * The back office (spec sections 2, 4 and 6). Guarded: without a stored session it replaces the
 * page with `/{lang}/login`. With one, it shows the header from the stored profile at once and
 * asks the server who the admin is now (`/me`, through the refreshing client): a pending admin
 * sees the waiting screen, an approved one the approvals, the daily totals and the transaction
 * history. A session the server ends, here or in another tab, sends the admin to sign in.
 */
export default function AdminDashboard(props: AdminDashboardProps) {
  const { lang } = props;
  const t = translator(props.texts);
  const loginHref = `/${lang}/login`;
  const api = useMemo(() => createApiClient({ onSignedOut: () => location.replace(loginHref) }), []);
  // undefined until the browser has read local storage (and always on the server).
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [current, setCurrent] = useState<AdminProfile | null>(null);
  const [failure, setFailure] = useState<Message | null>(null);

  async function verify() {
    setFailure(null);
    try {
      const me = await api.request<AdminProfile>("/api/auth/admin/me");
      saveProfile(me);
      setCurrent(me);
    } catch (error) {
      setFailure(listFailure(error));
    }
  }

  useEffect(() => {
    const stored = readSession();
    setSession(stored);
    if (stored) verify();
    // Signed out in another tab: this one follows.
    const follow = (e: StorageEvent) => {
      if ((e.key === null || (SESSION_KEYS as readonly string[]).includes(e.key)) && !readSession()) {
        location.replace(loginHref);
      }
    };
    addEventListener("storage", follow);
    return () => removeEventListener("storage", follow);
  }, []);

  async function logout() {
    await api.signOut();
    location.replace(loginHref);
  }

  const checking = (
    <div class="loading" role="status">
      <span class="spinner" aria-hidden="true" />
      <span>{t("admin.checking")}</span>
    </div>
  );

  return (
    <Guard
      allowed={session === undefined ? undefined : session !== null}
      redirectTo={loginHref}
      pending={checking}
    >
      {session && <AdminHeader admin={current ?? session.admin} onLogout={logout} t={t} />}
      {failure && (
        <div class="form-alert" role="alert">
          <p>{t("transactions.errorPrefix")}{messageText(t, failure)}</p>
          <button type="button" class="button button-outline" onClick={verify}>
            {t("admin.checkAgain")}
          </button>
        </div>
      )}
      {!current && !failure && checking}
      {current?.status === "pending" && (
        <section class="pending" aria-labelledby="pending-title">
          <h2 id="pending-title">{t("admin.pendingTitle")}</h2>
          <p>{t("admin.pendingMessage")}</p>
          <button type="button" class="button button-primary" onClick={verify}>
            {t("admin.checkAgain")}
          </button>
        </section>
      )}
      {current?.status === "approved" && (
        <>
          <Approvals api={api} t={t} />
          <DailyTotalsPanel api={api} t={t} lang={lang} />
          <TransactionHistory api={api} t={t} lang={lang} path={props.path} />
        </>
      )}
    </Guard>
  );
}
