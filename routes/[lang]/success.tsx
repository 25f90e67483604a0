import { PageTitle } from "@/components/PageTitle.tsx";
import { recordForPage, TransactionIdLine } from "@/components/TransactionResult.tsx";
import type { Handlers, PageProps } from "@/lib/framework/mod.ts";
import type { AppState } from "@/lib/app/state.ts";
import ProgressBar from "@/islands/ProgressBar.tsx";

interface Data {
  /** The provider's transaction id, only when the server recorded it as a success. */
  transactionId: string | null;
}

/**
 * `/{lang}/success?{Provider}TransactionId=…`: the online success page. The id is shown only when
 * it names a transaction the server recorded; one recorded as declined goes to the error page.
 */
export const handler: Handlers<Data, AppState> = {
  async GET(_req, ctx) {
    const record = await recordForPage(ctx.state.services, ctx.url, ctx.state.lang, "success", null);
    if (record instanceof Response) return record;
    return ctx.render({ transactionId: record.transaction ? record.query.transactionId : null });
  },
};

/** The online success page: thanks, the transaction id, and the way back to a new donation. */
export default function SuccessPage({ state, data }: PageProps<Data, AppState>) {
  const { t, lang } = state;
  return (
    <section class="result result-success">
      <PageTitle title={t("pages.success")} siteName={t("meta.siteName")} />
      <p class="result-message">{t("success.message")}</p>
      <TransactionIdLine label={t("success.transactionId")} id={data.transactionId} />
      <ProgressBar href={`/${lang}`} label={t("progress.label")} buttonText={t("success.newPayment")} />
    </section>
  );
}
