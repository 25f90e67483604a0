import { useEffect, useRef, useState } from "preact/hooks";
import { listAmount } from "@/lib/shared/format.ts";
import type { ApiClient } from "@/islands/shared/admin_api.ts";
import { listFailure } from "@/islands/shared/account_forms.ts";
import { messageText, type Translate } from "@/islands/shared/texts.ts";
import { remaining as remainingOf, type SuccessItem } from "./TransactionTable.tsx";

/** The refund reasons the API takes (`REFUND_REASONS` in `lib/storage/refund_types.ts`). */
const REASONS = ["requested-by-donor", "duplicate", "mistake", "fraud", "other"] as const;

/** "25.50" or "25,50" → 2550; null for anything else. */
function toMinor(text: string): number | null {
  const m = /^(\d{1,12})(?:[.,](\d{1,2}))?$/.exec(text.trim());
  return m ? Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0")) : null;
}

/**
 * Whether a refund's call failed with the API's 503 for an unconfirmed refund (no `Retry-After`:
 * a busy server's 503 carries one, and nothing was recorded then).
 */
function unconfirmed(failure: unknown): boolean {
  const call = failure as { kind?: string; status?: number | null; retryAfter?: number | null } | null;
  return call?.kind === "http" && call.status === 503 && (call.retryAfter ?? null) === null;
}

/** The card a refund goes back to, as `GET /api/transaction/{id}/refunds` answers it (never its token). */
type RefundCard =
  | { available: true; last4: string | null }
  | { available: false; reason: "unknown" | "no-token" | "other-provider" };

/** What the form says of the card: the one that paid (its last four digits), or why not here. */
function cardText(t: Translate, card: RefundCard): string {
  if (card.available) {
    return card.last4
      ? t("refunds.ui.creditedCard", { last4: card.last4 })
      : t("refunds.ui.creditedCardNoDigits");
  }
  return t(
    card.reason === "no-token"
      ? "refunds.ui.cardNoToken"
      : card.reason === "other-provider"
      ? "refunds.ui.cardOtherProvider"
      : "refunds.ui.cardUnknown",
  );
}

/**
 * A gift's refund form (issue 16), in a modal dialog opened from its row: the amount (the whole of
 * what remains by default), a reason from the short list, a note, and for a monthly gift whether to
 * cancel it too. One idempotency key per opening: a double click or a retry after a lost answer is
 * one refund. Only finance, admins and owners see it (`lib/staff/roles.ts`).
 *
 * It says which card the money goes back to (issue 23): the one that paid, by its last four
 * digits, as the server answers; where that card cannot be known here, why, and where to refund it
 * instead, with nothing to submit.
 */
export function RefundForm(
  props: {
    item: SuccessItem;
    api: ApiClient;
    t: Translate;
    lang: string;
    onClose(done: string | null): void;
  },
) {
  const { item, t, lang } = props;
  const currency = item.resultData.DebitCurrency;
  const remaining = remainingOf(item);
  const money = (minor: number) => listAmount(minor, currency, lang) ?? "";
  const [amount, setAmount] = useState((remaining / 100).toFixed(2));
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  // Null until the server says which card a refund goes back to.
  const [card, setCard] = useState<RefundCard | null>(null);
  // The card that paid cannot be credited here: only why, and where instead.
  const refused = card !== null && !card.available;
  const key = useRef(crypto.randomUUID());
  const name = `${item.user.firstName} ${item.user.lastName}`.trim();
  const dialog = useRef<HTMLDialogElement>(null);
  const open = (el: HTMLDialogElement | null) => {
    dialog.current = el;
    if (el && !el.open) el.showModal();
  };

  useEffect(() => {
    props.api.request<{ card: RefundCard | null }>(`/api/transaction/${encodeURIComponent(item.id)}/refunds`)
      .then((list) => setCard(list.card ?? { available: false, reason: "unknown" }))
      .catch((failure) => setError(messageText(t, listFailure(failure))));
  }, []);

  async function submit(e: Event) {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    const minor = toMinor(amount);
    if (minor === null || minor < 1 || minor > remaining) {
      setError(t("refunds.ui.invalidAmount", { min: money(1), max: money(remaining) }));
      return;
    }
    setBusy(true);
    setError("");
    try {
      await props.api.request(`/api/transaction/${encodeURIComponent(item.id)}/refund`, {
        method: "POST",
        body: JSON.stringify({
          amount: minor,
          reason: form.get("reason"),
          note: String(form.get("note") ?? ""),
          key: key.current,
          cancelMonthly: form.get("cancelMonthly") === "on",
        }),
      });
      props.onClose(t("refunds.ui.done", { amount: money(minor) }));
    } catch (failure) {
      // The provider's answer is unclear: the refund is kept pending (the row says so), not failed.
      if (unconfirmed(failure)) return props.onClose(t("refunds.ui.unconfirmed"));
      setError(t("refunds.ui.failed", { message: messageText(t, listFailure(failure)) }));
      setBusy(false);
    }
  }

  return (
    <dialog
      ref={open}
      class="refund-dialog"
      aria-labelledby="refund-title"
      onCancel={() => props.onClose(null)}
    >
      <form onSubmit={submit} class="refund-form">
        <h2 id="refund-title">{t("refunds.ui.dialogTitle")}</h2>
        <p>
          <bdi>{name}</bdi> · {t("refunds.ui.paid", { amount: money(Number(item.resultData.DebitTotal)) })} ·
          {" "}
          {t("refunds.ui.remaining", { amount: money(remaining) })}
        </p>
        {card === null
          ? !error && <span class="spinner" aria-hidden="true" />
          : (
            <p id="refund-card" class={card.available ? "refund-card" : "form-alert"}>
              {cardText(t, card)}
            </p>
          )}
        {!refused && (
          <>
            <label for="refund-amount">{t("refunds.ui.amountLabel")}</label>
            <input
              id="refund-amount"
              name="amount"
              inputMode="decimal"
              dir="ltr"
              value={amount}
              aria-describedby="refund-amount-hint"
              aria-invalid={error ? "true" : undefined}
              onInput={(e) => setAmount((e.currentTarget as HTMLInputElement).value)}
            />
            <span id="refund-amount-hint" class="field-hint">
              {t("refunds.ui.amountHint", { min: money(1), max: money(remaining) })}
            </span>
            <label for="refund-reason">{t("refunds.ui.reasonLabel")}</label>
            <select id="refund-reason" name="reason">
              {REASONS.map((reason) => (
                <option key={reason} value={reason}>{t(`refunds.ui.reasons.${reason}`)}</option>
              ))}
            </select>
            <label for="refund-note">{t("refunds.ui.noteLabel")}</label>
            <textarea id="refund-note" name="note" maxLength={500} rows={2} />
            {item.isMonthly && (
              <label class="checkbox-field">
                <input type="checkbox" name="cancelMonthly" /> {t("refunds.ui.cancelMonthly")}
              </label>
            )}
          </>
        )}
        <p class="form-alert" role="alert">{error}</p>
        <div class="approval-actions">
          {!refused && (
            <button type="submit" class="button button-primary" disabled={busy || (card === null && !error)}>
              {busy ? t("refunds.ui.refunding") : t("refunds.ui.submit")}
            </button>
          )}
          <button
            type="button"
            class="button button-outline"
            disabled={busy}
            onClick={() => props.onClose(null)}
          >
            {t("refunds.ui.cancel")}
          </button>
        </div>
      </form>
    </dialog>
  );
}
