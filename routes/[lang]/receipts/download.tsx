import { PageTitle } from "@/components/PageTitle.tsx";
import { type Handlers, Head, type PageProps } from "@/lib/framework/mod.ts";
import { errorAnswer } from "@/lib/http/domain_errors.ts";
import { requestAddress } from "@/lib/http/rate_limit.ts";
import { RateLimitedError } from "@/lib/rate_limits/rate_limits.ts";
import { receiptDownload } from "@/lib/receipts/download.ts";
import { ReceiptsBusyError } from "@/lib/receipts/errors.ts";
import type { AppState } from "@/lib/app/state.ts";

/** Why there is no file to download (and, when limited, in how many minutes to try again). */
export type DownloadPageData = { problem: "invalid" | "expired" | "busy" | "limited"; minutes?: number };

/**
 * `/{lang}/receipts/download?c=…`: a receipt's PDF, in the page's language, for the links the
 * donor's manage page lists (each with a download code that expires after a day), drawn by the
 * app's receipt workers. The file is sent as an attachment and never cached. A tampered or unknown
 * code gets a translated page with 404; an expired one a page with 410 telling the donor to open
 * their page again; too many downloads from the client's address, 429 with `Retry-After`; the
 * receipt workers' queue full, 503 with `Retry-After`.
 */
export const handler: Handlers<DownloadPageData, AppState> = {
  async GET(_req, ctx) {
    const { store, config, receiptPdfs } = ctx.state.services;
    try {
      const found = await receiptDownload(
        {
          store,
          appSecret: config.appSecret,
          origin: config.publicUrl ?? ctx.url.origin,
          renderPdf: receiptPdfs.render,
        },
        { code: ctx.url.searchParams.get("c"), language: ctx.state.lang, address: requestAddress(ctx) },
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
    } catch (error) {
      if (!(error instanceof ReceiptsBusyError || error instanceof RateLimitedError)) throw error;
      const answer = errorAnswer(error)!;
      if (error instanceof RateLimitedError) {
        ctx.state.log.warn("rate limited", {
          action: "receipt-download",
          retryAfterSeconds: error.retryAfterSeconds,
        });
      }
      return ctx.render(
        error instanceof ReceiptsBusyError
          ? { problem: "busy" }
          : { problem: "limited", minutes: Math.ceil(error.retryAfterSeconds / 60) },
        { status: answer.status, headers: { ...answer.headers, "cache-control": "no-store" } },
      );
    }
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
      <p class="result-reason" role="alert">
        {t(`receipt.downloadPage.${data.problem}`, { minutes: data.minutes })}
      </p>
    </section>
  );
}
