import { useEffect, useState } from "preact/hooks";
import type { VisitPage, VisitView } from "@/lib/shared/visits.ts";
import { visitRow } from "./visit_row.tsx";
import type { MemberDetail } from "@/lib/shared/memberships.ts";
import { formatMoney } from "@/lib/shared/money.ts";
import type { SectionView } from "./AdminShell.tsx";
import { Address, DataTable } from "./DataTable.tsx";
import { listFailure } from "@/islands/shared/account_forms.ts";
import { ApiError } from "@/islands/shared/admin_api.ts";
import { useDates } from "@/islands/shared/dates.tsx";
import { isolate, messageText, type Translate } from "@/islands/shared/texts.ts";

type Load =
  | { state: "loading" }
  | { state: "failed"; message: string }
  | { state: "ready"; member: MemberDetail };

/** The words of a failed call: a 404 and a 400 in the section's own words, else the usual ones. */
function failure(t: Translate, error: unknown): string {
  const status = error instanceof ApiError ? error.status : null;
  if (status === 404) return t("membersAdmin.notFound");
  if (status === 400 && error instanceof ApiError && /member number/.test(error.message)) {
    return t("membersAdmin.invalidNumber");
  }
  return t("transactions.errorPrefix") + messageText(t, listFailure(error));
}

/**
 * A member's page in the Members section (`?number=`): who, the state and dates, the terms (newest
 * first), the cardholders with the form staff correct them with (`PUT …/cardholders`), and the
 * emails sent to the member's address, and the button that sends the member's card(s) again
 * (`POST …/resend-card`).
 */
export function MemberView(props: { view: SectionView; number: string }) {
  const { api, t, lang, ready } = props.view;
  const dates = useDates();
  const [load, setLoad] = useState<Load>({ state: "loading" });
  const path = `/api/memberships/${encodeURIComponent(props.number)}`;

  // The member's latest visits at the front desk (issue 28); none shown while they load.
  const [visits, setVisits] = useState<VisitView[] | null>(null);

  useEffect(() => {
    if (!ready) return;
    api.request<MemberDetail>(`${path}?lang=${lang}`)
      .then((member) => setLoad({ state: "ready", member }))
      .catch((error) => setLoad({ state: "failed", message: failure(t, error) }));
    api.request<VisitPage>(`${path}/visits?lang=${lang}&limit=50`)
      .then((page) => setVisits(page.data))
      .catch(() => setVisits([]));
  }, [ready]);

  return (
    <div
      class="member-view donor-details"
      aria-busy={load.state === "loading" ? "true" : "false"}
      data-loaded={load.state === "loading" ? undefined : ""}
    >
      <p>
        <a href={`/${lang}/admin/members`}>{t("membersAdmin.back")}</a>
      </p>
      {load.state === "loading" && (
        <div class="loading" role="status">
          <span class="spinner" aria-hidden="true" />
          <span>{t("membersAdmin.loading")}</span>
        </div>
      )}
      {load.state === "failed" && <p class="form-alert" role="alert">{load.message}</p>}
      {load.state === "ready" && (
        <MemberDetails
          member={load.member}
          t={t}
          dates={dates}
          onSaved={(member) => setLoad({ state: "ready", member })}
          save={(cardholders) =>
            api.request<MemberDetail>(`${path}/cardholders?lang=${lang}`, {
              method: "PUT",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ cardholders }),
            })}
          resend={() => api.request<{ repeated: boolean }>(`${path}/resend-card`, { method: "POST" })}
          lang={lang}
          visits={visits}
        />
      )}
    </div>
  );
}

/** Sends the member's card(s) again: queued, already queued a moment ago, or why not. */
function ResendCard(props: { t: Translate; resend: () => Promise<{ repeated: boolean }> }) {
  const { t } = props;
  const [state, setState] = useState<{ busy: boolean; status: string; alert: string }>({
    busy: false,
    status: "",
    alert: "",
  });
  async function resend() {
    setState({ busy: true, status: "", alert: "" });
    try {
      const { repeated } = await props.resend();
      setState({
        busy: false,
        status: t(repeated ? "membersAdmin.resendCardRepeated" : "membersAdmin.resendCardQueued"),
        alert: "",
      });
    } catch (error) {
      setState({ busy: false, status: "", alert: failure(t, error) });
    }
  }
  return (
    <div class="member-card-actions">
      <button type="button" class="button" disabled={state.busy} onClick={resend}>
        {t("membersAdmin.resendCard")}
      </button>
      <p role="status">{state.status}</p>
      {state.alert && <p class="form-alert" role="alert">{state.alert}</p>}
    </div>
  );
}

