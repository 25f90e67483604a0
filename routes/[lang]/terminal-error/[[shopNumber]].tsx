import { PageTitle } from "../../../components/PageTitle.tsx";
import {
  DetailsBlock,
  loadResult,
  recordedAmount,
  redirectTo,
  resultLocation,
  terminalIdOf,
  terminalPaymentHref,
  TransactionIdLine,
} from "../../../components/TransactionResult.tsx";
import { errorMessageKey } from "../../../lib/error_codes.ts";
import type { Handlers, PageProps } from "../../../lib/framework/mod.ts";
import type { AppState } from "../../../lib/state.ts";
import ProgressBar from "../../../islands/ProgressBar.tsx";

interface Data {
  /** The status code whose message explains the failure: the record's, else the query's. */
  statusCode: string | null;
  /** Everything below comes from the server's record only; `null` without one. */
  transactionId: string | null;
  amount: string | null;
  recordedCode: string | null;
  errorMessage: string | null;
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
    const record = await loadResult(services, ctx.url);
    const tx = record.transaction;
    if (tx && tx.kind === "success") {
      return redirectTo(resultLocation(lang, ctx.params.shopNumber ?? "", record));
    }
    return ctx.render({
      statusCode: tx ? tx.statusCode : record.query.statusCode,
      transactionId: tx ? record.query.transactionId : null,
      amount: recordedAmount(tx, lang),
      recordedCode: tx?.statusCode ?? null,
      errorMessage: tx?.errorMessage ?? null,
      shvaResult: tx?.resultData?.ShvaResult ?? null,
      voucherId: tx?.resultData?.VoucherId ?? null,
      terminalId: terminalIdOf(services.config, record.payment?.shopNumber ?? null),
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
