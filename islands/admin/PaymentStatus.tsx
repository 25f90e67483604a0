import type { Translate } from "@/islands/shared/texts.ts";

/**
 * A payment's status in a back-office table (the transaction history, the donor's gifts): a badge,
 * and for a failure the error catalogue's words for its code in the page's language (the API
 * resolves them: the island never holds the catalogue), then the provider's own message, smaller and
 * isolated in its own direction: staff may quote it to the provider's support (issue 26).
 */
export function PaymentStatus(
  props: { t: Translate; success: boolean; code: string; text?: string | null; detail?: string | null },
) {
  const { t } = props;
  if (props.success) return <span class="badge badge-success">{t("transactions.statusSuccess")}</span>;
  return (
    <>
      <span class="badge badge-error">{t("transactions.statusError", { code: props.code })}</span>
      {props.text && <span class="tx-reason">{props.text}</span>}
      {props.detail && (
        <span class="tx-detail">
          <bdi>{props.detail}</bdi>
        </span>
      )}
    </>
  );
}