function MemberDetails(props: {
  member: MemberDetail;
  t: Translate;
  dates: ReturnType<typeof useDates>;
  lang: string;
  save: (cardholders: string[]) => Promise<MemberDetail>;
  resend: () => Promise<{ repeated: boolean }>;
  onSaved: (member: MemberDetail) => void;
  /** The member's visits (null while they load). */
  visits: VisitView[] | null;
}) {
  const { member: m, t, dates } = props;
  return (
    <>
      <h2>
        {t("membersAdmin.memberTitle", { number: isolate(m.number) })} · {m.name}
      </h2>
      <dl class="donor-summary">
        <dt>{t("membersAdmin.summary.email")}</dt>
        <dd>
          <bdi>
            <Address email={m.email} />
          </bdi>
        </dd>
        <dt>{t("membersAdmin.summary.state")}</dt>
        <dd>
          <span class={`member-state member-state-${m.state}`}>{t(`membersAdmin.states.${m.state}`)}</span>
        </dd>
        <dt>{t("membersAdmin.summary.level")}</dt>
        <dd>{m.levelName}</dd>
        <dt>{t("membersAdmin.summary.validUntil")}</dt>
        <dd>{dates.date(m.end)}</dd>
        <dt>{t("membersAdmin.summary.graceUntil")}</dt>
        <dd>{dates.date(m.graceUntil)}</dd>
        <dt>{t("membersAdmin.summary.since")}</dt>
        <dd>{dates.date(m.createdAt)}</dd>
        <dt>{t("membersAdmin.summary.payment")}</dt>
        <dd>{t(m.monthly ? "membersAdmin.summary.monthly" : "membersAdmin.summary.oneTime")}</dd>
      </dl>
      <ResendCard t={t} resend={props.resend} />
      <section aria-labelledby="member-terms-title">
        <h3 id="member-terms-title">{t("membersAdmin.termsTitle")}</h3>
        <DataTable
          id="member-terms-caption"
          class="member-terms"
          caption={t("membersAdmin.termsTitle")}
          columns={["level", "start", "end", "kind", "amount"].map((c) => t(`membersAdmin.termColumns.${c}`))}
          rows={m.terms}
          row={(term, i) => (
            <tr key={i}>
              <td>{term.levelName}</td>
              <td>{dates.date(term.start)}</td>
              <td>{dates.date(term.end)}</td>
              <td>{t(`membersAdmin.kinds.${term.kind}`)}</td>
              <td>{isolate(formatMoney(term.amount * term.charges, term.currency, props.lang))}</td>
            </tr>
          )}
        />
      </section>
      <CardholdersForm member={m} t={t} save={props.save} onSaved={props.onSaved} />
      <MemberVisits visits={props.visits} t={t} />
      <section aria-labelledby="member-emails-title">
        <h3 id="member-emails-title">{t("membersAdmin.emailsTitle")}</h3>
        <DataTable
          id="member-emails-caption"
          class="member-emails"
          caption={t("membersAdmin.emailsTitle")}
          columns={["date", "kind", "state"].map((c) => t(`membersAdmin.emailColumns.${c}`))}
          rows={m.emails}
          empty={t("membersAdmin.noEmails")}
          row={(e, i) => (
            <tr key={i}>
              <td>
                <time dateTime={e.createdAt}>{dates.dateTime(e.createdAt)}</time>
              </td>
              <td>{t(`backofficeMail.kinds.${e.kind}`)}</td>
              <td>{t(`backofficeMail.states.${e.state}`)}</td>
            </tr>
          )}
        />
      </section>
    </>
  );
}

