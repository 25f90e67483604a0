import { type DownloadProblem, DownloadRefused } from "@/components/DonorPrivacy.tsx";
import {
  limitedYearReceiptsZip,
  TooManyReceiptsError,
  ZipInProgressError,
} from "@/lib/donor_portal/year_receipts.ts";
import { type Handlers, Head, type PageProps } from "@/lib/framework/mod.ts";
import { errorAnswer } from "@/lib/http/domain_errors.ts";
import { requestAddress } from "@/lib/http/rate_limit.ts";
import { RateLimitedError } from "@/lib/rate_limits/rate_limits.ts";
import { ReceiptsBusyError } from "@/lib/receipts/errors.ts";
import type { AppState } from "@/lib/app/state.ts";
import { steppedUpSession } from "@/routes/[lang]/account/_access.ts";

/** Why there is no file (and, when limited, in how many minutes to try again). */
type Data = { problem: DownloadProblem; year: string; minutes?: number };

/** The refusals a page answers, each with its problem (the others are the app's 500). */
const REFUSALS: [new (...args: never[]) => Error, DownloadProblem][] = [
  [ReceiptsBusyError, "busy"],
  [TooManyReceiptsError, "tooMany"],
  [ZipInProgressError, "inProgress"],
  [RateLimitedError, "limited"],
];

/** Four digits from 1900 to 2099 (no pattern: a route's input is checked without regular expressions). */
const isYear = (value: string) =>
  value.length === 4 && [...value].every((c) => c >= "0" && c <= "9") && Number(value) >= 1900 &&
  Number(value) < 2100;

/**
 * `/{lang}/account/receipts/{year}`: every receipt of the signed-in donor's address issued in
 * `year`, one ZIP of the PDFs in the page's language (`lib/donor_portal/year_receipts.ts`), an
 * attachment never cached. Signed out: back to the sign-in form (303); signed in by a manage link or
 * more than an hour ago: the step-up page (303; the PDFs print the ID number). No receipt that year (or
 * not a year): a translated page, 404; more than one download holds: 413; another ZIP of the same
 * session still being made: 409; too many ZIPs (`year_receipts.ts`): 429 with `Retry-After`; the
 * receipt workers' queue full: 503 with `Retry-After`.
 */
export const handler: Handlers<Data, AppState> = {
  async GET(req, ctx) {
    const { services, lang, log } = ctx.state;
    const session = await steppedUpSession(req, ctx.state, "receipts");
    if (session instanceof Response) return session;
    const year = ctx.params.year;
    if (!isYear(year)) return ctx.render({ problem: "noReceipts", year }, { status: 404 });
    try {
      const zip = await limitedYearReceiptsZip(
        {
          store: services.store,
          appSecret: services.config.appSecret,
          origin: services.config.publicUrl ?? ctx.url.origin,
          renderPdf: services.receiptPdfs.render,
        },
        { sessionHash: session.hash, address: requestAddress(ctx) },
        session.email,
        Number(year),
        lang,
      );
      if (zip === null) return ctx.render({ problem: "noReceipts", year }, { status: 404 });
      log.info("donor downloaded a year's receipts", { count: zip.count });
      return new Response(zip.content.slice(), {
        headers: {
          "content-type": "application/zip",
          "content-disposition": `attachment; filename="${zip.filename}"`,
          "cache-control": "no-store",
          "x-robots-tag": "noindex",
        },
      });
    } catch (error) {
      const problem = REFUSALS.find(([kind]) => error instanceof kind)?.[1];
      if (problem === undefined) throw error;
      const answer = errorAnswer(error)!;
      let minutes: number | undefined;
      if (error instanceof RateLimitedError) {
        minutes = Math.ceil(error.retryAfterSeconds / 60);
        log.warn("rate limited", { action: "receipts-zip", retryAfterSeconds: error.retryAfterSeconds });
      }
      return ctx.render({ problem, year, minutes }, {
        status: answer.status,
        headers: { ...answer.headers, "cache-control": "no-store" },
      });
    }
  },
};

/** The page shown when there is no file. */
export default function YearReceiptsPage({ state, data }: PageProps<Data, AppState>) {
  return (
    <>
      <Head>
        <meta name="robots" content="noindex" />
      </Head>
      <DownloadRefused
        t={state.t}
        lang={state.lang}
        problem={data.problem}
        year={data.year}
        minutes={data.minutes}
      />
    </>
  );
}
