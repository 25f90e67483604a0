import { PageTitle } from "@/components/PageTitle.tsx";
import {
  DetailsBlock,
  type FailureFields,
  failureFields,
  recordForPage,
  TransactionIdLine,
} from "@/components/TransactionResult.tsx";
import { errorMessageKey } from "@/lib/donations/error_codes.ts";
import type { Handlers, PageProps } from "@/lib/framework/mod.ts";
import type { AppState } from "@/lib/app/state.ts";
import ProgressBar from "@/islands/ProgressBar.tsx";

interface Data extends FailureFields {
  /** From the server's record only; `null` without one. */
  gatewayResult: string | null;
}

/**
 * `/{lang}/error?{Provider}StatusCode=…&{Provider}TransactionId=…`: the online error page. The
 * details come from the transaction the server recorded under that id (never from the query); a
 * transaction recorded as a success goes to the success page. Without a record, the query's status
 * code only chooses the message, and the details say 'N/A'.
 */
export const handler: Handlers<Data, AppState> = {
  async GET(_req, ctx) {
    const { lang } = ctx.state;
    const record = await recordForPage(ctx.state.services, ctx.url, lang, "error", null);
    if (record instanceof Response) return record;
    return ctx.render({
      ...failureFields(record, lang),
      gatewayResult: record.transaction?.resultData?.ShvaResult ?? null,
    });
  },
};

/** The online error page: what went wrong, the transaction id, Retry, and the recorded details. */
export default function ErrorPage({ state, data }: PageProps<Data, AppState>) {
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
          { label: t("transactionError.gatewayResult"), value: data.gatewayResult, code: true },
        ]}
      />
      <ProgressBar href={`/${lang}`} label={t("progress.label")} buttonText={t("transactionError.retry")} />
    </section>
  );
}
