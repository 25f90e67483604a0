import { PageTitle } from "@/components/PageTitle.tsx";
import { type Handlers, Head, type PageProps } from "@/lib/framework/mod.ts";
import { amountInFigures, longDate } from "@/lib/receipts/format.ts";
import { type VerifiedReceipt, verifyReceipt } from "@/lib/receipts/verify.ts";
import type { AppState } from "@/lib/app/state.ts";

/** What the page shows: the receipt a valid code names, or that the code is not valid. */
export type VerifyPageData = { receipt: VerifiedReceipt | null };

/**
 * `/{lang}/receipts/verify?c=…`: the page a receipt's QR code opens. A code with a valid signature
 * that names a receipt shows its number, date and amount and who issued it, nothing about the
 * donor; any other code (tampered, truncated, unknown, missing) gets a translated "not valid"
 * page with status 404.
 */
export const handler: Handlers<VerifyPageData, AppState> = {
  async GET(_req, ctx) {
    const { store, config } = ctx.state.services;
    const receipt = await verifyReceipt(store, config.appSecret, ctx.url.searchParams.get("c"));
    return ctx.render({ receipt }, { status: receipt ? 200 : 404 });
  },
};

/** The verification page. */
export default function VerifyPage({ state, data }: PageProps<VerifyPageData, AppState>) {
  const { t, lang } = state;
  const { receipt } = data;
  return (
    <section class="cancel receipt-verify">
      <Head>
        <meta name="robots" content="noindex" />
      </Head>
      <PageTitle title={t("receipt.verifyPage.title")} siteName={t("meta.siteName")} />
      {receipt
        ? (
          <>
            <p class="notice-success" role="status">
              {t("receipt.verifyPage.valid", { issuer: receipt.issuer })}
            </p>
            <dl class="details-list">
              <div>
                <dt>{t("receipt.number")}</dt>
                <dd>
                  <bdi dir="ltr">{receipt.number}</bdi>
                </dd>
              </div>
              <div>
                <dt>{t("receipt.issuedOn")}</dt>
                <dd>{longDate(receipt.issuedAt, lang, receipt.timeZone)}</dd>
              </div>
              <div>
                <dt>{t("receipt.amount")}</dt>
                <dd>
                  <bdi dir="ltr">{amountInFigures(receipt.amount, receipt.currency, lang)}</bdi>
                </dd>
              </div>
            </dl>
            <p class="result-message">{t("receipt.verifyPage.privacy")}</p>
          </>
        )
        : <p class="result-reason" role="alert">{t("receipt.verifyPage.invalid")}</p>}
    </section>
  );
}
