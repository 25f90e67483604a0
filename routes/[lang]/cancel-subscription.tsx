import { PageTitle } from "@/components/PageTitle.tsx";
import { ReceiptList } from "@/components/ReceiptList.tsx";
import { type DonorView, donorView, stopMonthlyPayments } from "@/lib/donors/donors.ts";
import { type Handlers, Head, type PageProps, type RouteContext } from "@/lib/framework/mod.ts";
import type { TFunction } from "@/lib/core/i18n.ts";
import { clientAddress } from "@/lib/http/client_address.ts";
import { manageLinkKey, readManageToken, requestFreshLink } from "@/lib/donor_portal/manage_link.ts";
import { type ReceiptLink, receiptLinks } from "@/lib/receipts/download.ts";
import type { AppState } from "@/lib/app/state.ts";
import type { Donor } from "@/lib/storage/types.ts";

/** Donor ids as `lib/core/ids.ts` makes them (the same check as the API's `readId`). */
const DONOR_ID = /^[A-Za-z0-9_-]{16,64}$/;

/** Status of the page without a `userId` (someone opened the page without the link from the email). */
export const MISSING_ID_STATUS = 200;

/** What the page shows. */
export type CancelPageData =
  /** No `userId` in the query. */
  | { kind: "missing" }
  /** A malformed or unknown `userId`. */
  | { kind: "unknown" }
  /** A POST that did not come from our own page (refused by `_middleware.ts`). */
  | { kind: "forbidden" }
  /** The donor as the server has it; `cancelled` right after this request stopped the donation. */
  | { kind: "donor"; donor: DonorView; cancelled: boolean; receipts: ReceiptLink[] }
  /** A `token` that is not one of ours (malformed or tampered with). */
  | { kind: "invalidToken" }
  /** An authentic `token` past its expiry: the page offers to send a fresh link. */
  | { kind: "expiredToken" }
  /** A fresh link was asked for: the same answer whatever happened. */
  | { kind: "linkRequested" };

/** Status of the page for a `token` that is not one of ours. */
export const INVALID_TOKEN_STATUS = 400;
/** Status of the page for an expired `token` (the link is gone; the page offers a new one). */
export const EXPIRED_TOKEN_STATUS = 410;

/**
 * Dates as spec section 9 asks (US English, short month, day, year, hour and minute). The server
 * renders the page, so it cannot know the visitor's time zone: times are given in UTC, and say so.
 */
const DATE_FORMAT = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZone: "UTC",
  timeZoneName: "short",
});

/** An ISO 8601 date as the page shows it, e.g. "Mar 5, 2026, 2:07 PM UTC"; `null` for none. */
export function formatDate(iso: string | null): string | null {
  if (!iso) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : DATE_FORMAT.format(date);
}

/** The donor's page: what the spec shows, and the donor's receipts to download. */
async function donorPage(
  ctx: RouteContext<CancelPageData, AppState>,
  donor: Donor,
  cancelled: boolean,
): Promise<CancelPageData> {
  const { store, config } = ctx.state.services;
  const receipts = await receiptLinks(store, config.appSecret, [donor.id], ctx.state.lang);
  return { kind: "donor", donor: donorView(donor), cancelled, receipts };
}

/** The `userId` of the query: `undefined` when absent, `null` when malformed. */
function readUserId(url: URL): string | null | undefined {
  const id = url.searchParams.get("userId");
  if (id === null || id.trim() === "") return undefined;
  return DONOR_ID.test(id) ? id : null;
}

/** The `token` of the query (a manage link, `lib/donor_portal/manage_link.ts`), or `undefined` when absent. */
function readToken(url: URL): string | undefined {
  const token = url.searchParams.get("token");
  return token === null || token.trim() === "" ? undefined : token.trim();
}

/** The page for a `token` the page cannot act on: not ours (400), or expired (410). */
function refuseToken(ctx: RouteContext<CancelPageData, AppState>, kind: "invalid" | "expired") {
  return kind === "invalid"
    ? ctx.render({ kind: "invalidToken" }, { status: INVALID_TOKEN_STATUS })
    : ctx.render({ kind: "expiredToken" }, { status: EXPIRED_TOKEN_STATUS });
}

