import { useState } from "preact/hooks";
import type { SeenMember } from "@/lib/desk/offline/offline_client.ts";
import type { VisitDraft } from "@/lib/desk/client.ts";
import { useDates } from "@/islands/shared/dates.tsx";
import type { Translate } from "@/islands/shared/texts.ts";

/** What the answer asks the page to record: the visit less its id (the page makes it once). */
export type VisitChoice = Omit<VisitDraft, "id">;

/**
 * The desk's full-screen answer (issue 28): read from a metre away: the state in its colour (valid
 * green, grace amber with "remind to renew", lapsed or unknown red), the level, the cardholders,
 * the guests the level admits; who is visiting and with how many guests; **Check in** (a valid
 * membership) and **Allow anyway** (a reason first).
 */
export function DeskAnswer(props: {
  t: Translate;
  member: SeenMember;
  busy: boolean;
  failure: string | null;
  onRecord: (choice: VisitChoice) => void;
  onNext: () => void;
}) {
  const { t, member } = props;
  const dates = useDates();
  const [holder, setHolder] = useState(member.holder ?? 0);
  const [guests, setGuests] = useState(0);
  const [allowing, setAllowing] = useState(false);
  const [reason, setReason] = useState("");
  const [reasonError, setReasonError] = useState(false);
  const valid = member.state === "active" || member.state === "grace";
  const date = member.validUntil;
  const choice = (): VisitChoice => ({
    kind: "check-in",
    number: member.number,
    ...(member.number !== null && member.cardholders.length > 0 ? { holder } : {}),
    guests,
  });

  const allow = (e: Event) => {
    e.preventDefault();
    if (!reason.trim()) {
      setReasonError(true);
      return;
    }
    props.onRecord({ ...choice(), kind: "override", reason: reason.trim() });
  };

  return (
    <section
      class={`desk-answer desk-answer-${member.state}`}
      role="dialog"
      aria-modal="true"
      aria-labelledby="desk-answer-state"
      aria-describedby="desk-answer-detail"
    >
      <h2 id="desk-answer-state" class="desk-state">{t(`frontDesk.states.${member.state}`)}</h2>
      <p id="desk-answer-detail" class="desk-detail">
        {t(`frontDesk.stateDetail.${member.state}`, { date: date ? dates.date(date) ?? "" : "" })}
      </p>
      {member.offline && <p class="desk-offline-note">{t("frontDesk.offline.checkedOffline")}</p>}
      {member.number !== null && (
        <dl class="desk-facts">
          <div>
            <dt>{t("frontDesk.number")}</dt>
            <dd>
              <bdi>{member.number}</bdi>
            </dd>
          </div>
          {member.levelName && (
            <div>
              <dt>{t("frontDesk.level")}</dt>
              <dd>{member.levelName}</dd>
            </div>
          )}
          {member.state !== "unknown" && (
            <div>
              <dt>{t("frontDesk.guestsAllowed")}</dt>
              <dd>{t("frontDesk.guestsUpTo", { count: member.guests })}</dd>
            </div>
          )}
        </dl>
      )}
      <form
        class="desk-visit"
        onSubmit={allowing ? allow : (e) => (e.preventDefault(), props.onRecord(choice()))}
      >
        {member.cardholders.length > 0 && (
          <fieldset class="desk-holders">
            <legend>{t("frontDesk.cardholders")}</legend>
            {/* A card read offline names only its own cardholder: the others are "" and not shown. */}
            {member.cardholders.map((name, i) =>
              name && (
                <label key={i}>
                  <input
                    type="radio"
                    name="holder"
                    value={i}
                    checked={holder === i}
                    onChange={() => setHolder(i)}
                  />
                  {name}
                </label>
              )
            )}
          </fieldset>
        )}
        <div class="field desk-guests">
          <label for="desk-guests">{t("frontDesk.guests")}</label>
          <input
            id="desk-guests"
            type="number"
            inputMode="numeric"
            min={0}
            max={allowing ? 50 : member.guests}
            value={guests}
            onInput={(e) => setGuests(Math.max(0, Math.min(50, Number(e.currentTarget.value) || 0)))}
          />
        </div>
        {allowing && (
          <div class="field desk-reason">
            <label for="desk-reason">{t("frontDesk.reason")}</label>
            <textarea
              id="desk-reason"
              rows={2}
              maxLength={500}
              aria-required="true"
              aria-describedby="desk-reason-hint"
              aria-invalid={reasonError ? "true" : undefined}
              value={reason}
              onInput={(e) => (setReason(e.currentTarget.value), setReasonError(false))}
            />
            <p id="desk-reason-hint" class={reasonError ? "field-error" : "field-hint"}>
              {t(reasonError ? "frontDesk.reasonRequired" : "frontDesk.reasonHint")}
            </p>
          </div>
        )}
        {props.failure && <p class="form-alert" role="alert">{props.failure}</p>}
        <div class="desk-actions">
          {!allowing && valid && (
            <button type="submit" class="button button-primary desk-check-in" disabled={props.busy}>
              {t("frontDesk.checkIn")}
            </button>
          )}
          {!allowing && (
            <button
              type="button"
              class="button button-outline desk-allow"
              disabled={props.busy}
              onClick={() => setAllowing(true)}
            >
              {t("frontDesk.allowAnyway")}
            </button>
          )}
          {allowing && (
            <>
              <button type="submit" class="button button-primary desk-confirm" disabled={props.busy}>
                {t("frontDesk.confirmAllow")}
              </button>
              <button type="button" class="button button-outline" onClick={() => setAllowing(false)}>
                {t("frontDesk.cancel")}
              </button>
            </>
          )}
          <button type="button" class="button button-outline desk-next" onClick={props.onNext}>
            {t("frontDesk.next")}
          </button>
        </div>
        {props.busy && <p role="status">{t("frontDesk.working")}</p>}
      </form>
    </section>
  );
}