type Saving = { state: "idle" } | { state: "saving" } | { state: "saved" } | {
  state: "failed";
  message: string;
};

function CardholdersForm(props: {
  member: MemberDetail;
  t: Translate;
  save: (cardholders: string[]) => Promise<MemberDetail>;
  onSaved: (member: MemberDetail) => void;
}) {
  const { member: m, t } = props;
  const [names, setNames] = useState<string[]>(m.cardholders);
  const [saving, setSaving] = useState<Saving>({ state: "idle" });
  const max = m.maxCardholders;

  const submit = async (e: Event) => {
    e.preventDefault();
    const cleaned = names.map((n) => n.trim()).filter((n) => n !== "");
    if (cleaned.length > max) {
      return setSaving({ state: "failed", message: t("membersAdmin.tooMany", { max }) });
    }
    if (cleaned.some((n) => n.length > 100)) {
      return setSaving({ state: "failed", message: t("membersAdmin.nameInvalid") });
    }
    setSaving({ state: "saving" });
    try {
      const member = await props.save(cleaned);
      setNames(member.cardholders);
      props.onSaved(member);
      setSaving({ state: "saved" });
    } catch (error) {
      const tooMany = error instanceof ApiError && error.status === 400 && /at most/.test(error.message);
      setSaving({
        state: "failed",
        message: tooMany ? t("membersAdmin.tooMany", { max }) : failure(t, error),
      });
    }
  };

  return (
    <section aria-labelledby="member-cardholders-title">
      <h3 id="member-cardholders-title">{t("membersAdmin.cardholdersTitle")}</h3>
      <p id="member-cardholders-hint">{t("membersAdmin.cardholdersHint", { max })}</p>
      {names.length === 0 && <p>{t("membersAdmin.theMember", { name: m.name })}</p>}
      <form class="member-cardholders" onSubmit={submit} aria-describedby="member-cardholders-hint">
        {names.map((name, i) => (
          <div class="member-cardholder" key={i}>
            <div class="field">
              <label for={`cardholder-${i}`}>{t("membersAdmin.cardholderLabel", { n: i + 1 })}</label>
              <input
                id={`cardholder-${i}`}
                value={name}
                maxLength={100}
                autocomplete="off"
                onInput={(e) => setNames(names.map((n, j) => j === i ? e.currentTarget.value : n))}
              />
            </div>
            <button
              type="button"
              class="button button-outline"
              aria-label={t("membersAdmin.removeCardholder", { n: i + 1 })}
              onClick={() => setNames(names.filter((_, j) => j !== i))}
            >
              ×
            </button>
          </div>
        ))}
        <div class="member-cardholder-actions">
          {names.length < max && (
            <button
              type="button"
              class="button button-outline"
              onClick={() => setNames([...names, ""])}
            >
              {t("membersAdmin.addCardholder")}
            </button>
          )}
          <button type="submit" class="button button-primary" disabled={saving.state === "saving"}>
            {t(saving.state === "saving" ? "membersAdmin.saving" : "membersAdmin.save")}
          </button>
        </div>
        <div aria-live="polite">
          {saving.state === "saved" && <p role="status">{t("membersAdmin.saved")}</p>}
          {saving.state === "failed" && <p class="form-alert" role="alert">{saving.message}</p>}
        </div>
      </form>
    </section>
  );
}

/** A member's visits at the front desk (issue 28), newest first. */
function MemberVisits(props: { visits: VisitView[] | null; t: Translate }) {
  const { t } = props;
  const dates = useDates();
  return (
    <section aria-labelledby="member-visits-title">
      <h3 id="member-visits-title">{t("frontDesk.memberVisitsTitle")}</h3>
      <DataTable
        id="member-visits-caption"
        class="visits-table"
        caption={t("frontDesk.memberVisitsTitle")}
        columns={["time", "number", "name", "level", "guests", "kind", "desk"].map((c) =>
          t(`frontDesk.columns.${c}`)
        )}
        rows={props.visits}
        empty={t("frontDesk.memberNoVisits")}
        row={(v) => visitRow({ visit: v, t, time: dates.dateTime(v.at) ?? "" })}
      />
    </section>
  );
}
