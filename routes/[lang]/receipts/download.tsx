import { PageTitle } from "@/components/PageTitle.tsx";
import { type Handlers, Head, type PageProps } from "@/lib/framework/mod.ts";
import { receiptDownload } from "@/lib/receipts/download.ts";
import type { AppState } from "@/lib/state.ts";

/** Why there is no file to download. */
export type DownloadPageData = { problem: "invalid" | "expired" };

/**
 * `/{lang}/receipts/download?c=…`: a receipt's PDF, in the page's language, for the links the
 * donor's manage page lists (each with a download code that expires after a day). The file is
 * sent as an attachment and never cached. A tampered or unknown code gets a translated page with
 * 404; an expired one a page with 410 telling the donor to open their page again.
 */
export const handler: Handlers<DownloadPageData, AppState> = {
  async GET(_req, ctx) {
    const { store, config } = ctx.state.services;
    const found = await receiptDownload(
      store,
      {
        appSecret: config.appSecret,
        origin: config.publicUrl ?? ctx.url.origin,
      },
      ctx.url.searchParams.get("c"),
      ctx.state.lang,
    );
    if (found.kind !== "file") {
      return ctx.render({ problem: found.kind }, { status: found.kind === "expired" ? 410 : 404 });
    }
    const { filename, contentType, content } = found.attachment;
    return new Response(content.slice(), {
      headers: {
        "content-type": contentType,
        "content-disposition": `attachment; filename="${filename}"`,
        "cache-control": "no-store",
        "x-robots-tag": "noindex",
      },
    });
  },
};

/** The page shown when there is no file. */
export default function DownloadPage({ state, data }: PageProps<DownloadPageData, AppState>) {
  const { t } = state;
  return (
    <section class="cancel receipt-download">
      <Head>
        <meta name="robots" content="noindex" />
      </Head>
      <PageTitle title={t("receipt.downloadPage.title")} siteName={t("meta.siteName")} />
      <p class="result-reason" role="alert">{t(`receipt.downloadPage.${data.problem}`)}</p>
    </section>
  );
}
