import { useEffect, useState } from "preact/hooks";
import { listAmount } from "@/lib/shared/format.ts";
import { listFailure } from "@/islands/shared/account_forms.ts";
import { type ApiClient, ApiError } from "@/islands/shared/admin_api.ts";
import { useDates } from "@/islands/shared/dates.tsx";
import { isolate, messageText, type Translate } from "@/islands/shared/texts.ts";
import type { SuccessItem } from "./TransactionTable.tsx";

/** A refund as `GET /api/transaction/{id}/refunds` lists it (what this form reads of it). */
interface ListedRefund {
  id: string;
  amount: number;
  state: "pending" | "succeeded" | "failed";
  createdAt: string;
  /** "It did not go through", recorded by one person, awaiting an owner's confirmation. */
  failureReport: { actorEmail: string; at: string; confirmable: boolean } | null;
}

/**
 * A gift's pending refunds (issue 16), in a modal dialog opened from its row: for each, after a
 * look in the provider's back office, whether it went through (with the credit's reference, if
 * wanted) or not. The server records it once, and not within 15 minutes of the refund (its
 * provider's answer may still come); the donor is emailed when it went through.
 *
 * "It did not go through" frees the amount, so it takes two people (issue 23): the first is
 * recorded as a report, shown here with who and when; an owner, another person, then confirms it
 * (the button is offered to whom the server says may).
 */
export function RefundOutcomeForm(
  props: {
    item: SuccessItem;
    api: ApiClient;
    t: Translate;
    lang: string;
    onClose(done: string | null): void;
  },
) {
  const { item, t, lang } = props;
  const dates = useDates();
  const money = (minor: number) => listAmount(minor, item.resultData.DebitCurrency, lang) ?? "";
  const [pending, setPending] = useState<ListedRefund[] | null>(null);
  const [references, setReferences] = useState<Record<string, string>>({});
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const base = `/api/transaction/${encodeURIComponent(item.id)}`;
  const open = (el: HTMLDialogElement | null) => {
    if (el && !el.open) el.showModal();
  };
  useEffect(() => {
    props.api.request<{ data: ListedRefund[] }>(`${base}/refunds`)
      .then((list) => setPending(list.data.filter((r) => r.state === "pending")))
      .catch((failure) => setError(messageText(t, listFailure(failure))));
  }, []);

  async function record(refund: ListedRefund, outcome: "succeeded" | "failed") {
    setBusy(true);
    setError("");
    const providerRef = references[refund.id]?.trim();
    try {
      const recorded = await props.api.request<{ state: ListedRefund["state"] }>(`${base}/refund-outcome`, {
        method: "POST",
        body: JSON.stringify({ refundId: refund.id, outcome, ...(providerRef ? { providerRef } : {}) }),
      });
      // Still pending after "did not go through": a report, awaiting an owner's confirmation.
      const key = outcome === "succeeded"
        ? "refunds.ui.recordedSucceeded"
        : recorded.state === "pending"
        ? "refunds.ui.recordedReport"
        : "refunds.ui.recordedFailed";
      props.onClose(t(key, { amount: money(refund.amount) }));
    } catch (failure) {
      // The refusals the server explains (`lib/refunds/refund_outcome.ts`), in the page's words.
      const why = failure instanceof ApiError && failure.status === 409
        ? failure.body?.errors?.find((e) => e.path === "refundId")?.message
        : undefined;
      setError(
        why === "too recent"
          ? t("refunds.ui.tooRecent")
          : why === "settled"
          ? t("refunds.ui.alreadyRecorded")
          : why === "awaiting confirmation"
          ? t("refunds.ui.awaitingConfirmation")
          : messageText(t, listFailure(failure)),
      );
      setBusy(false);
    }
  }

  return (
    <dialog
      ref={open}
      class="refund-dialog"
      aria-labelledby="refund-outcome-title"
      onCancel={() => props.onClose(null)}
    >
      <div class="refund-form">
        <h2 id="refund-outcome-title">{t("refunds.ui.resolveTitle")}</h2>
        <p>{t("refunds.ui.resolveIntro")}</p>
        {pending === null && !error && <span class="spinner" aria-hidden="true" />}
        {pending?.map((refund) => (
          <fieldset key={refund.id} class="refund-outcome">
            <legend>
              {t("refunds.ui.askedAt", {
                amount: isolate(money(refund.amount)),
                date: isolate(dates.dateTime(refund.createdAt) ?? ""),
              })}
            </legend>
            {refund.failureReport && (
              <p class="field-hint">
                {t("refunds.ui.reportedFailure", {
                  email: isolate(refund.failureReport.actorEmail),
                  date: isolate(dates.dateTime(refund.failureReport.at) ?? ""),
                })}
              </p>
            )}
            <label for={`refund-ref-${refund.id}`}>{t("refunds.ui.providerRefLabel")}</label>
            <input
              id={`refund-ref-${refund.id}`}
              dir="ltr"
              maxLength={100}
              value={references[refund.id] ?? ""}
              onInput={(e) =>
                setReferences({ ...references, [refund.id]: (e.currentTarget as HTMLInputElement).value })}
            />
            <div class="approval-actions">
              <button
                type="button"
                class="button button-primary"
                disabled={busy}
                onClick={() => record(refund, "succeeded")}
              >
                {t("refunds.ui.wentThrough")}
              </button>
              {(!refund.failureReport || refund.failureReport.confirmable) && (
                <button
                  type="button"
                  class="button button-outline"
                  disabled={busy}
                  onClick={() => record(refund, "failed")}
                >
                  {refund.failureReport ? t("refunds.ui.confirmFailed") : t("refunds.ui.didNotGoThrough")}
                </button>
              )}
            </div>
          </fieldset>
        ))}
        <p class="form-alert" role="alert">{error}</p>
        <div class="approval-actions">
          <button
            type="button"
            class="button button-outline"
            disabled={busy}
            onClick={() => props.onClose(null)}
          >
            {t("refunds.ui.cancel")}
          </button>
        </div>
      </div>
    </dialog>
  );
}
