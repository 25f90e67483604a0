import { listAmount } from "@/lib/shared/format.ts";
import type { ErrorItem, SuccessItem } from "@/lib/shared/transaction_items.ts";
import { useDates } from "@/islands/shared/dates.tsx";
import type { Translate } from "@/islands/shared/texts.ts";
import { Address, DataTable } from "./DataTable.tsx";
import { donorHref } from "./donor_links.ts";
import { PaymentStatus } from "./PaymentStatus.tsx";

export type { ErrorItem, SuccessItem };

/** What remains to refund of a gift, in minor units (issue 16). */
export const remaining = (item: SuccessItem): number =>
  Number(item.resultData.DebitTotal) - (item.refund?.refunded ?? 0) - (item.refund?.pending ?? 0);

/** A row of the table: a row is a success when its status code is '000' (spec section 4). */
export type Row = { kind: "success"; item: SuccessItem } | { kind: "error"; item: ErrorItem };

/** What a success row's receipt cell does (the history owns the requests and their notices). */
export interface ReceiptActions {
  /** Downloads the row's receipt PDF (the API needs the admin's token: not a plain link). */
  download(item: SuccessItem): void;
  resend(item: SuccessItem): void;
  /** A resend is under way: its buttons wait. */
  busy: boolean;
  /** Opens the row's refund form (issue 16); absent for who may not refund. */
  refund?(item: SuccessItem): void;
  /** Opens the form that records the provider's answer to the row's pending refunds. */
  resolve?(item: SuccessItem): void;
}

/**
 * The transaction table of spec section 2: real table semantics (caption, column and row
 * headers), 'N/A' for every empty value, the payment type on success rows only, US English dates
 * in the viewer's time zone, amounts as currency, and a footer counting the rows on the page. It
 * fits a laptop (the payment type, card number and credit type in one cell; long values wrap) and
 * shows each row as a card on a phone (`DataTable`, issue 26). Shows the first `shown` rows (all by
 * default); the footer counts every row of the page. With `receipts`, a
 * last column links each successful gift to its receipt and offers to resend its email (issue 14).
 * Each row's email address links to the donor's view: every gift under that address (issue 15),
 * unless `donorLinks` is false (a viewer sees masked addresses and no donor's page: issue 16).
 */
export function TransactionTable(
  props: {
    rows: Row[];
    shown?: number;
    t: Translate;
    lang: string;
    receipts?: ReceiptActions;
    donorLinks?: boolean;
  },
) {
  const { rows, t, lang, receipts } = props;
  const dates = useDates();
  const columns = receipts ? 6 : 5;
  const na = t("common.notAvailable");
  const or = (value: string | null | undefined) => (value && value.trim() ? value : na);
  const creditType = (code: string) => {
    const key = `transactions.creditTypes.${code}`;
    const text = t(key);
    return text === key ? code : text;
  };
  const receiptCell = (success: SuccessItem | null, name: string, actions: ReceiptActions) => {
    const receipt = success?.receipt;
    if (!success || !receipt) return na;
    const shown = receipt.number ?? t("backofficeMail.receiptPdf");
    return (
      <div class="approval-actions">
        <a
          href={`${receipt.url}?lang=${lang}`}
          class="tx-receipt-link"
          aria-label={t("backofficeMail.downloadFor", { receipt: shown, name })}
          onClick={(e) => {
            e.preventDefault();
            actions.download(success);
          }}
        >
          <bdi>{shown}</bdi>
        </a>
        <button
          type="button"
          class="button button-outline"
          disabled={actions.busy}
          aria-label={t("backofficeMail.resendFor", { name })}
          onClick={() => actions.resend(success)}
        >
          {t("backofficeMail.resend")}
        </button>
        {actions.resolve && (success.refund?.pending ?? 0) > 0 && (
          <button
            type="button"
            class="button button-outline"
            aria-label={t("refunds.ui.resolveFor", { name })}
            onClick={() => actions.resolve!(success)}
          >
            {t("refunds.ui.resolve")}
          </button>
        )}
        {actions.refund && remaining(success) > 0 && (
          <button
            type="button"
            class="button button-outline"
            aria-label={t("refunds.ui.buttonFor", { name })}
            onClick={() => actions.refund!(success)}
          >
            {t("refunds.ui.button")}
          </button>
        )}
      </div>
    );
  };
  return (
    <DataTable
      id="transactions-caption"
      class="tx-table"
      caption={t("transactions.caption")}
      columns={[
        ...["user", "status"].map((c) => t(`transactions.${c}`)),
        // How it was paid in one column (issue 26): the type, the card and its credit type. The table
        // fits a laptop.
        ["paymentType", "cardNumber", "creditType"].map((c) => t(`transactions.${c}`)).join(" / "),
        ...["amount", "date"].map((c) => t(`transactions.${c}`)),
        ...(receipts ? [t("backofficeMail.receiptColumn")] : []),
      ]}
      rows={rows.slice(0, props.shown ?? rows.length)}
      row={({ kind, item }) => {
        const name = `${item.user.firstName} ${item.user.lastName}`.trim();
        // Erased at the donor's request (issue 15): the record keeps no name or email.
        const erased = item.user.email === "";
        const success = kind === "success" ? item as SuccessItem : null;
        const failed = kind === "error" ? item as ErrorItem : null;
        return (
          <tr key={`${kind}-${item.id}`} class={`tx-${kind}`}>
            <th scope="row" class="tx-user">
              {erased ? <span class="tx-erased">{t("portalPrivacy.erasedDonor")}</span> : (
                <>
                  <span>{or(name)}</span>
                  <span class="tx-email">
                    {!item.user.email.trim()
                      ? na
                      : props.donorLinks === false
                      ? <Address email={item.user.email} />
                      : (
                        <a href={donorHref(lang, item.user.email)}>
                          <Address email={item.user.email} />
                        </a>
                      )}
                  </span>
                </>
              )}
            </th>
            <td>
              <PaymentStatus
                t={t}
                success={!failed}
                code={item.statusCode}
                text={failed?.statusText}
                detail={failed?.errorMessage}
              />
            </td>
            <td class="tx-card">
              <span class="tx-type">
                {success ? t(success.isMonthly ? "transactions.monthly" : "transactions.oneTime") : na}
              </span>
              <span dir="ltr">{or(success?.resultData.CreditCardNumber)}</span>
              <span class="tx-credit">
                {success?.resultData.CreditType ? creditType(success.resultData.CreditType) : na}
              </span>
            </td>
            <td class="tx-amount">
              {or(
                success
                  ? listAmount(success.resultData.DebitTotal, success.resultData.DebitCurrency, lang)
                  : listAmount(failed?.amount, failed?.currency, lang),
              )}
              {success?.refund && (
                <span class="tx-reason">
                  {success.refund.refunded > 0 &&
                    t("refunds.ui.refunded", {
                      amount: listAmount(success.refund.refunded, success.resultData.DebitCurrency, lang) ??
                        "",
                    })}
                  {success.refund.pending > 0 && ` ${t("refunds.ui.pending")}`}
                </span>
              )}
            </td>
            <td class="tx-date">
              <time dateTime={item.createdAt}>{or(dates.dateTime(item.createdAt))}</time>
            </td>
            {receipts && <td class="tx-receipt">{receiptCell(success, or(name), receipts)}</td>}
          </tr>
        );
      }}
      empty={t("transactions.empty")}
      foot={
        <tr>
          <th scope="row" colSpan={columns - 1}>{t("transactions.total")}</th>
          <td>{rows.length}</td>
        </tr>
      }
    />
  );
}
