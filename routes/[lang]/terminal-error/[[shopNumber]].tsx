import { PageTitle } from "@/components/PageTitle.tsx";
import {
  DetailsBlock,
  type FailureFields,
  failureFields,
  recordForPage,
  terminalPaymentHref,
  TransactionIdLine,
} from "@/components/TransactionResult.tsx";
import { terminalFor } from "@/lib/providers/mod.ts";
import { errorMessageKey } from "@/lib/donations/error_codes.ts";
import type { Handlers, PageProps } from "@/lib/framework/mod.ts";
import type { AppState } from "@/lib/app/state.ts";
import ProgressBar from "@/islands/ProgressBar.tsx";

interface Data extends FailureFields {
  /** From the server's record only; `null` without one. */
  shvaResult: string | null;
  voucherId: string | null;
  terminalId: string | null;
}

/**
 * `/{lang}/terminal-error/{shop}?{Provider}StatusCode=…&{Provider}TransactionId=…`: the kiosk's
 * error page. As online, the details come from the server's record of the transaction (the
 * terminal from the payment's shop), never from the query; a recorded success goes to the shop's
 * success page.
 */
export const handler: Handlers<Data, AppState> = {
  async GET(_req, ctx) {
    const { services, lang } = ctx.state;
    const record = await recordForPage(services, ctx.url, lang, "error", ctx.params.shopNumber ?? "");
    if (record instanceof Response) return record;
    const tx = record.transaction;
    return ctx.render({
      ...failureFields(record, lang),
      shvaResult: tx?.resultData?.ShvaResult ?? null,
      voucherId: tx?.resultData?.VoucherId ?? null,
      terminalId: terminalFor(services.config, record.payment?.shopNumber),
    });
  },
};

/** The terminal error page: what went wrong, the recorded details, and back to the shop's page. */
export default function TerminalErrorPage({ state, data, params }: PageProps<Data, AppState>) {
  const { t, lang } = state;
  return (
    <section class="result result-error">
      <PageTitle title={t("transactionError.title")} siteName={t("meta.siteName")} />
      <p class="result-message">{t("transactionError.message")}</p>
      <p class="result-reason">{t(errorMessageKey(data.statusCode))}</p>
      <TransactionIdLine label={t("transactionError.transactionId")} id={data.transactionId} />
      <DetailsBlock
        t={t}
        rows={[
          { label: t("transactionError.amount"), value: data.amount },
          { label: t("transactionError.statusCode"), value: data.recordedCode, code: true },
          { label: t("transactionError.errorMessage"), value: data.errorMessage },
          { label: t("transactionError.transactionId"), value: data.transactionId, code: true },
          { label: t("transactionError.clearingResult"), value: data.shvaResult, code: true },
          { label: t("transactionError.voucherId"), value: data.voucherId, code: true },
          { label: t("transactionError.terminalId"), value: data.terminalId, code: true },
        ]}
      />
      <ProgressBar
        href={terminalPaymentHref(lang, params.shopNumber)}
        label={t("progress.label")}
        buttonText={t("transactionError.retry")}
      />
    </section>
  );
}
