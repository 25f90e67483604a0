import { useEffect, useState } from "preact/hooks";
import { AdminShell, type SectionView } from "@/islands/admin/AdminShell.tsx";
import { CodeInput } from "@/islands/admin/CodeInput.tsx";
import { TwoFactorManage } from "@/islands/admin/TwoFactorManage.tsx";
import { listFailure, type Message } from "@/islands/shared/account_forms.ts";
import { ApiError } from "@/islands/shared/admin_api.ts";
import type { AdminProfile } from "@/islands/shared/admin_session.ts";
import { messageText } from "@/islands/shared/texts.ts";

/** The page's language, its heading and its translated texts. */
export interface AdminTwoFactorProps {
  lang: string;
  /** The museum's time zone (`config.museumTimeZone`): times are shown on its clock, with its offset. */
  timeZone: string;
  title: string;
  texts: Record<string, string>;
}

interface Status {
  enrolled: boolean;
  required: boolean;
  enrolmentDue: boolean;
  recoveryCodesLeft: number;
}

interface Enrolment {
  secret: string;
  qrSvg: string;
}

/**
 * The staff's two-factor page (issue 16), `/{lang}/admin/two-factor`: the account's state, the
 * enrolment (the QR code and the key for an authenticator app, a first code to confirm, then the
 * recovery codes, shown this once), an enrolled account's new recovery codes and turning it off
 * (`admin/TwoFactorManage.tsx`) and, for owners, the switch that requires two-factor for
 * everyone. An account that must enrol is sent here by the sign-in and every section; its session
 * opens nothing else until it has. The admin's own page: every role, inside the back office's shell
 * (its navigation hidden while two-factor must first be set up).
 */
export default function AdminTwoFactor(props: AdminTwoFactorProps) {
  return (
    <AdminShell
      lang={props.lang}
      timeZone={props.timeZone}
      section={null}
      title={props.title}
      texts={props.texts}
    >
      {(view) => <TwoFactorPage view={view} />}
    </AdminShell>
  );
}

