/**
 * The donor's receipts on the manage page: number, date and amount, each a link to its PDF (a
 * signed download link that works for a day, `lib/receipts/download.ts`). Server-rendered only.
 *
 * @module
 */
import type { TFunction } from "@/lib/core/i18n.ts";
import type { ReceiptLink } from "@/lib/receipts/download.ts";
import { formatMoney } from "@/lib/shared/money.ts";

/** The list, or nothing when the donor has no receipt yet. */
export function ReceiptList(
  props: { t: TFunction; lang: string; receipts: ReceiptLink[]; formatDate: (iso: string) => string | null },
) {
  const { t, lang, receipts } = props;
  if (receipts.length === 0) return null;
  return (
    <section class="user-info" aria-labelledby="receipts-title">
      <h2 id="receipts-title">{t("manageLink.receiptsTitle")}</h2>
      <ul class="receipt-list">
        {receipts.map((r) => (
          <li key={r.number}>
            <a href={r.href} download>
              {t("manageLink.receiptLine", {
                number: r.number,
                date: props.formatDate(r.issuedAt) ?? "",
                amount: formatMoney(r.amount, r.currency === "ILS" ? 1 : 2, lang),
              })}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