/**
 * `/{lang}/cancel-subscription?userId=…`: the donor's own page (the id is the capability). GET
 * shows the donor as the server has it; the orange button is a plain form that POSTs to this same
 * address, stops the monthly donation (`stopMonthlyPayments`) and shows the server's answer, in
 * which the button has become the home link. Works without JavaScript. A cross-site form cannot
 * cancel someone's donation: `_middleware.ts` refuses a POST from another site with this page's
 * `forbidden` message (403) before it gets here.
 *
 * `?token=…` (the manage link of every donor email, `lib/donor_portal/manage_link.ts`) opens the same page when
 * `userId` is absent; `userId` behaves exactly as the spec says whatever `token` is. A token that
 * is not ours gets a clear refusal (400); an expired one a page (410) whose form (no JavaScript)
 * POSTs `send=link` here to have a fresh link sent to the donor's email on file, rate-limited,
 * answering the same whatever happens.
 */
export const handler: Handlers<CancelPageData, AppState> = {
  async GET(_req, ctx) {
    const id = readUserId(ctx.url);
    const token = id === undefined ? readToken(ctx.url) : undefined;
    if (token !== undefined) {
      const read = await readManageToken(await manageLinkKey(ctx.state.services.config.appSecret), token);
      if (read.kind !== "valid") return refuseToken(ctx, read.kind);
      const donor = await ctx.state.services.store.donors.get(read.donorId);
      if (!donor) return ctx.render({ kind: "unknown" }, { status: 404 });
      return ctx.render(await donorPage(ctx, donor, false));
    }
    if (id === undefined) return ctx.render({ kind: "missing" }, { status: MISSING_ID_STATUS });
    const donor = id === null ? null : await ctx.state.services.store.donors.get(id);
    if (!donor) return ctx.render({ kind: "unknown" }, { status: 404 });
    return ctx.render(await donorPage(ctx, donor, false));
  },
  async POST(req, ctx) {
    const id = readUserId(ctx.url);
    const token = id === undefined ? readToken(ctx.url) : undefined;
    if (token !== undefined) return await postWithToken(req, ctx, token);
    await req.body?.cancel();
    if (id === undefined) return ctx.render({ kind: "missing" }, { status: MISSING_ID_STATUS });
    const donor = id === null ? null : await stopMonthlyPayments(ctx.state.services.store, id);
    if (!donor) return ctx.render({ kind: "unknown" }, { status: 404 });
    ctx.state.log.info("monthly donation stopped"); // not the donor id: it is the cancel key
    return ctx.render(await donorPage(ctx, donor, true));
  },
};

/**
 * Whether the POST is the expired page's form asking for a fresh link (`send=link`). The body is
 * bounded by the app's body limit (`lib/http/pipeline.ts`, 413 beyond it).
 */
async function asksForFreshLink(req: Request): Promise<boolean> {
  if (!req.body) return false;
  return new URLSearchParams(await req.text()).get("send") === "link";
}

/** A POST with a manage token: cancel (valid token) or send a fresh link (expired token's form). */
async function postWithToken(
  req: Request,
  ctx: RouteContext<CancelPageData, AppState>,
  token: string,
): Promise<Response> {
  const { services, log } = ctx.state;
  const key = await manageLinkKey(services.config.appSecret);
  const read = await readManageToken(key, token);
  if (read.kind === "expired" && await asksForFreshLink(req)) {
    const outcome = await requestFreshLink(
      { store: services.store, enqueue: services.enqueueMessage, key },
      { token, lang: ctx.state.lang, address: clientAddress(ctx.hono, services.config.trustProxy) },
    );
    log.info("fresh manage link asked for", { outcome });
    return ctx.render({ kind: "linkRequested" });
  }
  if (!req.bodyUsed) await req.body?.cancel();
  if (read.kind !== "valid") return refuseToken(ctx, read.kind);
  const donor = await stopMonthlyPayments(services.store, read.donorId);
  if (!donor) return ctx.render({ kind: "unknown" }, { status: 404 });
  log.info("monthly donation stopped");
  return ctx.render(await donorPage(ctx, donor, true));
}