function TwoFactorPage(props: { view: SectionView }) {
  const { api, t, lang, ready, admin } = props.view;
  const owner = props.view.role === "owner";
  const [status, setStatus] = useState<Status | null>(null);
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Message | null>(null);
  // Owners: the other active staff, whose two-factor they may reset, and the last reset's outcome.
  const [staff, setStaff] = useState<AdminProfile[]>([]);
  const [resetId, setResetId] = useState("");
  const [resetNote, setResetNote] = useState<Message | null>(null);

  const load = () => api.request<Status>("/api/auth/admin/two-factor").then(setStatus);
  const loadStaff = (me: string) =>
    api.request<AdminProfile[]>("/api/auth/admin/staff").then((list) =>
      setStaff(list.filter((a) => a.id !== me && a.status === "approved"))
    );
  useEffect(() => {
    if (!ready || !admin) return;
    load().then(() => owner ? loadStaff(admin.id) : undefined).catch(fail);
  }, [ready]);
  const fail = (error: unknown) => {
    setFailure(
      error instanceof ApiError && error.status === 400
        ? { key: "twoFactor.wrongEnrolCode" }
        : listFailure(error),
    );
    setBusy(false);
  };

  async function reset(event: Event) {
    event.preventDefault();
    const target = staff.find((a) => a.id === resetId);
    if (busy || !target) return;
    setBusy(true);
    setResetNote(null);
    try {
      await api.request(`/api/auth/admin/${encodeURIComponent(target.id)}/two-factor-reset`, {
        method: "POST",
      });
      setResetNote({ key: "twoFactor.resetDone", params: { email: target.email } });
    } catch (error) {
      setResetNote(
        error instanceof ApiError && error.status === 409
          ? { key: "twoFactor.resetNone", params: { email: target.email } }
          : listFailure(error),
      );
    }
    setBusy(false);
  }

  async function start() {
    setBusy(true);
    setFailure(null);
    try {
      setEnrolment(await api.request<Enrolment>("/api/auth/admin/two-factor/enrol", { method: "POST" }));
      setBusy(false);
    } catch (error) {
      fail(error);
    }
  }

  async function confirm(event: Event) {
    event.preventDefault();
    if (busy) return;
    if (!code.trim()) return setFailure({ key: "twoFactor.codeRequired" });
    setBusy(true);
    setFailure(null);
    try {
      const answer = await api.request<{ recoveryCodes: string[] }>("/api/auth/admin/two-factor/confirm", {
        method: "POST",
        body: JSON.stringify({ code: code.trim() }),
      });
      setCodes(answer.recoveryCodes);
      setEnrolment(null);
      await load();
      setBusy(false);
    } catch (error) {
      setCode("");
      fail(error);
    }
  }

  async function require(required: boolean) {
    setBusy(true);
    setFailure(null);
    try {
      await api.request("/api/auth/admin/two-factor/required", {
        method: "POST",
        body: JSON.stringify({ required }),
      });
      await load();
      setBusy(false);
    } catch (error) {
      fail(error);
    }
  }

  return (
    <>
      {!status?.enrolmentDue && (
        <p>
          <a href={`/${lang}/admin`}>{t("twoFactor.back")}</a>
        </p>
      )}
      <p>{t("twoFactor.intro")}</p>
      {status?.enrolmentDue && <p class="form-alert">{t("twoFactor.requiredNotice")}</p>}
      {!status && !failure && (
        <div class="loading" role="status">
          <span class="spinner" aria-hidden="true" />
        </div>
      )}
      {status && !codes && (
        <p role="status">
          {status.enrolled
            ? t("twoFactor.statusOn", { count: status.recoveryCodesLeft })
            : t("twoFactor.statusOff")}
        </p>
      )}
      {status?.enrolled && !codes && (
        <TwoFactorManage
          api={api}
          t={t}
          required={status.required}
          onCodes={(fresh) => {
            setCodes(fresh);
            load().catch(fail);
          }}
          onTurnedOff={() => load().catch(fail)}
        />
      )}
      {status && !status.enrolled && !enrolment && (
        <button type="button" class="button button-primary" disabled={busy} onClick={start}>
          {busy ? t("twoFactor.starting") : t("twoFactor.start")}
        </button>
      )}
      {enrolment && (
        <form class="account-form two-factor-enrol" method="post" noValidate onSubmit={confirm}>
          <p>{t("twoFactor.scan")}</p>
          <img
            class="two-factor-qr"
            width="200"
            height="200"
            alt={t("twoFactor.qrAlt")}
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.qrSvg)}`}
          />
          <p>
            {t("twoFactor.secretLabel")}: <code dir="ltr" class="two-factor-secret">{enrolment.secret}</code>
          </p>
          <div class="field">
            <label for="two-factor-code">{t("twoFactor.codeLabel")}</label>
            <CodeInput id="two-factor-code" value={code} onInput={setCode} />
          </div>
          <button type="submit" class="button button-primary" disabled={busy}>
            {busy ? t("twoFactor.confirming") : t("twoFactor.confirm")}
          </button>
        </form>
      )}
      <div class="form-alert" role="alert">
        {failure && <p>{messageText(t, failure)}</p>}
      </div>
      {codes && (
        <section aria-labelledby="recovery-codes-title">
          <h2 id="recovery-codes-title">{t("twoFactor.codesTitle")}</h2>
          <p>{t("twoFactor.codesIntro")}</p>
          <ul class="recovery-codes" dir="ltr">
            {codes.map((c) => (
              <li key={c}>
                <code>{c}</code>
              </li>
            ))}
          </ul>
          <p>
            <a class="button button-primary" href={`/${lang}/admin`}>{t("twoFactor.continue")}</a>
          </p>
        </section>
      )}
      {owner && status && !status.enrolmentDue && (
        <section aria-labelledby="two-factor-policy-title">
          <h2 id="two-factor-policy-title">{t("twoFactor.title")}</h2>
          <p role="status">{t(status.required ? "twoFactor.requiredYes" : "twoFactor.requiredNo")}</p>
          <button
            type="button"
            class="button button-outline"
            disabled={busy}
            onClick={() => require(!status.required)}
          >
            {t(status.required ? "twoFactor.unrequire" : "twoFactor.require")}
          </button>
        </section>
      )}
      {owner && status && !status.enrolmentDue && staff.length > 0 && (
        <form class="account-form" method="post" onSubmit={reset} aria-labelledby="two-factor-reset-title">
          <h2 id="two-factor-reset-title">{t("twoFactor.resetTitle")}</h2>
          <p>{t("twoFactor.resetIntro")}</p>
          <div class="field">
            <label for="two-factor-reset-admin">{t("twoFactor.resetLabel")}</label>
            <select
              id="two-factor-reset-admin"
              required
              value={resetId}
              onChange={(e) =>
                setResetId((e.target as HTMLSelectElement).value)}
            >
              <option value=""></option>
              {staff.map((a) => <option key={a.id} value={a.id}>{a.name} ({a.email})</option>)}
            </select>
          </div>
          <button type="submit" class="button button-outline" disabled={busy || !resetId}>
            {t("twoFactor.resetButton")}
          </button>
          <p role="status">{resetNote && messageText(t, resetNote)}</p>
        </form>
      )}
    </>
  );
}
