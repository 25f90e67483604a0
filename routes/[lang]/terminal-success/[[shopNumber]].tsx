import { PageTitle } from "@/components/PageTitle.tsx";
import { recordForPage, terminalPaymentHref, TransactionIdLine } from "@/components/TransactionResult.tsx";
import type { Handlers, PageProps } from "@/lib/framework/mod.ts";
import type { AppState } from "@/lib/app/state.ts";
import ProgressBar from "@/islands/ProgressBar.tsx";

interface Data {
  /** The provider's transaction id, only when the server recorded it as a success. */
  transactionId: string | null;
}

/**
 * `/{lang}/terminal-success/{shop}?{Provider}TransactionId=…`: the kiosk's success page. As online,
 * the id shows only for a transaction the server recorded as a success; a declined one goes to
 * the shop's error page.
 */
export const handler: Handlers<Data, AppState> = {
  async GET(_req, ctx) {
    const shop = ctx.params.shopNumber ?? "";
    const record = await recordForPage(ctx.state.services, ctx.url, ctx.state.lang, "success", shop);
    if (record instanceof Response) return record;
    return ctx.render({ transactionId: record.transaction ? record.query.transactionId : null });
  },
};

/** The terminal success page: thanks, the transaction id, and back to the shop's terminal page. */
export default function TerminalSuccessPage({ state, data, params }: PageProps<Data, AppState>) {
  const { t, lang } = state;
  return (
    <section class="result result-success">
      <PageTitle title={t("pages.terminalSuccess")} siteName={t("meta.siteName")} />
      <p class="result-message">{t("terminalSuccess.message")}</p>
      <TransactionIdLine label={t("terminalSuccess.transactionId")} id={data.transactionId} />
      <ProgressBar
        href={terminalPaymentHref(lang, params.shopNumber)}
        label={t("progress.label")}
        buttonText={t("terminalSuccess.newPayment")}
      />
    </section>
  );
}