function HomeButton(props: { t: TFunction; lang: string }) {
  return <a class="button" href={`/${props.lang}`}>{props.t("cancel.homeButton")}</a>;
}

function DonorInfo(props: { t: TFunction; donor: DonorView }) {
  const { t, donor } = props;
  const na = t("common.notAvailable");
  const next = donor.monthlyPaymentAvailable ? formatDate(donor.nextPaymentDate) : null;
  return (
    <section class="user-info" aria-labelledby="user-info-title">
      <h2 id="user-info-title">{t("cancel.userInfo")}</h2>
      <dl class="details-list">
        <div>
          <dt>{t("cancel.name")}</dt>
          <dd>{`${donor.firstName} ${donor.lastName}`}</dd>
        </div>
        <div>
          <dt>{t("cancel.email")}</dt>
          <dd>
            <bdi dir="ltr">{donor.email}</bdi>
          </dd>
        </div>
        <div>
          <dt>{t("cancel.country")}</dt>
          <dd>{donor.country}</dd>
        </div>
        <div>
          <dt>{t("cancel.lastPayment")}</dt>
          <dd>{formatDate(donor.paymentDate) ?? na}</dd>
        </div>
        {next && (
          <div>
            <dt>{t("cancel.nextPayment")}</dt>
            <dd>{next}</dd>
          </div>
        )}
        <div>
          <dt>{t("cancel.monthlyActive")}</dt>
          <dd>{donor.monthlyPaymentAvailable ? t("cancel.yes") : t("cancel.no")}</dd>
        </div>
      </dl>
    </section>
  );
}

/** The cancel-subscription page. */
export default function CancelPage({ state, data }: PageProps<CancelPageData, AppState>) {
  const { t, lang } = state;
  // The address carries the donor's capability: keep it out of search engines.
  const title = (
    <>
      <Head>
        <meta name="robots" content="noindex" />
      </Head>
      <PageTitle title={t("pages.cancelSubscription")} siteName={t("meta.siteName")} />
    </>
  );
  if (data.kind === "expiredToken" || data.kind === "linkRequested") {
    const sent = data.kind === "linkRequested";
    return (
      <section class="cancel">
        {title}
        <p class={sent ? "notice-success" : "result-reason"} role={sent ? "status" : "alert"}>
          {t(sent ? "manageLink.requested" : "manageLink.expired")}
        </p>
        <div class="result-actions">
          {sent ? <HomeButton t={t} lang={lang} /> : (
            <form method="post">
              <input type="hidden" name="send" value="link" />
              <button type="submit" class="button button-primary">{t("manageLink.sendButton")}</button>
            </form>
          )}
        </div>
      </section>
    );
  }
  if (data.kind !== "donor") {
    const message = data.kind === "missing"
      ? t("cancel.missingId")
      : data.kind === "unknown"
      ? t("cancel.unknownId")
      : data.kind === "invalidToken"
      ? t("manageLink.invalid")
      : t("cancel.forbidden");
    return (
      <section class="cancel">
        {title}
        <p class="result-reason" role="alert">{message}</p>
        <div class="result-actions">
          <HomeButton t={t} lang={lang} />
        </div>
      </section>
    );
  }
  const { donor, cancelled } = data;
  return (
    <section class="cancel">
      {title}
      <p class="result-message">{t("cancel.subtitle")}</p>
      {cancelled && <p class="notice-success" role="status">{t("cancel.cancelled")}</p>}
      <DonorInfo t={t} donor={donor} />
      <ReceiptList t={t} lang={lang} receipts={data.receipts} formatDate={formatDate} />
      <div class="result-actions">
        {donor.monthlyPaymentAvailable
          ? (
            <form method="post">
              <button type="submit" class="button button-cancel">{t("cancel.cancelButton")}</button>
            </form>
          )
          : <HomeButton t={t} lang={lang} />}
      </div>
    </section>
  );
}
